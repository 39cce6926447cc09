"""The scheduler: every submission's work item written by its append, read by the drains as a
consumer group, acknowledged by the verdicts that judge it, taken again after its lease."""

import time

import orjson
import pytest

from engine import log
from store import keys, scheduler
from store.batch import Batch
from store.keys import draining
from store.log import AppendResult, Writing
from tests.store.conftest import append, new_game, once_blocked, submit

EVERY = range(keys.PARTITIONS)


@pytest.fixture
def judges(store):
    store.scheduler.ensure_groups()
    return store.scheduler


def verdict(store, game_id, of, done, based_on=None):
    """The verdict on submission `of`, as a drain writes it, acknowledging the items `done`:
    chained onto `based_on` alone, when given (refused if the log is elsewhere)."""
    body = {"type": log.ACCEPTED, "of": of, "effects": []}
    writing = Writing(game_id, (body,), verdicts=((of, 0),), done=tuple(i.id for i in done))
    if based_on is None:
        return store.log.write(writing)
    batch = Batch(store.redis)
    appending = store.log.queue_append(batch, writing.chained(*based_on))
    batch.run()
    return appending.value


def test_a_submission_is_written_with_its_work_item_and_nothing_else_is(store, judges):
    game_id = new_game(store, "g")
    posted = store.log.write(Writing(game_id, ({"type": log.SUBMITTED, "seat": 0,
                                                "move": {"type": "draw"}},),
                                     submission=True, request="req-1"))
    [item] = judges.read("slot-0", EVERY, 0.01)
    assert (item.partition, item.game, item.seq, item.request) == (
        keys.partition(game_id), game_id, posted.seq, "req-1")
    assert orjson.loads(item.entry) == store.log.entries(game_id)[-1]  # the entry as written
    verdict(store, game_id, posted.seq, [])
    assert judges.read("slot-0", EVERY, 0.01) == []  # a verdict is no work


def test_a_refused_append_writes_no_work_item(store, judges):
    game_id = new_game(store, "g")
    body = {"type": log.SUBMITTED, "seat": 0, "move": {"type": "draw"}}
    refused = append(store, game_id, [body], submission=True, expected_version=7)
    assert refused.outcome == AppendResult.CONFLICT
    assert scheduler.waiting(store.redis).items == 0


def test_a_drain_waiting_for_work_is_woken_by_the_append(store, judges):
    game_id = new_game(store, "g")
    with once_blocked(store, "xreadgroup", lambda: submit(store, game_id)):
        [item] = judges.read("slot-0", EVERY, 30)
    assert item.game == game_id


def test_items_are_done_with_the_verdicts_that_judge_them_and_only_if_those_are_written(
        store, judges):
    game_id = new_game(store, "g")
    first = submit(store, game_id)
    [item] = judges.read("slot-0", EVERY, 0.01)
    stale = verdict(store, game_id, first.seq, [item], based_on=(1, "0" * 64))
    assert stale.outcome == AppendResult.MOVED  # refused: the item stays, pending
    assert scheduler.waiting(store.redis).items == 1
    assert store.redis.xpending(keys.WORK[item.partition], keys.JUDGES)["pending"] == 1
    assert verdict(store, game_id, first.seq, [item]).outcome == AppendResult.OK
    assert scheduler.waiting(store.redis).items == 0
    assert store.redis.xpending(keys.WORK[item.partition], keys.JUDGES)["pending"] == 0


def test_an_item_read_and_left_is_taken_by_another_drain_after_its_lease(store, judges,
                                                                         monkeypatch):
    game_id = new_game(store, "g")
    submit(store, game_id)
    [item] = judges.read("slot-0", EVERY, 0.01)  # ...and its drain dies
    assert judges.reclaim("slot-1", EVERY) == []  # within the lease (5 s): nobody takes it
    assert judges.read("slot-1", EVERY, 0.01) == []  # nor is it delivered twice
    monkeypatch.setattr(scheduler, "LEASE_MS", 0)  # the lease lapses
    assert judges.reclaim("slot-1", EVERY) == [item]
    monkeypatch.undo()
    assert judges.reclaim("slot-1", EVERY) == []  # taken: its lease starts again


def test_queue_done_acknowledges_items_with_no_verdict_to_write(store, judges):
    game_id = new_game(store, "g")
    submit(store, game_id)
    items = judges.read("slot-0", EVERY, 0.01)
    batch = Batch(store.redis)
    judges.queue_done(batch, items)
    batch.run()
    assert scheduler.waiting(store.redis) == scheduler.Waiting(0, 0, None)


def test_waiting_counts_the_items_their_games_and_the_oldest(store, judges):
    games = [new_game(store, f"g{n}") for n in range(3)]
    before = time.time()
    for game_id in games + games[:1]:
        submit(store, game_id)
    judges.read("slot-0", EVERY, 0.01)  # read or not, they wait
    found = scheduler.waiting(store.redis)
    assert (found.items, found.games) == (4, 3)
    assert before - 0.01 <= found.oldest_at <= time.time()


def test_the_partitions_are_dealt_out_among_the_drains_running(store):
    everything = list(EVERY)
    assert store.scheduler.shares(0) == everything  # alone: all of them
    store.redis.set(draining(1), "w2")
    store.redis.set(draining(0), "w1")
    assert store.scheduler.shares(0) == everything[0::2]
    assert store.scheduler.shares(1) == everything[1::2]
    store.redis.set(draining(1), "queued")  # a job not started yet reads nothing
    assert store.scheduler.shares(0) == everything


def test_a_heartbeat_frees_the_slots_of_dead_workers_and_keeps_a_drain_a_live_worker(store):
    judges = store.scheduler
    judges.tend("alive")
    assert store.redis.get(draining(0)) == b"queued"  # one worker, one drain
    store.redis.set(draining(0), "alive")
    assert judges.tend("alive") is None  # as many drains as workers: nothing to queue
    store.redis.set(draining(1), "dead")  # a worker killed mid-drain: its flag has no TTL left
    assert judges.tend("alive") is None  # freed, and not opened again: one worker lives
    assert store.redis.get(draining(1)) is None
    assert judges.tend("other") == 1  # a second worker: a second drain
    assert store.redis.get(draining(1)) == b"queued"
    assert judges.tend("other") is None  # one slot a drain, at most `DRAINERS`
    assert judges.live_workers() == 2


def test_a_worker_frees_the_slots_of_its_own_drains_and_only_those(store):
    store.redis.set(draining(0), "me")
    store.redis.set(draining(1), "another")
    store.scheduler.free_slots("me")
    assert store.redis.get(draining(0)) is None and store.redis.get(draining(1)) == b"another"


def test_the_groups_are_made_again_once_the_streams_are_gone(store, judges):
    store.redis.flushdb()
    assert judges.reclaim("slot-0", EVERY) == []
    store.redis.flushdb()
    assert judges.read("slot-0", EVERY, 0.01) == []  # made again, from now on
    judges.ensure_groups()  # made already: nothing to do
    game_id = new_game(store, "g")
    submit(store, game_id)
    assert [item.game for item in judges.read("slot-0", EVERY, 0.01)] == [game_id]


def test_what_a_drain_no_longer_running_read_is_taken_up_at_once(store, judges):
    games = [new_game(store, f"g{n}") for n in range(3)]
    for game_id in games:
        submit(store, game_id)
    one = judges.read("slot-1", [keys.partition(games[0])], 0.01)  # its drain runs
    two = judges.read("slot-2", [keys.partition(games[1])], 0.01)  # its drain died
    own = judges.read("slot-0", [keys.partition(games[2])], 0.01)  # the asker's own
    store.redis.set(draining(0), "w1")
    store.redis.set(draining(1), "w2")
    store.redis.set(draining(2), "queued")  # handed over: its next job has not started
    assert judges.left_behind("slot-0", EVERY) == two
    store.redis.delete(draining(2))
    assert judges.left_behind("slot-0", EVERY) == []  # taken: slot-0 holds it now
    assert {i.id for i in judges.held_by("slot-0", EVERY)} == {i.id for i in two + own}
    assert judges.left_behind("slot-3", EVERY) == [] and one


def test_the_next_drain_of_a_slot_takes_up_at_once_what_the_last_one_left(store, judges):
    game_id = new_game(store, "g")
    submit(store, game_id)
    [item] = judges.read("slot-0", EVERY, 0.01)  # ...and the drain of slot 0 dies
    assert judges.held_by("slot-1", EVERY) == []  # another slot's: after the lease only
    assert judges.held_by("slot-0", EVERY) == [item]


def test_a_drain_takes_its_slot_unless_another_worker_s_drain_holds_it(store):
    assert store.scheduler.take(0, "w1")
    assert 0 < store.redis.pttl(draining(0)) <= 1_000  # lapses soon unless renewed
    assert store.scheduler.take(0, "w1")  # renewed
    assert not store.scheduler.take(0, "w2")  # a second job for the slot: it ends
    store.redis.set(draining(0), "queued")
    assert store.scheduler.take(0, "w2")  # a job queued for it takes it
    store.scheduler.drain_ends(0, "w1")  # not its own any more: left
    assert store.redis.get(draining(0)) == b"w2"
