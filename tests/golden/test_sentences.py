"""Sentences are written once, as templates in each game's spec, and said by two renderers: the
command line's (`engine.sentences`) and the pages' (`service/static/js/sentences.js`, run here
with node). Every entry of every golden replay, as the table, a seat and a spectator see it,
reads the same in both."""

from __future__ import annotations

import json
import subprocess

import pytest

from engine.game import SPECTATOR, TABLE
from engine.games import GAMES
from engine.sentences import sentence
from engine.visibility import redact
from tests.conftest import ROOT
from tests.golden.generate import HERE, load

GOLDEN = sorted(HERE.rglob("*.json.gz"))
PAGES = (ROOT / "service" / "static" / "js" / "sentences.js").as_uri()
# Reads {spec, players, logs: [[entry...]...]} on stdin, prints the sentences of each log.
SAY = f"""
import {{ sentence }} from "{PAGES}";
let text = "";
for await (const chunk of process.stdin) text += chunk;
const {{ spec, players, logs }} = JSON.parse(text);
const said = logs.map((entries) => {{
  const bySeq = new Map();
  return entries.map((e) => {{ bySeq.set(e.seq, e); return sentence(e, players, bySeq, spec); }});
}});
process.stdout.write(JSON.stringify(said));
"""


def python_says(entries, players, spec):
    by_seq = {}
    said = []
    for entry in entries:
        by_seq[entry["seq"]] = entry
        said.append(sentence(entry, players, by_seq, spec))
    return said


@pytest.mark.parametrize("path", GOLDEN, ids=[str(p.relative_to(HERE)) for p in GOLDEN])
def test_the_command_line_and_the_pages_say_every_golden_entry_alike(path):
    entries = load(path)["entries"]
    created = entries[0]
    spec = GAMES[created["game"]].spec.to_json()
    players = created["players"]
    logs = [[redact(e, viewer) for e in entries] for viewer in (TABLE, SPECTATOR, 0)]
    run = subprocess.run(["node", "--input-type=module", "-e", SAY], cwd=ROOT, check=True,
                         input=json.dumps({"spec": spec, "players": players, "logs": logs}),
                         capture_output=True, text=True, timeout=60)
    pages = json.loads(run.stdout)
    for log, page in zip(logs, pages, strict=True):
        cli = python_says(log, players, spec)
        assert len(cli) == len(page) == len(entries)
        differ = [(c, p) for c, p in zip(cli, page, strict=True) if c != p]
        assert differ == [], differ[:3]
    # What is compared is the games' own sentences, not only their generic fallback.
    assert any(spec["facts"] or spec["says"])
