"""Writes `backup/` and `answers.json.gz`: a store as tablelog wrote it before games lived in
partitions (main at 455d899, 2026-12-06), for `tests/store/test_layout.py`. Run once, by that
code; never again: the point of the files is that today's code did not write them.

    .venv/bin/python -m tests.store.unpartitioned.write

It plays, through the API with a worker judging: a Coloretto of 3 to its end, then compacted;
a Hermit of 3 part way, one move posted with an idempotency key; a Keltis card of 2 part way;
and a round-robin event of four Coloretto players, seated. Then `tablelog backup` takes the
store, and every game's answers that must read the same after the move are written down.
"""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import redis

from bench.local import free_port, start_redis
from service import create_app
from store import Store
from tests.api import bearer, create, head_unsigned
from tests.conftest import ROOT, start_workers, stop
from workers.compaction import compact

HERE = Path(__file__).resolve().parent
READS = ("", "/state", "/score", "/legal-moves", "/replay", "/events?limit=5000")
EVENT = {"name": "layout cup", "game": "coloretto", "players": ["a1", "a2", "a3", "a4"],
         "rounds": 1, "format": "round-robin", "table_size": 4, "points": [3, 2, 1, 0],
         "options": {"deals": 1}, "seed": "layout-cup"}


def read(client, url: str, token: str) -> list:
    answers = []
    for path in READS:
        answer = client.get(url + path, headers=bearer(token))
        body = answer.get_data()
        answers.append([path, answer.status_code,
                        head_unsigned(body).decode() if path == "/replay" else body.decode()])
    return answers


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_redis(port, "--save", "", "--appendonly", "no", "--dir", folder)
        url = f"redis://127.0.0.1:{port}/0"
        workers = start_workers(url, 1)
        try:
            written = play(url)
        finally:
            stop(workers)
        backup = HERE / "backup"
        subprocess.run([sys.executable, "-m", "cli", "backup", str(backup), "--redis-url", url],
                       cwd=ROOT, check=True)
        server.terminate()
        server.wait(10)
    (HERE / "answers.json.gz").write_bytes(gzip.compress(json.dumps(written).encode()))


def play(url: str) -> dict:
    client = create_app({"TESTING": True, "REDIS_URL": url}).test_client()
    rnd = random.Random(20261206)
    ended = create(client, "coloretto", ("ann", "bob", "cid"))
    ended.play_to_end(rnd)
    store = Store(redis.Redis.from_url(url))
    assert compact(store, ended.id) == "written", "the ended game was not compacted"
    hermit = create(client, "hermit", ("dee", "eve", "fay"))
    hermit.play(rnd, 6)
    legal = client.get(hermit.url("/legal-moves"), headers=hermit.table).json["moves"][0]
    answer = client.post(hermit.url("/moves?wait=5"), json={"move": legal["move"]},
                         headers={**hermit.seat(legal["seat"]), "Idempotency-Key": "layout-1"})
    assert answer.status_code == 201, answer.json
    keltis = create(client, "keltis-card", ("gus", "hal"))
    keltis.play(rnd, 9)
    event = client.post("/v1/events", json=EVENT)
    assert event.status_code == 201, event.json
    organiser = event.json["organiser_token"]
    seated = client.post(f"/v1/events/{event.json['id']}/rounds", headers=bearer(organiser))
    assert seated.status_code == 201, seated.json
    games = {}
    for game in (ended, hermit, keltis):
        games[game.id] = {"title": game.created["game"], "table_token": game.created["table_token"],
                          "seat_tokens": {str(s): t for s, t in game.tokens.items()},
                          "answers": read(client, game.url(), game.created["table_token"])}
    event_url = f"/v1/events/{event.json['id']}"
    return {"games": games, "idempotency": {"game": hermit.id, "key": "layout-1",
                                            "move": legal["move"], "seat": legal["seat"],
                                            "version": answer.json["version"]},
            "event": {"id": event.json["id"], "organiser_token": organiser,
                      "answers": [[p, *(lambda a: [a.status_code, a.get_data().decode()])(
                          client.get(event_url + p, headers=bearer(organiser)))]
                          for p in ("", "/log", "/standings")]}}


if __name__ == "__main__":
    main()
