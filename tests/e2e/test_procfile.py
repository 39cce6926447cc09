"""End to end: the Procfile's own `web` and `worker` entries, driven over real HTTP.

Started exactly as outside tools start them: each line run by a shell with PORT and REDIS_URL
set. A whole game is played through the socket with each seat's own token.
"""

from __future__ import annotations

import random

import pytest

from tests.api import Game
from tests.e2e.served import procfile, serve


@pytest.fixture(scope="module")
def http(redis_url):
    with serve({"REDIS_URL": redis_url}) as client:
        yield client


def test_procfile_has_the_web_and_workers_judging_and_auditing():
    assert set(procfile()) == {"web", "worker", "auditor"}


def test_a_whole_coloretto_game_over_real_http(http):
    created = http.post("/v1/games", json={"game": "coloretto", "players": ["ann", "bob", "cid"],
                                            "seed": "e2e"})
    assert created.status_code == 201
    body = created.json
    game = Game(http, body, {s["seat"]: s["token"] for s in body["seats"]})
    assert game.play_to_end(random.Random(1)) > 20
    summary = http.get(game.url()).json
    assert summary["status"] == "finished" and summary["seed"] == "e2e"
    audit = http.post(game.url("/audit?wait=8"), json={"claimed": {"1": 0}}).json
    assert audit["ok"] is True
    events = http.get(game.url("/events"), headers={"Accept": "application/x-ndjson"})
    assert events.headers["Content-Type"].startswith("application/x-ndjson")
    assert http.get("/healthz").json["workers"] >= 1
