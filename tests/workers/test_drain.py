"""The drain job when things go wrong: a job that died, a worker restarted, a game that fails.

These tests use a Redis database no worker process listens on, so that each step happens only
when the test makes it happen.
"""

import threading
import time

import pytest
import redis

from bench.local import throwaway_signer
from engine import log
from service import create_app, handlers
from store import Store, keys, scheduler
from store.stored import ProjField
from tests.api import create
from tests.conftest import start_workers, stop
from tests.store.conftest import append, release_lock, take_lock, wait_past, wait_until_blocked
from workers import jobs
from workers.drain import Drain
from workers.queue import DRAIN_TIMEOUT_S, queue


@pytest.fixture
def store(quiet_url, request):
    # Its connections carry the test's name, so that CLIENT LIST tells them (`once_blocked`).
    return Store(redis.Redis.from_url(quiet_url, client_name="test:" + request.node.name))


def pending_game(store, seed="d"):
    body = {"game": "coloretto", "players": ["a", "b", "c"], "options": {}, "seed": seed}
    game_id = handlers.create_game(store, throwaway_signer(), body)["id"]
    append(store, game_id, [{"type": log.SUBMITTED, "seat": 0, "move": {"type": "draw"}}],
           submission=True)
    return game_id


def left_pending(store, game_id):
    """The work items of a game read by a drain and not acknowledged."""
    stream = keys.WORK[keys.partition(game_id)]
    return store.redis.xpending(stream, keys.JUDGES)["pending"]


def verdicts(store, game_id):
    return [e["type"] for e in store.log.entries(game_id) if e["type"] != log.SUBMITTED][1:]


def test_an_item_read_by_a_drain_that_died_is_judged_once_its_lease_lapses(store, monkeypatch):
    # A drain starting takes at once what a drain no longer running left (`left_behind`,
    # tested below): not here, as when that drain's flag had not lapsed yet.
    monkeypatch.setattr(scheduler.Scheduler, "left_behind", lambda *_: [])
    game_id = pending_game(store)
    store.scheduler.ensure_groups()
    assert store.scheduler.read("slot-1", [keys.partition(game_id)], 0.01)  # ...and it dies
    assert jobs.drain(linger_s=0) == 0  # within the lease: nobody else judges it yet
    assert verdicts(store, game_id) == []
    monkeypatch.setattr(scheduler, "LEASE_MS", 0)  # the lease lapses
    assert jobs.drain(linger_s=0) == 1
    assert verdicts(store, game_id) == ["move-accepted"]
    assert scheduler.waiting(store.redis).items == 0 and left_pending(store, game_id) == 0


def test_a_drain_dealt_the_partitions_of_a_drain_that_died_takes_up_its_items_at_once(store):
    game_id = pending_game(store)
    store.scheduler.ensure_groups()
    assert store.scheduler.read("slot-1", [keys.partition(game_id)], 0.01)  # ...and it dies
    assert store.redis.get(keys.draining(1)) is None  # its flag lapsed
    assert jobs.drain(linger_s=0) == 1  # judged at once, not after the lease
    assert verdicts(store, game_id) == ["move-accepted"]
    assert scheduler.waiting(store.redis).items == 0 and left_pending(store, game_id) == 0


def test_a_starting_worker_judges_what_was_written_while_none_ran(store, quiet_url):
    game_id = pending_game(store)  # its append wrote its work item; no worker, no job
    worker = start_workers(quiet_url, 1)
    try:
        deadline = time.monotonic() + 15
        while verdicts(store, game_id) == [] and time.monotonic() < deadline:
            wait_past(store, game_id, 2, 500)
    finally:
        stop(worker)
    assert verdicts(store, game_id) == ["move-accepted"]


def test_a_retried_submission_still_pending_is_answered_as_before_and_judged_once(store,
                                                                                  quiet_url):
    client = create_app({"TESTING": True, "REDIS_URL": quiet_url}).test_client()
    game = create(client)
    key = {"Idempotency-Key": "retry-1", **game.seat(0)}
    first = client.post(game.url("/moves"), json={"move": {"type": "draw"}}, headers=key)
    assert first.status_code == 202
    again = client.post(game.url("/moves"), json={"move": {"type": "draw"}}, headers=key)
    # The same answer, its receipt signed again as it is answered again.
    assert again.json["receipt"]["hash"] == first.json["receipt"]["hash"]
    assert {**again.json, "receipt": None} == {**first.json, "receipt": None}
    assert scheduler.waiting(store.redis).items == 1  # one item: the append wrote it once
    assert jobs.drain(linger_s=0) == 1
    assert client.get(game.url("/moves/2"), headers=game.seat(0)).json["status"] == "accepted"
    # Once judged, the same post again answers the verdict (docs/design.md, Notes on the
    # contract), still appending nothing.
    judged = client.post(game.url("/moves"), json={"move": {"type": "draw"}}, headers=key)
    assert judged.status_code == 201 and judged.json["status"] == "accepted"
    assert judged.json["seq"] == first.json["seq"]
    assert client.get(game.url()).json["version"] == 3


def test_a_game_that_cannot_be_judged_does_not_stop_the_drain_for_the_others(store):
    broken, sound = pending_game(store, "broken"), pending_game(store, "sound")
    store.redis.hset(keys.game(broken).proj, ProjField.STATE, b"{}")  # a state no engine can resume
    assert jobs.drain(linger_s=0) == 1
    assert verdicts(store, sound) == ["move-accepted"]
    assert verdicts(store, broken) == []
    assert left_pending(store, broken) == 1  # to be tried again after its lease


def test_a_game_locked_by_a_judge_that_died_is_judged_by_the_next_drain_once_the_lock_lapses(
        store):
    game_id = pending_game(store)
    take_lock(store, game_id)  # its judge was killed holding the lock
    assert jobs.drain(linger_s=0) == 0
    assert left_pending(store, game_id) == 1  # not dropped
    store.redis.delete(keys.game(game_id).lock)  # the lock lapses
    assert jobs.drain(linger_s=0) == 1  # the slot's next drain takes up what it left
    assert verdicts(store, game_id) == ["move-accepted"]
    assert scheduler.waiting(store.redis).items == 0


def judged_by_a_new_worker(store, quiet_url, game_id):
    """Seconds from starting one worker until the game's submission is judged (or None)."""
    worker = start_workers(quiet_url, 1)
    start = time.monotonic()
    try:
        while time.monotonic() - start < 15:
            if verdicts(store, game_id):
                return time.monotonic() - start
            wait_past(store, game_id, 2, 200)
        return None
    finally:
        stop(worker)


def test_an_idle_worker_takes_up_an_item_a_dead_drain_read(store, quiet_url):
    game_id = pending_game(store)
    store.scheduler.ensure_groups()
    assert store.scheduler.read("slot-1", [keys.partition(game_id)], 0.01)  # then it died
    took = judged_by_a_new_worker(store, quiet_url, game_id)
    assert took is not None
    print(f"\nan item a dead drain read was judged {took:.2f} s after a worker started")


def test_the_slots_of_dead_workers_do_not_keep_a_new_worker_from_judging(store, quiet_url):
    game_id = pending_game(store)
    for slot in range(2):  # every slot still names a worker killed a moment ago
        store.redis.set(keys.draining(slot), f"killed-{slot}")
    took = judged_by_a_new_worker(store, quiet_url, game_id)
    assert took is not None
    print(f"\na game left by killed workers was judged {took:.2f} s after a worker started")


def test_a_drain_waits_for_the_next_move_and_judges_it_in_the_same_job(store):
    first = pending_game(store, seed="first")
    done = {}
    draining = threading.Thread(target=lambda: done.update(written=jobs.drain(linger_s=3)))
    draining.start()
    wait_past(store, first, 2, 2000)  # its verdict: the drain now waits for more
    second = pending_game(store, seed="second")  # a move a moment later, as a person plays
    wait_past(store, second, 2, 2000)
    assert verdicts(store, second) == ["move-accepted"] and draining.is_alive()
    draining.join(10)
    assert done == {"written": 2}


def test_a_waiting_drain_stops_when_its_worker_is_asked_to_stop(store, quiet_url):
    # It waits for work a second at a time (`store.scheduler`), looking at STOPPING in
    # between; the test tells only that it stops on being asked, long before its linger ends.
    draining = threading.Thread(target=jobs.drain, kwargs={"linger_s": 600}, daemon=True)
    draining.start()
    wait_until_blocked(store.redis, "xreadgroup", db=quiet_url.rsplit("/", 1)[1])
    jobs.STOPPING.set()
    try:
        draining.join(60)
        assert not draining.is_alive()
    finally:
        jobs.STOPPING.clear()
    assert store.redis.get(keys.draining(0)) is None  # its slot freed as it ended


def test_a_drain_that_has_run_its_time_hands_its_slot_to_a_fresh_job(store):
    """RQ kills a job at its timeout wherever it is; a drain kept busy by a steady stream of
    moves would be killed mid-turn, and every move would wait for its flag, items and locks to
    lapse. It hands its slot over instead: the flag a queued job's, that job queued, and the
    moves posted meanwhile judged by it."""
    first = pending_game(store, "first")
    assert Drain(store, slot=0, worker="w", run_for_s=0).run() == 1
    assert verdicts(store, first) == ["move-accepted"]
    assert store.redis.get(keys.draining(0)) == b"queued"
    successor = queue(store.queues).jobs
    assert [(job.func_name, job.args, job.timeout) for job in successor] == [
        ("workers.jobs.drain", [0], DRAIN_TIMEOUT_S)]
    second = pending_game(store, "second")
    # The successor runs for as long as its worker does: here, until a turn finds nothing.
    assert jobs.drain(*successor[0].args, linger_s=0) == 1
    assert verdicts(store, second) == ["move-accepted"]


def test_a_game_found_locked_is_read_again_as_soon_as_its_holder_is_done(store):
    """Its holder judges what it finds pending and releases the lock within milliseconds: the
    drain that found it locked reads it again shortly, rather than after the item's lease."""
    game_id = pending_game(store)
    token = take_lock(store, game_id)  # another drain judging it
    drain = Drain(store, worker="w")
    drain._deal()
    assert drain.turn() and drain.items[game_id]  # found locked: its item kept
    release_lock(store, game_id, token)
    time.sleep(0.06)
    assert drain.turn()  # read again (here, judged: the holder wrote nothing)
    assert verdicts(store, game_id) == ["move-accepted"]
    assert drain.items == {} and drain.later == {}
    assert scheduler.waiting(store.redis).items == 0
