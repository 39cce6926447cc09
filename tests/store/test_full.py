"""A full Redis (`maxmemory` reached, `noeviction`): what it refuses wrote nothing (neither a
move nor its work item), the moves waiting are counted, and heartbeats still count.

Each test has a redis-server of its own, made full by `CONFIG SET maxmemory 1` (every write that
may take memory is refused, reads are answered) and emptied again by lifting the limit.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import redis

from engine import log
from store import Store, health, scheduler
from store.connection import FULL
from store.log import Writing
from store.scheduler import ALIVE_S
from tests.conftest import _free_port, start_redis, stop
from tests.store.conftest import append, new_game


@pytest.fixture
def own(tmp_path) -> Iterator[Store]:
    port = _free_port()
    proc = start_redis(port, "--save", "", "--appendonly", "no", "--dir", str(tmp_path),
                       "--maxmemory-policy", "noeviction")
    yield Store(redis.Redis(port=port))
    stop([proc])


@contextmanager
def full(store: Store) -> Iterator[None]:
    store.redis.config_set("maxmemory", 1)
    try:
        yield
    finally:
        store.redis.config_set("maxmemory", 0)


def draw(store: Store, game_id: str):
    """A draw for seat 0 posted as the web posts it (its append writes its work item)."""
    body = {"type": log.SUBMITTED, "seat": 0, "move": {"type": "draw"}}
    return store.log.submit(Writing(game_id, (body,), submission=True), store.log.head(game_id))


def test_an_append_a_full_redis_refuses_wrote_nothing(own):
    game_id = new_game(own)
    with full(own), pytest.raises(FULL):
        draw(own, game_id)
    assert own.log.head(game_id)[0] == 1
    assert own.log.progress(game_id) == (0, 0)
    assert scheduler.waiting(own.redis).items == 0


def test_health_counts_the_pending_moves_by_their_work_items(own):
    game_id = new_game(own)
    for _ in range(2):
        append(own, game_id, [{"type": log.SUBMITTED, "seat": 0, "move": {"type": "draw"}}],
               submission=True)
    with full(own):  # read while full too
        waiting = health.pending(own.redis)
    assert (waiting.submissions, waiting.games) == (2, 1) and waiting.oldest_s >= 0


def test_health_tells_a_full_redis_by_its_memory_and_a_refused_write(own):
    assert health.memory(own.redis).writable
    with full(own):
        held = health.memory(own.redis)
    assert not held.writable
    assert held.most == 1 and held.used > 1 and held.used_of_most > 1
    assert held.policy == "noeviction"


def test_a_worker_beating_while_redis_is_full_is_still_counted_alive(own):
    own.scheduler.tend("w1")
    own.scheduler.tend("w2")
    assert own.scheduler.live_workers() == 2
    with full(own):
        lapsed = time.monotonic() + ALIVE_S + 1
        while time.monotonic() < lapsed:  # w1 beats on, w2 is dead
            with pytest.raises(FULL):
                own.scheduler.tend("w1")
            time.sleep(0.5)
        assert own.scheduler.live_workers() == 1


def test_an_auditor_beating_while_redis_is_full_is_still_counted_alive(own):
    own.audits.beat("a1")
    with full(own):
        lapsed = time.monotonic() + ALIVE_S + 1
        while time.monotonic() < lapsed:
            with pytest.raises(FULL):
                own.audits.beat("a1")
            time.sleep(0.5)
        assert own.audits.live_auditors() == 1
