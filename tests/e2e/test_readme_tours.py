"""The README's curl and command-line tours (its table actions' too), run as written against
the suite's live service (its Redis and workers): every command answers as the tour says (2xx,
or the refusal its comment names; exit code 0, or the one its comment gives).

Each tour's shell block is run command by command in one bash, in a folder of the test's own.
What a person does by hand is done for them: `API` points at the service, `tablelog` is this
checkout's command line, `GAME=...` takes the id the line above printed, and `watch`, which
follows a game to its end, is stopped after a few seconds as Ctrl-C would."""

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


def tour(title: str, block_number: int = 0) -> list[tuple[str, str]]:
    """The commands of the README section `title`'s shell block (its first, or the one
    numbered), each with the comment line that follows it, if any (where the tour says what
    comes back)."""
    section = README.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh\n")[1 + block_number].split("```", 1)[0]
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
    """Run `commands` in one bash, each followed by a marker line with its exit code."""
    script = "".join(f"{command}\necho '{EXIT}' $?\n" for command in commands)
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
    # Each answer's status goes to stderr, after its body; `API=` is the suite's service.
    prelude = (f"curl() {{ command curl -w '%{{stderr}}{STATUS} %{{http_code}}\\n' \"$@\"; }}")
    said = run([prelude, *(c for c, _ in commands if not c.startswith("API="))], *shell)
    statuses = [int(s) for s in re.findall(rf"{STATUS} (\d+)", said)]
    expected = [int(m.group(1)) if (m := re.match(r"# -> (\d+)", note)) else None
                for command, note in commands if command.lstrip().startswith("curl")]
    assert len(statuses) == len(expected), said
    for status, wanted, (command, _) in zip(statuses, expected,
                                            [c for c in commands if c[0].startswith("curl")],
                                            strict=True):
        assert status == wanted if wanted else 200 <= status < 300, (command, status, said)
    assert f'"code":"{refusal}"' in said.replace(" ", "")


@pytest.mark.parametrize(("title", "block_number", "rejection"), [
    ("A tour on the command line", 0, "Rejected: it is seat 0's turn"),
    ("Table actions on the command line", 0, "(claim-too-early)."),
    ("Recording a game at a real table", 1, "(card-not-in-game)."),
])
def test_the_command_line_tours_exit_as_they_say(shell, title, block_number, rejection):
    commands = tour(title, block_number)
    python = sys.executable
    prelude = f'tablelog() {{ "{python}" -m cli "$@"; }}'
    lines = [prelude]
    expected = []
    for command, _ in commands:
        if command.startswith("GAME=..."):
            command = "GAME=$(tablelog games --json | jq -r '.games[0].id')"
        elif command.startswith("tablelog watch"):
            command = f'timeout {WATCHED_S} "{python}" -m cli {command.split(" ", 1)[1]}'
        lines.append(command)
        code = re.search(r"# -> exit (\d)", command)
        wanted = int(code.group(1)) if code else 0
        expected.append(STOPPED if "watch" in command else wanted)
    said = run(lines, *shell)
    codes = [int(c) for c in re.findall(rf"^{EXIT} (\d+)$", said, re.MULTILINE)]
    assert len(codes) == len(lines), said
    assert codes[0] == 0  # the prelude
    for code, wanted, command in zip(codes[1:], expected, lines[1:], strict=True):
        assert code == wanted, (command, code, said)
    assert rejection in said
