"""Sentences are written once, as templates in each game's spec, and said by two renderers: the
command line's (`engine.sentences`) and the pages' (`service/static/js/sentences.js`, run here
with node). Every entry of every golden replay, as the table, a seat and a spectator see it
while the game runs and as everybody sees it once it is finished, reads the same in both, and
reads as a game record: no field dump, no raw boolean or null, nothing "(hidden)" once the game
is over, no doubled word."""

from __future__ import annotations

import functools
import json
import re
import subprocess

import pytest

from engine.game import SPECTATOR, TABLE
from engine.games import GAMES
from engine.sentences import folded, render, sentence
from engine.visibility import redact
from tests.conftest import ROOT
from tests.golden.generate import HERE, load

GOLDEN = sorted(HERE.rglob("*.json.gz"))
IDS = [str(p.relative_to(HERE)) for p in GOLDEN]
PAGES = (ROOT / "service" / "static" / "js" / "sentences.js").as_uri()
# Reads {spec, players, logs: [[entry...]...]} on stdin, prints each log's sentences and the
# submissions it folds into their verdicts.
SAY = f"""
import {{ folded, sentence }} from "{PAGES}";
let text = "";
for await (const chunk of process.stdin) text += chunk;
const {{ spec, players, logs }} = JSON.parse(text);
const said = logs.map((entries) => {{
  const bySeq = new Map();
  const lines = entries.map((e) => {{
    bySeq.set(e.seq, e);
    return sentence(e, players, bySeq, spec);
  }});
  return {{ lines, folded: [...folded(entries)].sort((a, b) => a - b) }};
}});
process.stdout.write(JSON.stringify(said));
"""
# Views while the game runs (the table's, a spectator's, seat 0's), then once it is finished.
RUNNING = (TABLE, SPECTATOR, 0)
RAW = re.compile(r"\b(True|False|None|true|false|null|undefined|NaN)\b|\[object|[{}]")
DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)


def pages_say(spec, players, logs):
    run = subprocess.run(["node", "--input-type=module", "-e", SAY], cwd=ROOT, check=True,
                         input=json.dumps({"spec": spec, "players": players, "logs": logs}),
                         capture_output=True, text=True, timeout=60)
    return json.loads(run.stdout)


@functools.cache
def golden(path):
    """The golden game's spec, players, its logs as each view sees them, and what the command
    line and the pages say of each log."""
    entries = load(path)["entries"]
    created = entries[0]
    spec = GAMES[created["game"]].spec.to_json()
    players = created["players"]
    logs = [[redact(e, viewer) for e in entries] for viewer in RUNNING]
    logs.append([redact(e, 0, finished=True) for e in entries])
    pages = pages_say(spec, players, logs)
    cli = [{"lines": python_says(log, players, spec), "folded": sorted(folded(log))}
           for log in logs]
    return spec, players, logs, cli, pages


def python_says(entries, players, spec):
    by_seq = {}
    said = []
    for entry in entries:
        by_seq[entry["seq"]] = entry
        said.append(sentence(entry, players, by_seq, spec))
    return said


@pytest.mark.parametrize("path", GOLDEN, ids=IDS)
def test_the_command_line_and_the_pages_say_every_golden_entry_alike(path):
    spec, _, logs, cli, pages = golden(path)
    for log, said, page in zip(logs, cli, pages, strict=True):
        assert len(said["lines"]) == len(page["lines"]) == len(log)
        differ = [(c, p) for c, p in zip(said["lines"], page["lines"], strict=True) if c != p]
        assert differ == [], differ[:3]
        assert said["folded"] == page["folded"]
    # What is compared is the games' own sentences, not only their generic fallback.
    assert spec["facts"] and spec["says"]


@pytest.mark.parametrize("path", GOLDEN, ids=IDS)
def test_every_fact_of_a_golden_game_is_said_by_a_sentence_written_for_it(path):
    spec, players, logs, _, _ = golden(path)
    for log in logs:
        for entry in log:
            for f in entry.get("effects") or []:
                template = spec["facts"].get(f["type"])
                assert template, f"{spec['name']} has no sentence for {f['type']!r}"
                assert render(template, f, players) is not None, f


@pytest.mark.parametrize("path", GOLDEN, ids=IDS)
def test_a_golden_game_reads_as_a_record_in_both_renderers(path):
    _, _, logs, cli, pages = golden(path)
    finished = len(logs) - 1
    for view, (log, said, page) in enumerate(zip(logs, cli, pages, strict=True)):
        names = {k for e in log for d in (e, *(e.get("effects") or [])) for k in d if "_" in k}
        for entry, line, page_line in zip(log, said["lines"], page["lines"], strict=True):
            for text in (line, page_line):
                assert not RAW.search(text), (entry, text)
                assert not DOUBLED.search(text), (entry, text)
                assert not [n for n in names if n in text], (entry, text)
                if view == finished:
                    assert "hidden" not in text and "secret" not in text, (entry, text)
        # One line per submission and its verdict: every judged submission is folded.
        judged = sorted(e["of"] for e in log if "of" in e)
        assert said["folded"] == page["folded"] == judged


def test_entries_no_template_knows_read_alike_and_plainly_in_both_renderers():
    """Table actions, whose seat may be the table, read by their own sentences; kinds no
    template knows read in words."""
    spec = GAMES["coloretto"].spec.to_json()
    players = ["ann", "bob", "cy"]
    log = [
        {"seq": 1, "type": "game-created", "game": "coloretto", "players": players},
        {"seq": 2, "type": "move-submitted", "seat": "table",
         "move": {"type": "takeback", "to": 1}},
        {"seq": 3, "type": "move-accepted", "seat": "table", "of": 2,
         "move": {"type": "takeback"},
         "effects": [{"type": "taken-back", "seat": "table", "to": 1, "undone": [],
                      "agreed": True, "declined": False, "by": None}]},
        {"seq": 4, "type": "move-submitted", "seat": 1, "move": {"type": "concede"}},
        {"seq": 5, "type": "move-rejected", "seat": 1, "of": 4, "detail": "bob conceded already"},
        {"seq": 6, "type": "seat-conceded", "seat": 1},
    ]
    said = python_says(log, players, spec)
    assert pages_say(spec, players, [log])[0] == {"lines": said, "folded": [2, 4]}
    assert said[1:] == [
        "the table submitted: take the game back to entry 1",
        "the game was taken back to entry 1",
        "bob submitted: concede",
        "bob's concede was rejected: bob conceded already",
        "bob seat conceded",
    ]
