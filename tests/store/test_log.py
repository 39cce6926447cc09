"""Appending to a game's log: chained, checked and written all at once, or not at all."""

import os
import socket
import time
from dataclasses import replace

import pytest
import redis

from engine import log
from store import Store, keys, scheduler
from store import log as store_log
from store.batch import NothingSent
from store.counts import Count
from store.log import Writing
from tests.store.conftest import append, new_game, once_blocked, submit
from workers.drain import judge_pending


def test_entries_are_chained_and_numbered_without_gaps(store):
    game_id = new_game(store)
    submit(store, game_id)
    submit(store, game_id, seat=1)
    entries = store.log.entries(game_id)
    assert [e["seq"] for e in entries] == [1, 2, 3]
    assert log.broken_links(entries) == []
    assert store.log.progress(game_id) == (3, 0)


def test_an_expected_version_that_moved_on_is_a_conflict_and_writes_nothing(store):
    game_id = new_game(store)
    body = {"type": log.SUBMITTED, "seat": 0, "move": {"type": "draw"}}
    conflict = append(store, game_id, [body], expected_version=5, submission=True)
    assert (conflict.outcome, conflict.version) == ("conflict", 1)
    assert len(store.log.entries(game_id)) == 1


def test_an_idempotency_key_answers_its_first_submission(store):
    game_id = new_game(store)
    body = {"type": log.SUBMITTED, "seat": 0, "move": {"type": "draw"}}
    first = append(store, game_id, [body], idempotency=("k", "h1"), submission=True)
    again = append(store, game_id, [body], idempotency=("k", "h2"), submission=True)
    assert (again.outcome, again.seq, again.body_hash) == ("idempotent", first.seq, "h1")
    assert len(store.log.entries(game_id)) == 2


def test_a_verdict_is_never_appended_for_a_judged_submission(store):
    game_id = new_game(store)
    seq = submit(store, game_id).seq
    rejected = {"type": log.REJECTED, "of": seq, "seat": 0}
    assert append(store, game_id, [rejected], verdicts=[(seq, 0)]).outcome == "ok"
    again = append(store, game_id, [rejected], verdicts=[(seq, 0)])
    assert again.outcome == "judged"
    assert [e["type"] for e in store.log.entries(game_id)].count(log.REJECTED) == 1
    assert store.log.verdict(game_id, seq)["seq"] == 3


def test_appending_to_a_game_that_does_not_exist_writes_nothing(store):
    body = {"type": log.SUBMITTED, "seat": 0, "move": {"type": "draw"}}
    assert append(store, "nowhere", [body]).outcome == "missing"
    assert store.redis.keys("*nowhere*") == []


def _submission(game_id):
    return Writing(game_id, ({"type": log.SUBMITTED, "seat": 0, "move": {"type": "draw"}},),
                   submission=True)


def test_a_submission_s_round_trip_waits_for_its_verdict_when_asked(store):
    game_id = new_game(store)
    with once_blocked(store, "xread", lambda: judge_pending(store, game_id)):
        submitted = store.log.submit(_submission(game_id), store.log.head(game_id), look_ms=5000)
    assert (submitted.appended.outcome, submitted.appended.seq) == ("ok", 2)
    last, verdict = submitted.looked
    assert (last, verdict["type"], verdict["of"]) == (3, log.ACCEPTED, 2)


def test_a_wait_that_sees_no_verdict_says_where_the_log_stood(store):
    game_id = new_game(store)
    submitted = store.log.submit(_submission(game_id), store.log.head(game_id), look_ms=20)
    assert submitted.looked == (2, None)
    assert store.log.submit(_submission(game_id), store.log.head(game_id)).looked is None


def test_a_submission_chained_again_after_another_writer_waits_for_its_own_verdict(store):
    game_id = new_game(store)
    stale = store.log.head(game_id)
    submit(store, game_id)  # another writer first: the wait sent with the refused append ends
    with once_blocked(store, "xread", lambda: judge_pending(store, game_id)):
        submitted = store.log.submit(_submission(game_id), stale, look_ms=5000)
    assert (submitted.appended.outcome, submitted.appended.seq) == ("ok", 3)
    last, verdict = submitted.looked
    assert (last, verdict["of"]) == (5, 3)  # the first submission's verdict is no answer
    assert log.broken_links(store.log.entries(game_id)) == []


def test_a_refused_append_ends_the_wait_sent_with_it_at_once(store):
    """A game with no verdict to come (it is over): the wait would last its whole 5 s."""
    game_id = new_game(store)
    store.projections.redis.hset(keys.game(game_id).proj, "status", "finished")
    began = time.monotonic()
    submitted = store.log.submit(_submission(game_id), store.log.head(game_id), look_ms=5000)
    assert (submitted.appended.outcome, submitted.looked) == ("finished", None)
    assert time.monotonic() - began < 4
    assert [e["seq"] for e in store.log.entries(game_id)] == [1]


@pytest.mark.parametrize("status", ["finished", "abandoned"])
def test_nothing_is_appended_to_a_game_that_is_over(store, status):
    """`game-finished` is a finished game's last entry: the commit that appends it sets the
    status, and no append follows it, a verdict or a seat's key no more than a submission."""
    game_id = new_game(store)
    seq = submit(store, game_id).seq
    store.projections.redis.hset(keys.game(game_id).proj, "status", status)
    assert submit(store, game_id).outcome == "finished"
    rejected = {"type": log.REJECTED, "of": seq, "seat": 0}
    assert append(store, game_id, [rejected], verdicts=[(seq, 0)]).outcome == "finished"
    key = append(store, game_id, [log.seat_key(0, "k")], meta=(("keyed", "1"),))
    assert key.outcome == "finished"
    assert [e["seq"] for e in store.log.entries(game_id)] == [1, 2]
    assert store.log.verdict(game_id, seq) is None


def _counted(key: str, most: int, hit: bool = True) -> Count:
    return Count(keys.rate_count("token", key, most, 60, "g"), 60, hit, most)


def test_an_append_takes_its_rate_limits_counts_first_and_refuses_past_them(store):
    game_id = new_game(store)
    counts = (_counted("token", 2), _counted("looked-at", 1, hit=False))
    writing = replace(_submission(game_id), counts=counts)
    outcomes = [store.log.submit(writing, store.log.head(game_id)).appended for _ in range(3)]
    assert [a.outcome for a in outcomes] == ["ok", "ok", "limited"]
    assert outcomes[-1].refused == 0
    assert store.redis.get(counts[0].key) == b"3"  # refused or not, it counts
    assert 0 < store.redis.ttl(counts[0].key) <= 60
    store.redis.set(counts[1].key, 1)
    looked_at = replace(writing, counts=(_counted("other", 5), counts[1]))
    refused = store.log.submit(looked_at, store.log.head(game_id)).appended
    assert (refused.outcome, refused.refused) == ("limited", 1)
    assert len(store.log.entries(game_id)) == 3
    # A missing game is refused after its counts, as every other request.
    nowhere = replace(writing, game_id="nowhere")
    assert store.log.submit(nowhere, (1, "")).appended.outcome == "limited"


def test_an_append_chained_again_takes_its_counts_once(store):
    game_id = new_game(store)
    stale = store.log.head(game_id)
    submit(store, game_id)
    counts = (_counted("token", 5),)
    submitted = store.log.submit(replace(_submission(game_id), counts=counts), stale)
    assert (submitted.appended.outcome, submitted.appended.seq) == ("ok", 3)
    assert store.redis.get(counts[0].key) == b"1"


def test_a_submission_redis_lost_the_scripts_for_is_written_once_its_wait_is_over(store):
    """The append fails (Redis restarted without its scripts) while the wait sent with it
    blocks on a log that does not move: the wait ends, and the append is sent again."""
    game_id = new_game(store)
    store.redis.script_flush()
    submitted = store.log.submit(_submission(game_id), store.log.head(game_id), look_ms=50)
    assert (submitted.appended.outcome, submitted.looked) == ("ok", (2, None))
    assert [e["seq"] for e in store.log.entries(game_id)] == [1, 2]


def test_a_submission_to_a_redis_that_cannot_be_reached_is_known_not_written():
    """Not an unknown outcome (Redis could have taken it before going away): nothing was sent."""
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        away = Store(redis.Redis(port=closed.getsockname()[1]))
    with pytest.raises(NothingSent):
        away.log.submit(_submission("g"), (1, "h"), look_ms=50)


def test_each_process_draws_its_own_nonces():
    """An append sent again is told from another's by its nonce: forked processes (gunicorn's
    workers) must not share them."""
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child writes its first nonce and leaves
        os.write(writing, store_log._nonce().encode())
        os._exit(0)
    os.waitpid(pid, 0)
    child = os.read(reading, 64).decode()
    ours = {store_log._nonce() for _ in range(1000)}
    assert len(ours) == 1000 and child not in ours


def test_an_append_onto_a_head_of_the_right_version_but_another_hash_is_chained_again(store):
    """As a web process's remembered head would be after a failover gave its seq to another
    entry: the version alone would let the append break the chain."""
    game_id = new_game(store)
    version, _ = store.log.head(game_id)
    submitted = store.log.submit(_submission(game_id), (version, "a hash the log never had"))
    assert (submitted.appended.outcome, submitted.appended.seq) == ("ok", 2)
    assert log.broken_links(store.log.entries(game_id)) == []


def test_an_append_on_a_stale_head_is_chained_again_with_its_wait_and_work_item(store):
    game_id = new_game(store)
    with once_blocked(store, "xread", lambda: judge_pending(store, game_id)):
        submitted = store.log.submit(_submission(game_id), store.log.head(game_id), look_ms=5000)
    assert (submitted.appended.outcome, submitted.appended.seq) == ("ok", 2)
    assert submitted.looked[1]["of"] == 2
    stale = (2, store.log.entries(game_id)[1]["hash"])  # the verdict came after it
    submitted = store.log.submit(_submission(game_id), stale, look_ms=20)
    assert (submitted.appended.outcome, submitted.appended.seq) == ("ok", 4)
    assert submitted.looked == (4, None)  # its wait went with the append that wrote
    assert scheduler.waiting(store.redis).items == 2  # one item an append that wrote
    assert log.broken_links(store.log.entries(game_id)) == []
