"""`tablelog event new|seat|withdraw|standings|export` against the suite's service, and
`tablelog verify-event` offline (a process of its own, no server anywhere it could ask)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

from engine.events.entries import game_seed
from engine.games import GAMES
from engine.log import SUBMITTED
from engine.playout import play
from tests.api import bearer
from tests.conftest import ROOT
from tests.e2e.served import Http

NOWHERE = "http://127.0.0.1:9"


def _play(http, table, seed):
    """The table's game played to its end through the API, by the table's token."""
    playout = play(GAMES["hermit"], len(table["players"]), seed, random.Random(seed))
    moves = [(e["seat"], e["move"]) for e in playout.entries if e["type"] == SUBMITTED]
    for seat, move in moves:
        answer = http.post(f"/v1/games/{table['id']}/moves?wait=10",
                           json={"seat": seat, "move": move},
                           headers=bearer(table["table_token"]))
        assert answer.status_code == 201, answer.json


def verify_event(path, *options: str) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "TABLELOG_URL": NOWHERE, "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "cli", "verify-event", str(path), *options],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_an_event_run_from_the_command_line_verifies_offline(tablelog, web, tmp_path):
    created = tablelog.json("event", "new", "pub night", "ann", "bob", "cid", "dan",
                            "--game", "hermit", "--rounds", "1", "--table-size", "4",
                            "--points", "3,2,1,0", "--seed", "pub")
    event_id = created["id"]
    gone = tablelog.json("event", "withdraw", event_id, "dan")
    assert gone["after_round"] == 0
    seated = tablelog("event", "seat", event_id)
    assert seated.exit_code == 0, seated.output
    assert seated.stdout.startswith("Round 1 seated.\nTable 1: game ")
    shown = Http(web).get(f"/v1/events/{event_id}").json
    (table,) = shown["seated"][0]["tables"]
    table_token = json.loads((tmp_path / "tablelog" / "tokens" / f"{table['game']}.json"
                              ).read_text())["table_token"]
    _play(Http(web), {"id": table["game"], "players": table["players"],
                      "table_token": table_token}, game_seed("pub", 1, 1))
    ranked = tablelog.json("event", "standings", event_id)
    assert sorted(r["player"] for r in ranked["standings"]) == ["ann", "bob", "cid", "dan"]
    assert "rank" in tablelog("event", "standings", event_id).stdout
    saved = tmp_path / "event.json"
    assert tablelog("event", "export", event_id, "-o", str(saved)).exit_code == 0
    good = verify_event(saved)
    assert good.returncode == 0, good.stdout + good.stderr
    assert good.stdout.startswith("It verifies: 1 games re-judged, the seating drawn again")
    keys = tmp_path / "keys.json"
    keys.write_text(json.dumps(Http(web).get("/v1/keys").json))
    assert verify_event(saved, "--keys", str(keys)).returncode == 0
    document = json.loads(saved.read_text())
    entry = document["games"][table["game"]]["entries"][3]
    entry["at"] = "2020-01-01T00:00:00.000Z"
    saved.write_text(json.dumps(document))
    bad = verify_event(saved)
    assert bad.returncode == 1
    assert bad.stdout.startswith(f"It does not verify: game (game {table['game']}, entry"
                                 f" {entry['seq']})")
