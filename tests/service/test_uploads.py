"""Uploaded replays checked for anyone are bounded: in size, by what the longest real game
serves, and in number at once per address and web process (service.uploads).

The places test talks raw HTTP to the app served in a thread: a body sent in two halves holds
its request (and its place) between them, so what is running at once is the test's to say.
Every socket read has a timeout.
"""

from __future__ import annotations

import json
import random
import socket
import threading

import orjson
import pytest

from bench.played import replay
from engine.games import GAMES
from engine.playout import play
from schemas import api
from service import create_app
from service.at_once import AtOnce
from tests.conftest import served
from tests.e2e.test_refusals_over_http import post_head, read_answer


def test_the_longest_game_the_options_allow_verifies_with_room_to_spare(client):
    coloretto = GAMES["coloretto"]
    seats, seed = max(coloretto.seat_counts), "longest"
    out = play(coloretto, seats, seed, random.Random(seed), {"deals": 20}, slips=0.08, batch=3)
    created = out.entries[0]
    document = {
        "format": "tablelog-replay/1", "id": "longest", "game": "coloretto",
        "players": created["players"], "options": created["options"],
        "rules_version": created["rules_version"], "status": "finished",
        "version": len(out.entries), "seed_commitment": created["seed_commitment"],
        "seed": seed, "entries": out.entries,
        "score": coloretto.score(out.final).to_json(created["players"]),
    }
    size = len(orjson.dumps(document))
    assert 2 * size < api.LARGEST_UPLOAD
    answer = client.post("/v1/replays/verify", json=document)
    assert answer.status_code == 200 and answer.json["ok"]


def test_an_upload_past_its_limit_is_a_413_naming_it(client):
    for path in ("/v1/replays/verify", "/v1/replays/views"):
        answer = client.post(path, data=b" " * (api.LARGEST_UPLOAD + 1),
                             content_type="application/json")
        assert answer.status_code == 413
        assert answer.json["code"] == "body-too-large"
        assert str(api.LARGEST_UPLOAD) in answer.json["detail"]


def test_an_address_holds_its_places_and_forgets_them_once_given_back():
    places = AtOnce(2)
    assert places.enter("a") and places.enter("a")
    assert not places.enter("a")
    assert places.enter("b")
    places.leave("a")
    assert places.enter("a")
    for who in ("a", "a", "b"):
        places.leave(who)
    assert places.running == {}


@pytest.fixture(scope="module")
def served_app(redis_url):
    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "UPLOADS_AT_ONCE": 2})
    with served(app) as base:
        host, port = base.removeprefix("http://").split(":")
        yield app, (host, int(port))


def test_an_address_past_its_uploads_at_once_is_refused_429_until_one_is_answered(served_app):
    app, address = served_app
    document = orjson.dumps(replay("hermit", "uploads", "uploads"))
    head = post_head("/v1/replays/verify", f"Content-Length: {len(document)}")
    half = len(document) // 2
    holding = [socket.create_connection(address, timeout=10) for _ in range(2)]
    try:
        for sock in holding:
            sock.sendall(head + document[:half])
        _wait_for(lambda: app.extensions["uploads"].running.get("127.0.0.1") == 2)
        status, headers, body = _post(address, head + document)
        assert status == 429 and headers["Retry-After"] == "1"
        assert json.loads(body)["code"] == "uploads-busy"
        # Another address has places of its own.
        assert _post(address, head + document, source="127.0.0.2")[0] == 200
        for sock in holding:
            sock.sendall(document[half:])
            status, _, body = read_answer(sock)
            assert status == 200 and json.loads(body)["ok"]
    finally:
        for sock in holding:
            sock.close()
    assert _post(address, head + document)[0] == 200
    assert app.extensions["uploads"].running == {}


def _post(address, request: bytes, source: str = "127.0.0.1") -> tuple[int, dict, bytes]:
    with socket.create_connection(address, timeout=10, source_address=(source, 0)) as sock:
        sock.sendall(request)
        return read_answer(sock)


def _wait_for(condition, tries: int = 500) -> None:
    event = threading.Event()
    for _ in range(tries):
        if condition():
            return
        event.wait(0.01)
    raise AssertionError("the uploads never took their places")
