"""The move lane (service/move_lane.py): a move to a game the web process knows is answered
without Flask's dispatch, and exactly as the route answers it. A body sent as
`application/json; charset=utf-8` is one the lane leaves to Flask, so each test sets the two
side by side."""

import json

import pytest
from flask import request_started

from service import create_app, limits
from tests.api import create, unstamped

VIA_FLASK = "application/json; charset=utf-8"


@pytest.fixture
def client(redis_url, workers, monkeypatch):
    for name, rate in limits.out_of_reach().items():
        monkeypatch.setenv(name, rate)
    return create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client()


@pytest.fixture
def dispatched(client):
    """The requests Flask dispatched."""
    seen = []

    def count(sender, **extra):
        seen.append(1)

    request_started.connect(count, client.application)
    yield seen
    request_started.disconnect(count, client.application)


def _post(game, seat, body, content_type="application/json", query="wait=5", **headers):
    return game.http.post(game.url(f"/moves?{query}"), data=json.dumps(body),
                          content_type=content_type, headers={**game.seat(seat), **headers})


def _answer(response):
    """An answer: its status, its headers but its request's own id, and its body."""
    return response.status_code, _headers(response), response.data


def _headers(response):
    return sorted((k, v) for k, v in response.headers.items() if k != "X-Request-Id")


def _signed_answer(response):
    """An answer that appended, its receipt told by what two games played alike share: the
    seq and the key (its game, hash, time and signature are the game's and the moment's), and
    its headers but its request's own id."""
    body = json.loads(response.data)
    receipt = body.pop("receipt")
    assert len(receipt["sig"]) == 86
    return (response.status_code, _headers(response), body,
            receipt["seq"], receipt["kid"])


def test_a_move_to_a_known_game_is_not_dispatched_by_flask(client, dispatched):
    game = create(client)
    assert game.move(0, {"type": "draw"}).status_code == 201  # learnt here
    before = len(dispatched)
    answer = _post(game, 0, {"move": {"type": "place", "row": 0}})
    assert answer.status_code == 201 and answer.json["status"] == "accepted"
    assert answer.headers["Location"] == game.url(f"/moves/{answer.json['seq']}")
    assert len(dispatched) == before


def test_the_lane_answers_a_move_as_the_route_does(client, dispatched):
    games = [create(client, seed="same") for _ in range(2)]
    for game in games:
        assert game.move(0, {"type": "draw"}).status_code == 201
    before = len(dispatched)
    on_lane, routed = (_post(g, 0, {"move": {"type": "place", "row": 1}}, kind)
                       for g, kind in zip(games, ("application/json", VIA_FLASK), strict=True))
    assert len(dispatched) == before + 1  # the second alone
    assert on_lane.status_code == 201
    routed.headers["Location"] = routed.headers["Location"].replace(games[1].id, games[0].id)
    assert _signed_answer(on_lane) == _signed_answer(routed)


@pytest.mark.parametrize(("body", "query", "code"), [
    ("{not json", "wait=5", "invalid-json"),
    ({"move": {"type": "draw"}, "colour": "red"}, "wait=5", "invalid-request"),
    ({"move": {"type": "draw"}}, "wait=eleven", "invalid-request"),
    ({"move": {"type": "draw"}}, "wait=5&also=1", "invalid-request"),
    ({"move": {"type": "fly"}}, "wait=5", "invalid-move"),
    ({"move": {"type": "draw"}, "seat": 1}, "wait=5", "not-your-seat"),
    ({"move": {"type": "draw"}, "expected_version": 2}, "wait=5", "version-conflict"),
])
def test_a_refused_move_is_refused_as_the_route_refuses_it(client, dispatched, body, query,
                                                             code):
    """Input that does not load, and a move refused once read, are answered on the lane by
    the app's error handlers, as the route answers them."""
    game = create(client)
    assert game.move(0, {"type": "draw"}).status_code == 201
    raw = body if isinstance(body, str) else json.dumps(body)
    before = len(dispatched)
    on_lane = game.http.post(game.url(f"/moves?{query}"), data=raw,
                             content_type="application/json", headers=game.seat(0))
    assert len(dispatched) == before  # answered on the lane
    routed = game.http.post(game.url(f"/moves?{query}"), data=raw, content_type=VIA_FLASK,
                            headers=game.seat(0))
    assert on_lane.json["code"] == code
    assert _answer(on_lane) == _answer(routed)


def test_a_move_with_an_idempotency_key_goes_the_lane_and_counts_once(client, dispatched):
    game = create(client)
    assert game.move(0, {"type": "draw"}).status_code == 201
    before = len(dispatched)
    first, again = (_post(game, 0, {"move": {"type": "place", "row": 2}},
                          **{"Idempotency-Key": "k-1"}) for _ in range(2))
    assert len(dispatched) == before
    assert first.status_code == again.status_code == 201
    assert unstamped(first.json) == unstamped(again.json)
    other = _post(game, 0, {"move": {"type": "place", "row": 1}}, **{"Idempotency-Key": "k-1"})
    assert (other.status_code, other.json["code"]) == (422, "idempotency-key-reused")


def test_a_move_refused_past_its_rate_is_a_429_first(redis_url, workers, monkeypatch):
    for name, rate in {**limits.out_of_reach(), "TABLELOG_RATE_PER_TOKEN": "2/minute"}.items():
        monkeypatch.setenv(name, rate)
    game = create(create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client())
    assert game.move(0, {"type": "draw"}).status_code == 201  # 1: with the context
    assert game.move(0, {"type": "place", "row": 0}).status_code == 201  # 2: in the append
    for kind in ("application/json", VIA_FLASK):  # 3 and 4: malformed, and past the rate
        refused = _post(game, 0, {"move": {"type": "fly"}}, kind)
        assert (refused.status_code, refused.json["code"]) == (429, "rate-limited")
