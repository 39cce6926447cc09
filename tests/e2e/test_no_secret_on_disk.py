"""No token issued reaches Redis in the clear: after a stretch of play through the Procfile's web
(its fast lane included) against a Redis writing every command to its append-only file, no key
name, no value scanned and no byte of that file holds any token a game was created with."""

from __future__ import annotations

import random

import redis

from bench.local import start_redis
from tests.api import Game
from tests.conftest import _free_port
from tests.e2e.served import serve


def test_no_token_is_in_any_key_or_the_append_only_file(tmp_path):
    port = _free_port()
    proc = start_redis(port, "--save", "", "--appendonly", "yes", "--appendfsync", "always",
                       "--dir", str(tmp_path))
    url = f"redis://127.0.0.1:{port}/0"
    try:
        # Windows long enough that the counts are still there to be scanned.
        with serve({"REDIS_URL": url, "TABLELOG_RATE_PER_TOKEN": "100000/hour"}) as http:
            tokens = []
            for n in range(2):
                body = http.post("/v1/games", json={"game": "coloretto", "seed": f"disk{n}",
                                                     "players": ["ann", "bob", "cid"]}).json
                tokens += [body["table_token"], *(s["token"] for s in body["seats"])]
                game = Game(http, body, {s["seat"]: s["token"] for s in body["seats"]})
                game.play(random.Random(n), 12)
                assert http.get(game.url(), headers=game.table).status_code == 200
                assert http.get(game.url("/legal-moves"), headers=game.seat(1)).status_code == 200
                # A refused token is counted too.
                http.get(game.url(), headers={"Authorization": "Bearer " + tokens[-1][::-1]})
        db = redis.Redis.from_url(url)
        names = [name.decode() for name in db.scan_iter(count=1000)]
        assert any(name.startswith("LIMITS:tl/token/") for name in names)
        on_disk = b"".join(p.read_bytes() for p in (tmp_path / "appendonlydir").iterdir())
        db.close()
    finally:
        proc.terminate()
        proc.wait(10)
    assert len(tokens) == 8 and len(on_disk) > 10_000
    assert [t for t in tokens if any(t in name for name in names)] == []
    assert [t for t in tokens if t.encode() in on_disk] == []
