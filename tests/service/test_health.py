"""/healthz tells the truth: live workers by heartbeat, moves waiting, and 503 when stalled.

Besides the session's, these tests use a Redis database of their own with workers they start
and kill themselves.
"""

import signal
import time

import pytest
import redis

from service import create_app
from store import Store
from tests.api import create
from tests.conftest import _free_port, start_workers, stop
from tests.store.conftest import append


def test_a_healthy_service_reports_its_live_workers_and_nothing_waiting(client, redis_url):
    health = client.get("/healthz")
    assert health.status_code == 200
    body = health.json
    assert body["status"] == "ok" and body["redis"] == "ok"
    assert body["workers"] >= 2 and body["auditors"] >= 1
    assert body["persistence"] == "none"  # the suite's Redis keeps nothing on disk
    assert set(body["pending"]) == {"submissions", "games", "oldest_s"}
    assert redis_url.split("//")[1].split("/")[0] not in health.text  # no internal address


@pytest.fixture
def quiet(redis_url):
    url = redis_url.rsplit("/", 1)[0] + "/3"
    redis.Redis.from_url(url).flushdb()
    return url


def verdict_within(client, game, seq, seconds=15):
    """A verdict, read with GET /moves/{seq} (as a client that only reads) until it is in."""
    deadline = time.monotonic() + seconds
    while True:
        verdict = client.get(game.url(f"/moves/{seq}")).json
        if verdict["status"] != "pending" or time.monotonic() > deadline:
            return verdict
        time.sleep(0.05)


def health_of(client):
    answer = client.get("/healthz")
    return answer.status_code, answer.json


def test_moves_waiting_with_no_live_worker_are_a_stall_until_a_worker_judges_them(quiet):
    config = {"TESTING": True, "REDIS_URL": quiet, "HEALTH_STALLED_S": 0.2}
    client = create_app(config).test_client()
    game = create(client)
    assert game.move(0, {"type": "draw"}, wait=0).status_code == 202
    time.sleep(0.3)
    status, body = health_of(client)
    assert (status, body["status"], body["workers"]) == (503, "stalled", 0)
    assert body["pending"]["submissions"] == 1 and body["pending"]["oldest_s"] >= 0.2
    worker = start_workers(quiet, 1)
    try:
        assert verdict_within(client, game, 2)["status"] == "accepted"
        status, body = health_of(client)
    finally:
        stop(worker)
    assert status == 200 and body["workers"] == 1
    assert body["pending"] == {"submissions": 0, "games": 0, "oldest_s": None}


def test_a_killed_worker_stops_being_counted_within_seconds(quiet):
    client = create_app({"TESTING": True, "REDIS_URL": quiet}).test_client()
    [worker] = start_workers(quiet, 1)
    assert health_of(client)[1]["workers"] == 1
    worker.send_signal(signal.SIGKILL)
    worker.wait(10)
    killed = time.monotonic()
    while health_of(client)[1]["workers"] and time.monotonic() - killed < 15:
        time.sleep(0.1)
    took = time.monotonic() - killed
    assert health_of(client)[1]["workers"] == 0
    print(f"\na killed worker was no longer counted {took:.1f} s after its death")


def test_an_unreachable_redis_is_a_503_that_names_no_address():
    port = _free_port()
    config = {"TESTING": True, "REDIS_URL": f"redis://127.0.0.1:{port}/0"}
    client = create_app(config).test_client()
    answer = client.get("/healthz")
    assert answer.status_code == 503 and answer.json["status"] == "down"
    assert "Retry-After" in answer.headers
    assert str(port) not in answer.text and "127.0.0.1" not in answer.text


def test_a_move_appended_by_anything_is_judged_with_no_reader_asking(quiet):
    client = create_app({"TESTING": True, "REDIS_URL": quiet}).test_client()
    game = create(client)
    store = Store(redis.Redis.from_url(quiet))
    worker = start_workers(quiet, 1)
    try:
        # Appended straight into the store, no web: its work item came with the append.
        submission = {"type": "move-submitted", "seat": 0, "move": {"type": "draw"}}
        seq = append(store, game.id, [submission], submission=True).seq
        appended = time.monotonic()
        while store.log.verdict(game.id, seq) is None and time.monotonic() - appended < 10:
            time.sleep(0.05)
        took = time.monotonic() - appended
    finally:
        stop(worker)
    assert store.log.verdict(game.id, seq)["type"] == "move-accepted"
    print(f"\na move appended straight into the store was judged {took:.2f} s after")
