"""The README's curl and command-line tours (its table actions' too), run as written against
the suite's live service (its Redis and workers): every command answers as the tour says (2xx,
or the refusal its comment names; exit code 0, or the one its comment gives).

Each tour's shell block is run command by command in one bash, in a folder of the test's own;
and all of them, top to bottom, in one `set -u` bash as a newcomer pastes them, so that no
block uses a variable the blocks before it never defined. What a person does by hand is done
for them: `API` points at the service, `tablelog` is this checkout's command line, `GAME=...`
takes the id the line above printed, and `watch`, which follows a game to its end, is stopped
after a few seconds as Ctrl-C would."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text()
STATUS = "@@status"
EXIT = "@@exit"
# `watch` follows a game to its end: stopped as a person would (timeout's own exit code).
WATCHED_S, STOPPED = 4, 124


# The README's shell blocks that are no tour of a running service: make's targets, games moved
# between two other servers, the operator's compaction, the benchmark, an event (its rounds
# wait for games played meanwhile: tests/cli/test_events.py runs those commands). Every other
# block is one.
BY_HAND = ("The two commands", "Moving a club's history to another server",
           "Ended games are compacted", "Benchmark",
           "Tournaments: events, seating and standings that cite their games")


def shell_blocks() -> list[tuple[str, str]]:
    """Every shell block of the README, in order, with the title of its section."""
    blocks: list[tuple[str, str]] = []
    title, block = "", None
    for line in README.splitlines(keepends=True):
        if block is not None:
            if line.startswith("```"):
                blocks.append((title, block))
                block = None
            else:
                block += line
        elif line.startswith("## "):
            title = line[3:].strip()
        elif line.strip() == "```sh":
            block = ""
    return blocks


def tour(title: str, block_number: int = 0) -> list[tuple[str, str]]:
    """The commands of the README section `title`'s shell block (its first, or the one
    numbered), each with the comment line that follows it, if any (where the tour says what
    comes back)."""
    return commands_of([block for t, block in shell_blocks() if t == title][block_number])


def commands_of(block: str) -> list[tuple[str, str]]:
    commands: list[tuple[str, str]] = []
    pending = ""
    for line in block.splitlines():
        if pending:
            pending += "\n" + line
        elif line.startswith("#") or not line.strip():
            if commands and line.startswith("# ->"):
                commands[-1] = (commands[-1][0], line)
            continue
        else:
            pending = line
        if not pending.endswith("\\"):
            commands.append((pending, ""))
            pending = ""
    return commands


def run(commands: list[str], cwd, env) -> str:
    """Run `commands` in one bash, each followed by a marker line with its exit code (on a
    line of its own: a curl's answer ends with no newline)."""
    script = "".join(f"{command}\nprintf '\\n{EXIT} %s\\n' $?\n" for command in commands)
    done = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


@pytest.fixture
def shell(web, tmp_path):
    env = {**os.environ, "API": web, "TABLELOG_URL": web, "XDG_DATA_HOME": str(tmp_path),
           "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    env.pop("TABLELOG_TOKEN", None)
    return tmp_path, env


@pytest.mark.parametrize(("title", "least", "refusal"), [
    ("A tour in curl", 12, "not-your-turn"),
    ("Recording a game at a real table", 8, "card-not-in-game"),
])
def test_the_curl_tours_answer_as_they_say(shell, title, least, refusal):
    commands = tour(title)
    assert len(commands) >= least
    # `API=` is the suite's service.
    said = run([_curl_prelude(), *(c for c, _ in commands if not c.startswith("API="))],
               *shell)
    statuses = [int(s) for s in re.findall(rf"{STATUS} (\d+)", said)]
    expected = [_status(note) for command, note in commands
                if command.lstrip().startswith("curl")]
    assert len(statuses) == len(expected), said
    for status, wanted, (command, _) in zip(statuses, expected,
                                            [c for c in commands if c[0].startswith("curl")],
                                            strict=True):
        assert status == wanted if wanted else 200 <= status < 300, (command, status, said)
    assert f'"code":"{refusal}"' in said.replace(" ", "")


def _curl_prelude() -> str:
    """Each answer's status to stderr, after its body."""
    return f"curl() {{ command curl -w '%{{stderr}}{STATUS} %{{http_code}}\\n' \"$@\"; }}"


def _tablelog_prelude(python: str) -> str:
    return f'tablelog() {{ "{python}" -m cli "$@"; }}'


def _pasted(command: str, python: str) -> tuple[str, int]:
    """A command line of a command-line tour as run here, and the exit code it should give."""
    if command.startswith("GAME=..."):
        # The game `new` just made: its tokens are the newest file kept (listing the server's
        # games newest first would find an imported one dated later, from another test).
        command = ('GAME=$(basename "$(ls -t "$XDG_DATA_HOME"/tablelog/tokens/*.json | head -1)"'
                   " .json)")
    elif command.startswith("tablelog watch"):
        command = f'timeout {WATCHED_S} "{python}" -m cli {command.split(" ", 1)[1]}'
    code = re.search(r"# -> exit (\d)", command)
    return command, STOPPED if "watch" in command else int(code.group(1)) if code else 0


def _status(note: str) -> int | None:
    """The HTTP status a tour's comment says comes back; None for a 2xx."""
    return int(m.group(1)) if (m := re.match(r"# -> (\d+)", note)) else None


def test_the_readmes_tours_pasted_top_to_bottom_define_every_variable_they_use(shell, web):
    cwd, env = shell
    env = {k: v for k, v in env.items() if k != "API"}  # the curl tour defines it
    blocks = [(title, block) for title, block in shell_blocks() if title not in BY_HAND]
    assert [title for title, _ in blocks] == [
        "A tour in curl", "Takebacks, concessions, abandoned games and turn clocks",
        "A tour on the command line", "Table actions on the command line",
        "Recording a game at a real table", "Recording a game at a real table"]
    python = sys.executable
    lines, codes, statuses = [], [], []
    for _, block in blocks:
        for command, note in commands_of(block):
            if command.startswith("API="):
                command, code = f"API={web}", 0  # the suite's service for the README's
            elif command.lstrip().startswith("curl"):
                code = 0  # whatever the status, curl itself must not fail
                statuses.append((command, _status(note)))
            else:
                command, code = _pasted(command, python)
            lines.append(command)
            codes.append(code)
    # `set -u`: a variable no line before defined stops the shell, naming it.
    said = run(["set -uo pipefail", _curl_prelude(), _tablelog_prelude(python), *lines],
               cwd, env)
    assert "unbound variable" not in said
    exits = [int(c) for c in re.findall(rf"^{EXIT} (\d+)$", said, re.MULTILINE)]
    assert exits[:3] == [0, 0, 0] and len(exits) == len(lines) + 3, said
    for code, wanted, command in zip(exits[3:], codes, lines, strict=True):
        assert code == wanted, (command, code, said)
    answered = [int(s) for s in re.findall(rf"{STATUS} (\d+)", said)]
    assert len(answered) == len(statuses), said
    for status, (command, wanted) in zip(answered, statuses, strict=True):
        assert status == wanted if wanted else 200 <= status < 300, (command, status, said)


@pytest.mark.parametrize(("title", "block_number", "rejection"), [
    ("A tour on the command line", 0, "Rejected: it is seat 0's turn"),
    ("Table actions on the command line", 0, "(claim-too-early)."),
    ("Recording a game at a real table", 1, "(card-not-in-game)."),
])
def test_the_command_line_tours_exit_as_they_say(shell, title, block_number, rejection):
    commands = tour(title, block_number)
    python = sys.executable
    lines = [_tablelog_prelude(python)]
    expected = []
    for command, _ in commands:
        command, wanted = _pasted(command, python)
        lines.append(command)
        expected.append(wanted)
    said = run(lines, *shell)
    codes = [int(c) for c in re.findall(rf"^{EXIT} (\d+)$", said, re.MULTILINE)]
    assert len(codes) == len(lines), said
    assert codes[0] == 0  # the prelude
    for code, wanted, command in zip(codes[1:], expected, lines[1:], strict=True):
        assert code == wanted, (command, code, said)
    assert rejection in said
