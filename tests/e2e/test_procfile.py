"""End to end: the Procfile's own `web` and `worker` entries, driven over real HTTP.

Started exactly as outside tools start them: each line run by a shell with PORT and REDIS_URL
set. A whole game is played through the socket with each seat's own token.
"""

from __future__ import annotations

import random
from http.client import HTTPConnection
from urllib.parse import urlsplit

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


def test_one_web_process_serves_many_more_open_followers_than_threads(redis_url):
    """A follower waits on a greenlet, not a thread: 64 of them stay open on the one web
    process while a move is posted and judged, and each is sent its verdict, then ends when
    its time is up (as every follow does, so that none holds the web for good)."""
    with serve({"REDIS_URL": redis_url, "TABLELOG_FOLLOW_SECONDS": "3"}) as http:
        created = http.post("/v1/games", json={"game": "coloretto", "seed": "followed",
                                                "players": ["ann", "bob", "cid"]}).json
        game = Game(http, created, {s["seat"]: s["token"] for s in created["seats"]})
        address = urlsplit(http.base)
        followers = [HTTPConnection(address.hostname, address.port, timeout=10)
                     for _ in range(64)]
        try:
            for follower in followers:
                follower.request("GET", game.url("/events?follow=1"),
                                 headers={"Accept": "text/event-stream"})
            answers = [follower.getresponse() for follower in followers]
            assert {a.status for a in answers} == {200}
            choice = http.get(game.url("/legal-moves"), headers=game.table).json["moves"][0]
            assert game.move(choice["seat"], choice["move"]).status_code == 201
            for answer in answers:
                assert b'"type":"move-accepted"' in answer.read()
        finally:
            for follower in followers:
                follower.close()
