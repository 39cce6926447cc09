"""The drain job when things go wrong: a job that died, a worker restarted, a game that fails.

These tests use a Redis database no worker process listens on, so that each step happens only
when the test makes it happen.
"""

import threading
import time
from datetime import UTC, datetime

import pytest
import redis
from freezegun import freeze_time

from bench.local import throwaway_signer
from engine import log
from service import create_app, handlers
from store import Store, keys
from store.keys import CLAIMED, DIRTY
from store.scheduler import CLAIM_S
from store.stored import ProjField
from tests.api import create
from tests.conftest import start_workers, stop
from tests.store.conftest import append, once_blocked, take_lock, wait_past, wait_until_blocked
from workers import jobs
from workers.drain import Drain
from workers.queue import DRAIN_TIMEOUT_S, queue


@pytest.fixture
def quiet_url(redis_url, monkeypatch):
    url = redis_url.rsplit("/", 1)[0] + "/1"
    redis.Redis.from_url(url).flushdb()
    monkeypatch.setenv("REDIS_URL", url)
    return url


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


def claimed(claims):
    return [claim.game for claim in claims]


def verdicts(store, game_id):
    return [e["type"] for e in store.log.entries(game_id) if e["type"] != log.SUBMITTED][1:]


def test_a_game_claimed_by_a_job_that_died_is_judged_once_its_claim_lapses(store):
    game_id = pending_game(store)
    store.scheduler.mark_dirty(game_id)
    with freeze_time("2026-11-23 10:00:00", tick=True):
        assert claimed(store.scheduler.claim(0)) == [game_id]  # ...and the job dies here
    with freeze_time("2026-11-23 10:00:02", tick=True):
        assert jobs.drain(linger_s=0) == 0  # still claimed: nobody else judges it yet
        assert verdicts(store, game_id) == []
    with freeze_time("2026-11-23 10:01:00", tick=True):
        assert jobs.drain(linger_s=0) == 1
    assert verdicts(store, game_id) == ["move-accepted"]
    assert store.redis.zcard(CLAIMED) == 0 and store.redis.zcard(DIRTY) == 0


def test_a_starting_worker_takes_up_games_left_dirty_without_a_job(store, quiet_url):
    game_id = pending_game(store)
    store.redis.zadd(DIRTY, {game_id: time.time()})  # marked, but its job was lost
    worker = start_workers(quiet_url, 1)
    try:
        deadline = time.monotonic() + 15
        while verdicts(store, game_id) == [] and time.monotonic() < deadline:
            wait_past(store, game_id, 2, 500)
    finally:
        stop(worker)
    assert verdicts(store, game_id) == ["move-accepted"]


def test_a_retried_submission_still_pending_is_marked_for_judging_again(store, quiet_url):
    client = create_app({"TESTING": True, "REDIS_URL": quiet_url}).test_client()
    game = create(client)
    key = {"Idempotency-Key": "retry-1", **game.seat(0)}
    first = client.post(game.url("/moves"), json={"move": {"type": "draw"}}, headers=key)
    assert first.status_code == 202
    store.redis.delete(DIRTY)  # the mark is lost with the job that would have judged it
    again = client.post(game.url("/moves"), json={"move": {"type": "draw"}}, headers=key)
    # The same answer, its receipt signed again as it is answered again.
    assert again.json["receipt"]["hash"] == first.json["receipt"]["hash"]
    assert {**again.json, "receipt": None} == {**first.json, "receipt": None}
    assert store.redis.zscore(DIRTY, game.id) is not None
    jobs.drain(linger_s=0)
    assert client.get(game.url("/moves/2"), headers=game.seat(0)).json["status"] == "accepted"


def test_a_game_that_cannot_be_judged_does_not_stop_the_drain_for_the_others(store):
    broken, sound = pending_game(store, "broken"), pending_game(store, "sound")
    store.redis.hset(keys.game(broken).proj, ProjField.STATE, b"{}")  # a state no engine can resume
    store.scheduler.mark_dirty(broken)
    store.scheduler.mark_dirty(sound)
    assert jobs.drain(linger_s=0) == 1
    assert verdicts(store, sound) == ["move-accepted"]
    assert verdicts(store, broken) == []
    assert store.redis.zscore(CLAIMED, broken) is not None  # to be tried again later


def test_a_game_locked_by_a_judge_that_died_stays_claimed_and_is_judged_after_the_lock(store):
    game_id = pending_game(store)
    store.scheduler.mark_dirty(game_id)
    take_lock(store, game_id)  # its judge was killed holding the lock
    with freeze_time("2026-11-23 10:00:00", tick=True):
        assert jobs.drain(linger_s=0) == 0
        assert store.redis.zscore(CLAIMED, game_id) is not None  # not dropped
    store.redis.delete(keys.game(game_id).lock)  # the lock lapses before the claim does
    with freeze_time("2026-11-23 10:00:30", tick=True):
        assert jobs.drain(linger_s=0) == 1
    assert verdicts(store, game_id) == ["move-accepted"]
    assert store.redis.zcard(CLAIMED) == 0 and store.redis.zcard(DIRTY) == 0


def test_a_game_found_locked_is_claimed_only_until_the_lock_lapses(store):
    game_id = pending_game(store)
    store.scheduler.mark_dirty(game_id)
    # Its judge died holding the lock with 2 s of it left (Redis restarted under it, say).
    store.redis.set(keys.game(game_id).lock, "killed/0", px=2_000)
    assert jobs.drain(linger_s=0) == 0
    drained = time.time()
    lapses = store.redis.zscore(CLAIMED, game_id)
    # Set from the lock's time left (2 s at most) when the drain found it, on this clock: by
    # now at most 2 s ahead however slow the drain was, not a whole claim (CLAIM_S) ahead.
    assert lapses is not None and lapses <= drained + 2 < drained + CLAIM_S
    store.redis.delete(keys.game(game_id).lock)  # the lock lapses...
    with freeze_time(datetime.fromtimestamp(lapses + 0.01, UTC), tick=True):
        # ...and the claim with it: the game is taken back at once
        assert jobs.drain(linger_s=0) == 1
    assert verdicts(store, game_id) == ["move-accepted"]
    assert store.redis.zcard(CLAIMED) == 0 and store.redis.zcard(DIRTY) == 0


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


def test_an_idle_worker_takes_back_a_lapsed_claim_with_no_new_move(store, quiet_url):
    game_id = pending_game(store)
    store.redis.zadd(CLAIMED, {game_id: time.time() - 1})  # its drain died; no job, no move
    took = judged_by_a_new_worker(store, quiet_url, game_id)
    assert took is not None
    print(f"\na lapsed claim was judged {took:.2f} s after a worker started")


def test_the_slots_of_dead_workers_do_not_keep_a_new_worker_from_judging(store, quiet_url):
    game_id = pending_game(store)
    store.scheduler.mark_dirty(game_id)  # its job is lost with the worker that ran it...
    for slot in range(2):  # ...and every slot still names a worker killed a moment ago
        store.redis.set(keys.draining(slot), f"killed-{slot}")
    took = judged_by_a_new_worker(store, quiet_url, game_id)
    assert took is not None
    print(f"\na game left by killed workers was judged {took:.2f} s after a worker started")


def test_a_drain_waits_for_the_next_move_and_judges_it_in_the_same_job(store):
    first = pending_game(store, seed="first")
    store.scheduler.mark_dirty(first)
    done = {}
    draining = threading.Thread(target=lambda: done.update(written=jobs.drain(linger_s=3)))
    draining.start()
    wait_past(store, first, 2, 2000)  # its verdict: the drain now waits for more
    second = pending_game(store, seed="second")  # a move a moment later, as a person plays
    store.scheduler.mark_dirty(second)
    wait_past(store, second, 2, 2000)
    assert verdicts(store, second) == ["move-accepted"] and draining.is_alive()
    draining.join(10)
    assert done == {"written": 2}


def test_a_drain_woken_by_the_bell_judges_the_game_it_names_even_if_another_drain_claimed_it(
    store,
):
    """The game a ring names is read with the claim that follows it, claimed or not: judging
    it under its lock is safe whoever holds its claim."""
    game_id = pending_game(store)
    store.scheduler.mark_dirty(game_id)  # rings the bell, naming the game
    other = Store(store.redis).scheduler
    assert claimed(other.claim(1)) == [game_id]  # another drain claims it, and is slow
    done = {}
    draining = threading.Thread(target=lambda: done.update(written=jobs.drain(linger_s=3)))
    draining.start()
    # Judged at once, though the drain claimed nothing, and its lock released while the drain
    # waits on: a lock kept over the wait would hold up the game's next move.
    assert wait_past(store, game_id, 2, 1000) == 3
    assert verdicts(store, game_id) == ["move-accepted"] and draining.is_alive()
    assert store.redis.get(keys.game(game_id).lock) is None
    draining.join(10)
    assert done == {"written": 1}


def test_a_drain_told_no_game_waited_waits_for_the_bell_before_it_claims(store):
    """Right after a commit that found no game waiting, a claim would find nothing: the drain
    waits for the next mark's ring first, and claims then."""
    store.redis.zadd(DIRTY, {"unrung": 1.0})  # as a mark would, but without the ring
    drain = Drain(store, linger_s=5)
    drain.quiet = True
    with once_blocked(store, "blpop", lambda: store.scheduler.mark_dirty("rung")):
        work = drain.find_work()
    assert work.games == ["unrung", "rung"]  # claimed once "rung" rang, not before
    assert list(work.read) == ["rung"]  # and the game it named read in the same round trip
    store.redis.zadd(DIRTY, {"unrung-too": 1.0})
    drain.quiet = False
    assert drain.find_work().games == ["unrung-too"]  # at once


def test_a_waiting_drain_stops_when_its_worker_is_asked_to_stop(store, quiet_url):
    # It waits for the bell a second at a time (`store.scheduler`), looking at STOPPING in
    # between; the test tells only that it stops on being asked, long before its linger ends.
    draining = threading.Thread(target=jobs.drain, kwargs={"linger_s": 600}, daemon=True)
    draining.start()
    wait_until_blocked(store.redis, "blpop", db=quiet_url.rsplit("/", 1)[1])  # at the bell
    jobs.STOPPING.set()
    try:
        draining.join(60)
        assert not draining.is_alive()
    finally:
        jobs.STOPPING.clear()


def test_a_drain_that_has_run_its_time_hands_its_slot_to_a_fresh_job(store):
    """RQ kills a job at its timeout wherever it is; a drain kept busy by a steady stream of
    moves would be killed mid-turn, and every move would wait for its flag, claims and locks to
    lapse. It hands its slot over instead: its claims settled, the flag a queued job's, that job
    queued, and the moves marked meanwhile judged by it."""
    first = pending_game(store, "first")
    assert store.scheduler.mark_dirty(first) == 0
    assert Drain(store, slot=0, worker="w", run_for_s=0).run() == 1
    assert verdicts(store, first) == ["move-accepted"]
    assert store.redis.get(keys.draining(0)) == b"queued"
    assert store.redis.zcard(CLAIMED) == 0
    successor = queue(store.queues).jobs
    assert [(job.func_name, job.args, job.timeout) for job in successor] == [
        ("workers.jobs.drain", [0], DRAIN_TIMEOUT_S)]
    second = pending_game(store, "second")
    assert store.scheduler.mark_dirty(second) is None  # the queued job will judge it
    assert successor[0].perform() == 1
    assert verdicts(store, second) == ["move-accepted"]
