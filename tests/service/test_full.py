"""With Redis full (`maxmemory` reached, `noeviction`) reads are answered, a move is refused
only when nothing of it was written, and /healthz says so with the workers still counted.

A redis-server of the module's own, made full by `CONFIG SET maxmemory 1` (every write that may
take memory refused, reads answered), with one judging worker of its own.
"""

from __future__ import annotations

import time

import pytest
import redis

from service import create_app
from store.scheduler import ALIVE_S
from tests.api import create
from tests.conftest import _free_port, start_redis, start_workers, stop


@pytest.fixture(scope="module")
def full_redis(tmp_path_factory):
    port = _free_port()
    proc = start_redis(port, "--save", "", "--appendonly", "no", "--maxmemory-policy",
                       "noeviction", "--dir", str(tmp_path_factory.mktemp("full")))
    url = f"redis://127.0.0.1:{port}/0"
    workers = start_workers(url, 1)
    yield url, redis.Redis(port=port)
    stop(workers)
    stop([proc])


@pytest.fixture
def client(full_redis):
    """The app with its rate limits on (at rates no test reaches): reads count against them."""
    url, _ = full_redis
    return create_app({"TESTING": True, "REDIS_URL": url}).test_client()


def test_reads_about_a_game_are_answered_while_redis_is_full(client, full_redis):
    _, raw = full_redis
    game = create(client)
    assert game.move(0, {"type": "draw"}).status_code == 201
    raw.config_set("maxmemory", 1)
    try:
        for tail in ("", "/state", "/events", "/score", "/legal-moves", "/moves/2", "/replay"):
            for headers in ({}, game.seat(0), game.table):
                answer = client.get(game.url(tail), headers=headers)
                assert answer.status_code == 200, (tail, answer.json)
    finally:
        raw.config_set("maxmemory", 0)


def test_a_move_a_full_redis_refuses_is_told_as_not_written(client, full_redis):
    _, raw = full_redis
    game = create(client)
    raw.config_set("maxmemory", 1)
    try:
        refused = game.move(0, {"type": "draw"})
        version = client.get(game.url()).json["version"]
    finally:
        raw.config_set("maxmemory", 0)
    assert refused.status_code == 503 and refused.json["code"] == "store-unavailable"
    assert "wrote nothing" in refused.json["detail"]
    assert version == 1


def test_health_says_degraded_with_memory_pressure_and_counts_the_live_worker(
        client, full_redis):
    _, raw = full_redis
    healthy = client.get("/healthz").json
    assert healthy["redis"] == "ok" and healthy["memory"]["maxmemory"] == 0
    raw.config_set("maxmemory", 1)
    try:
        time.sleep(ALIVE_S + 1)  # past any heartbeat written before Redis was full
        answer = client.get("/healthz")
    finally:
        raw.config_set("maxmemory", 0)
    body = answer.json
    assert answer.status_code == 200
    assert (body["status"], body["redis"]) == ("degraded", "full")
    assert body["memory"]["used_of_max"] > 1 and body["memory"]["policy"] == "noeviction"
    assert body["workers"] == 1
