"""The store's connections: a pooled connection that Redis closed is opened again before use."""

import threading
import time

import redis

from schemas import api
from store import connection


def _pooled(redis_url: str) -> redis.Redis:
    client = connection.client(redis_url.rsplit("/", 1)[0] + "/4")
    client.ping()
    return client


def test_an_idle_connection_is_handed_out_as_it_is(redis_url):
    pool = _pooled(redis_url).connection_pool
    first = pool.get_connection()
    sock = first._sock
    pool.release(first)
    again = pool.get_connection()
    assert again is first and again._sock is sock
    pool.release(again)


def test_a_connection_redis_closed_is_opened_again_before_it_is_used(redis_url):
    client = _pooled(redis_url)
    pool = client.connection_pool
    held = pool.get_connection()
    held.send_command("CLIENT", "ID")
    own_id = held.read_response()
    sock = held._sock
    pool.release(held)
    redis.Redis.from_url(redis_url).client_kill_filter(_id=own_id)
    deadline = time.monotonic() + 5
    while not connection._waiting(held) and time.monotonic() < deadline:
        time.sleep(0.01)
    again = pool.get_connection()
    assert again is held and again._sock is not sock  # opened again, not sent to and retried
    again.send_command("PING")
    assert again.read_response() == b"PONG"
    pool.release(again)


def test_past_its_size_the_pool_waits_for_a_connection_to_be_released(redis_url):
    pool = _pooled(redis_url).connection_pool
    held = [pool.get_connection() for _ in range(connection.POOL_SIZE)]
    got = []
    waiting = threading.Thread(target=lambda: got.append(pool.get_connection()))
    waiting.start()
    time.sleep(0.2)
    assert not got  # none free: it waits instead of failing
    pool.release(held.pop())
    waiting.join(5)
    assert got and got[0].send_command("PING") is None and got[0].read_response() == b"PONG"
    for each in (*held, *got):
        pool.release(each)
    assert len(pool._in_use_connections) == 0


def test_a_client_waits_for_an_answer_longer_than_any_request_may_wait():
    # A blocking read the API allows (`wait`) must end before the client gives up on Redis.
    assert connection.READ_TIMEOUT_S > api.LONGEST_WAIT_S
