"""Audit numbers and the places of audits waiting for an auditor, taken by many at once: each
number is given once, in order, and no more places are taken than the cap allows, whatever
asks together. Threads of the test against a real Redis, released at once by a barrier."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from store import keys
from store.audits import PLACE_S
from tests.store.conftest import new_game

AT_ONCE = 32
QUEUE = "rq:queue:test-audits"  # a list standing for RQ's, as RQ keeps it


def at_once(count: int, do):
    start = threading.Barrier(count)

    def each(n):
        start.wait(30)
        return do(n)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(each, range(count)))


def test_audits_numbered_at_once_get_every_number_once_in_order(store):
    game_id = new_game(store)
    numbered = at_once(AT_ONCE, lambda n: store.audits.new(game_id, 1, {"0": n}))
    assert sorted(number for number, _ in numbered) == list(range(1, AT_ONCE + 1))
    assert all(new for _, new in numbered)
    record = store.audits.read(game_id, AT_ONCE)
    assert record["status"] == "queued" and "claimed" in record


def test_identical_audits_asked_at_once_are_one_audit(store):
    game_id = new_game(store)
    numbered = at_once(AT_ONCE, lambda n: store.audits.new(game_id, 1, {"0": 41}))
    assert set(numbered) == {(1, True), (1, False)}
    assert sum(new for _, new in numbered) == 1


def test_no_more_places_are_taken_than_the_cap_and_the_queue_counts_against_it(store):
    store.queues.delete(QUEUE, keys.QUEUING_AUDITS)
    store.queues.rpush(QUEUE, "job-1", "job-2")
    places = at_once(AT_ONCE, lambda n: store.audit_places.take(QUEUE, 7))
    taken = [place for place in places if place is not None]
    assert len(taken) == 5
    store.audit_places.give_back(taken[0])
    assert store.audit_places.take(QUEUE, 7) is not None
    assert store.audit_places.take(QUEUE, 7) is None


def test_a_place_never_given_back_lapses(store):
    """A web that took a place and died before queuing its audit."""
    store.queues.delete(QUEUE, keys.QUEUING_AUDITS)
    assert store.audit_places.take(QUEUE, 1) is not None
    assert store.audit_places.take(QUEUE, 1) is None
    (place, until), = store.queues.zrange(keys.QUEUING_AUDITS, 0, -1, withscores=True)
    store.queues.zadd(keys.QUEUING_AUDITS, {place: until - PLACE_S - 1})  # as if long ago
    assert store.audit_places.take(QUEUE, 1) is not None
    assert store.queues.zcard(keys.QUEUING_AUDITS) == 1
