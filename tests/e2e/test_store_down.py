"""While Redis is down every endpoint that needs it answers 503 problem+json with Retry-After,
never 500, and those that do not keep answering; a move whose append was sent but whose answer
was lost is recorded once, whether redis-py sends it again or the client does.

Each test has a redis-server of its own on a free port, killed by its pid; a lossy proxy
(tests/lossy.py) stands between the web and Redis where an answer must be lost.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from engine.log import SUBMITTED
from service import create_app
from store import Store
from tests.api import bearer, create
from tests.conftest import _free_port, start_redis, start_workers, stop
from tests.e2e.served import serve
from tests.lossy import LossyProxy

# The API's routes that read no stored game: they keep answering with Redis down.
WITHOUT_STORE = {"/v1/boards/{name}", "/v1/replays/verify", "/v1/replays/views", "/v1/titles",
                 "/v1/keys"}
# An event export is checked whole before the store is asked: an empty one, verified or
# imported, is refused for what it is, Redis or not.
CHECKED_FIRST = {("/v1/events/verify", "post"), ("/v1/events/{event_id}/export", "put")}
METHODS = {"get", "post", "put"}
OPERATOR = "operator-token"


@pytest.fixture
def own_redis(tmp_path):
    port = _free_port()
    proc = start_redis(port, "--save", "", "--appendonly", "no", "--dir", str(tmp_path))
    yield port, proc
    proc.kill()
    proc.wait(10)


def every_request(spec, game, replay):
    """One request per operation of /openapi.json, about `game`: (method, url, body, headers)."""
    bodies = {
        "/v1/games": {"game": "hermit", "players": ["ann", "bob"]},
        "/v1/games/{game_id}/moves": {"move": {"type": "draw"}},
        "/v1/games/{game_id}/audit": {"claimed": {}},
        "/v1/games/{game_id}/replay": replay,
        "/v1/replays/verify": replay,
        "/v1/replays/views": replay,
        "/v1/games/{game_id}/seats/{seat}/key": {"public_key": "A" * 43},
        "/v1/events": {"name": "cup", "game": "hermit", "players": ["ann", "bob"], "rounds": 1,
                       "format": "open", "table_size": 2, "points": [1, 0], "options": {}},
        "/v1/events/{event_id}/rounds": {},
        "/v1/events/{event_id}/withdrawals": {"player": "ann"},
        "/v1/events/verify": {},
        "/v1/events/{event_id}/export": {},
    }
    values = {"game_id": game.id, "seq": "2", "number": "1", "name": "keltis-nwnz", "seat": "0",
              "event_id": "some-event", "handle": "ann"}
    for path, operations in spec["paths"].items():
        url = re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], path)
        for method in METHODS & set(operations):
            body = None if method == "get" else bodies[path]
            yield path, method, url, body


def test_every_endpoint_answers_503_with_retry_after_while_redis_is_down(own_redis):
    port, proc = own_redis
    with serve({"REDIS_URL": f"redis://127.0.0.1:{port}/0",
                "TABLELOG_IMPORT_TOKEN": OPERATOR}) as http:
        game = create(http)
        assert game.move(0, {"type": "draw"}).status_code == 201
        replay = http.get(game.url("/replay"), headers=game.table).json
        spec = http.get("/openapi.json").json
        requests = list(every_request(spec, game, replay))
        proc.kill()
        proc.wait(10)

        def send(request):
            path, method, url, body = request
            token = bearer(OPERATOR) if path.endswith(("/replay", "/export")) else game.seat(0)
            if method == "get":
                return path, method, http.get(url, headers=token)
            return path, method, getattr(http, method)(url, json=body, headers=token)

        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(send, requests))
        assert len(answers) >= 15
        for path, method, answer in answers:
            if path in WITHOUT_STORE:
                assert answer.status_code == 200, (path, answer.json)
                continue
            if (path, method) in CHECKED_FIRST:
                assert answer.status_code == 400, (path, answer.json)
                assert answer.json["code"] == "invalid-request"
                continue
            assert answer.status_code == 503, (path, answer.json)
            assert int(answer.headers["Retry-After"]) >= 1
            if path == "/healthz":  # its own report, not a problem
                assert answer.json["status"] == "down"
                continue
            assert answer.headers["Content-Type"] == "application/problem+json"
            assert answer.json["code"] == "store-unavailable"
        follow = http.get(game.url("/events?follow=1"), headers={"Accept": "text/event-stream"})
        assert follow.status_code == 503


@pytest.fixture
def behind_proxy(own_redis):
    """A web app reaching Redis through a lossy proxy, a judging worker reaching it directly."""
    port, _ = own_redis
    proxy = LossyProxy(port)
    workers = start_workers(f"redis://127.0.0.1:{port}/0", 1)
    app = create_app({"TESTING": True, "REDIS_URL": proxy.url})
    yield app.test_client(), proxy, Store.connect(f"redis://127.0.0.1:{port}/0")
    stop(workers)
    proxy.close()


def submissions(store, game) -> list[dict]:
    return [e for e in store.log.entries(game.id) if e["type"] == SUBMITTED]


def test_an_append_sent_again_after_its_answer_was_lost_is_recorded_once(behind_proxy):
    """redis-py's cluster client sends a command again when its connection drops (and so does a
    standalone client given retries): the append script must not record the move twice."""
    client, proxy, store = behind_proxy
    client.application.extensions["store"] = Store(
        redis.Redis.from_url(proxy.url, retry=Retry(NoBackoff(), 3))
    )
    game = create(client)
    # The first append loads the script, so that the one whose answer is lost runs.
    assert game.move(0, {"type": "draw"}).status_code == 201
    proxy.lose_next.set()
    answer = game.move(0, {"type": "place", "row": 0})
    assert proxy.lost.is_set()
    assert answer.status_code == 201, answer.json
    assert [e["seq"] for e in submissions(store, game)] == [2, 4]


def test_a_move_whose_outcome_is_unknown_asks_for_a_retry_with_its_key_and_counts_once(
    behind_proxy,
):
    client, proxy, store = behind_proxy
    game = create(client)
    assert game.move(0, {"type": "draw"}).status_code == 201
    key = {"Idempotency-Key": "place-once"}
    proxy.lose_next.set()
    proxy.refuse_after.set()
    url, body = game.url("/moves?wait=5"), {"move": {"type": "place", "row": 0}}
    lost = client.post(url, json=body, headers={**game.seat(0), **key})
    assert proxy.lost.is_set()
    assert lost.status_code == 503
    assert lost.content_type == "application/problem+json"
    assert lost.json["code"] == "outcome-unknown" and "Idempotency-Key" in lost.json["detail"]
    assert lost.json["seq"] == 4  # where the move is, if it is there
    assert int(lost.headers["Retry-After"]) >= 1
    proxy.restore()
    again = client.post(url, json=body, headers={**game.seat(0), **key})
    assert again.status_code == 201 and again.json["seq"] == 4
    assert [e["seq"] for e in submissions(store, game)] == [2, 4]
