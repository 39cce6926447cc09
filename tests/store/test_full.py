"""A full Redis (`maxmemory` reached, `noeviction`): what it refuses wrote nothing, a move it
took is found and judged though its mark was refused, and heartbeats still count.

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
from store import Store, health, keys
from store.connection import FULL
from store.log import Writing
from store.owed import AGAIN_S
from store.scheduler import ALIVE_S
from store.unmarked import unmarked
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
    """A draw for seat 0 posted as the web posts it (append and mark in one round trip)."""
    body = {"type": log.SUBMITTED, "seat": 0, "move": {"type": "draw"}}
    return store.submit(Writing(game_id, (body,), submission=True), store.log.head(game_id))


def test_an_append_a_full_redis_refuses_wrote_nothing(own):
    game_id = new_game(own)
    with full(own), pytest.raises(FULL):
        draw(own, game_id)
    assert own.log.head(game_id)[0] == 1
    assert own.log.progress(game_id) == (0, 0)
    assert own.redis.zcard(keys.DIRTY) == 0


def test_a_move_whose_mark_is_refused_is_answered_as_written_and_marked_once_redis_takes_it(
        own):
    game_id = new_game(own)
    # Redis refuses the mark alone (a value of the wrong type where the marks go: as a full
    # Redis refuses a mark once the append took the last of its memory).
    own.redis.set(keys.DIRTY, "in the way")
    submitted = draw(own, game_id)
    assert (submitted.appended.outcome, submitted.appended.seq) == ("ok", 2)
    assert submitted.slots == []
    assert own.owed.owed() == {game_id}
    time.sleep(AGAIN_S * 2)
    assert own.owed.owed() == {game_id}  # refused again: still owed
    own.redis.delete(keys.DIRTY)
    deadline = time.monotonic() + 10 * AGAIN_S
    while own.owed.owed() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert own.owed.owed() == set()
    assert own.redis.zscore(keys.DIRTY, game_id) is not None  # marked: a drain will judge it
    assert own.unmarked_sweep.look() == []


def test_the_sweep_leaves_games_judged_marked_or_claimed(own):
    ids = [new_game(own, f"g{n}") for n in range(4)]
    for game_id in ids:
        append(own, game_id, [{"type": log.SUBMITTED, "seat": 0, "move": {"type": "draw"}}],
                       submission=True)
    judged, marked, claimed, unmarked_one = ids
    own.redis.hset(keys.game(judged).proj, "judged", 2)
    own.scheduler.mark_dirty(marked)
    own.redis.zadd(keys.CLAIMED, {claimed: time.time() + 5})
    assert unmarked(own.redis, ids) == [unmarked_one]


def test_the_sweep_goes_through_every_game_a_slice_at_a_time(own):
    ids = [new_game(own, f"g{n}") for n in range(5)]
    for game_id in ids:
        own.redis.zadd(keys.GAMES, {game_id: int(game_id[1:])})
        append(own, game_id, [{"type": log.SUBMITTED, "seat": 0, "move": {"type": "draw"}}],
                       submission=True)
    passes = [own.unmarked_sweep.look(at_once=2) for _ in range(4)]
    assert passes == [["g4", "g3"], ["g2", "g1"], ["g0"], ["g4", "g3"]]  # newest first


def test_health_counts_a_pending_move_that_no_mark_names(own):
    game_id = new_game(own)
    own.redis.zadd(keys.GAMES, {game_id: time.time()})
    append(own, game_id, [{"type": log.SUBMITTED, "seat": 0, "move": {"type": "draw"}}],
                   submission=True)
    waiting = health.pending(own.redis)
    assert (waiting.submissions, waiting.games) == (1, 1)


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
