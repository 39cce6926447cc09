"""The scheduler: games marked dirty, claimed by drains, put back when a claim lapses."""

import threading

from freezegun import freeze_time

from store.keys import BELL, CLAIMED, DIRTY, draining


def test_a_waiting_drain_is_woken_by_the_bell_a_marked_game_rings(store):
    """A drain waiting for work blocks on the bell rather than polling the dirty set."""
    scheduler = store.scheduler
    scheduler.mark_dirty("first")
    scheduler.mark_dirty("first")
    assert store.redis.llen(BELL) == 1  # one token wakes a waiter; it never piles up
    assert scheduler.next_dirty(0, linger_s=0) == "first"
    store.redis.delete(BELL)
    later = threading.Timer(0.2, scheduler.mark_dirty, ["second"])
    later.start()
    assert scheduler.next_dirty(0, linger_s=30) == "second"
    later.join()


def test_one_slot_opens_for_one_waiting_game_and_a_second_only_for_a_backlog(store):
    scheduler = store.scheduler
    assert scheduler.mark_dirty("a") == 0
    assert scheduler.mark_dirty("a") is None  # slot 0 is taken and one game waits
    assert scheduler.mark_dirty("b") == 1
    assert scheduler.mark_dirty("c") is None
    assert store.redis.exists(draining(0), draining(1)) == 2


def test_games_are_claimed_oldest_first_and_a_lapsed_claim_is_put_back(store):
    scheduler = store.scheduler
    with freeze_time("2026-11-23 10:00:00", tick=True):
        scheduler.mark_dirty("old")
    with freeze_time("2026-11-23 10:00:01", tick=True):
        scheduler.mark_dirty("new")
        assert scheduler.next_dirty(0, linger_s=0) == "old"
        assert scheduler.reclaim_lapsed() == 0
    with freeze_time("2026-11-23 10:01:00", tick=True):
        assert scheduler.reclaim_lapsed() == 1
    assert store.redis.zrange(DIRTY, 0, -1) == [b"new", b"old"]
    assert store.redis.zcard(CLAIMED) == 0


def test_a_judged_game_is_no_longer_claimed(store):
    store.scheduler.mark_dirty("g")
    assert store.scheduler.next_dirty(0, linger_s=0) == "g"
    store.scheduler.judged("g")
    assert store.redis.zcard(CLAIMED) == 0 and store.redis.zcard(DIRTY) == 0


def test_a_drain_stops_only_when_no_game_waits(store):
    store.scheduler.mark_dirty("g")
    assert store.scheduler.drain_may_stop(0) is False  # "g" waits: the drain took its flag back
    store.scheduler.next_dirty(0, linger_s=0)
    assert store.scheduler.drain_may_stop(0) is True
    assert not store.redis.exists(draining(0))
