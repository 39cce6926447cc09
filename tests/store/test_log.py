"""Appending to a game's log: chained, checked and written all at once, or not at all."""

import threading

from engine import log
from store.log import Writing
from tests.store.conftest import new_game, submit
from workers.validation import judge_pending


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
    conflict = store.log.append(game_id, [body], expected_version=5, submission=True)
    assert (conflict.outcome, conflict.version) == ("conflict", 1)
    assert len(store.log.entries(game_id)) == 1


def test_an_idempotency_key_answers_its_first_submission(store):
    game_id = new_game(store)
    body = {"type": log.SUBMITTED, "seat": 0, "move": {"type": "draw"}}
    first = store.log.append(game_id, [body], idempotency=("k", "h1"), submission=True)
    again = store.log.append(game_id, [body], idempotency=("k", "h2"), submission=True)
    assert (again.outcome, again.seq, again.body_hash) == ("idempotent", first.seq, "h1")
    assert len(store.log.entries(game_id)) == 2


def test_a_verdict_is_never_appended_for_a_judged_submission(store):
    game_id = new_game(store)
    seq = submit(store, game_id).seq
    rejected = {"type": log.REJECTED, "of": seq, "seat": 0}
    assert store.log.append(game_id, [rejected], verdicts=[(seq, 0)]).outcome == "ok"
    again = store.log.append(game_id, [rejected], verdicts=[(seq, 0)])
    assert again.outcome == "judged"
    assert [e["type"] for e in store.log.entries(game_id)].count(log.REJECTED) == 1
    assert store.log.verdict(game_id, seq)["seq"] == 3
    assert store.log.verdict_seqs(game_id) == {2: 3}


def test_appending_to_a_game_that_does_not_exist_writes_nothing(store):
    body = {"type": log.SUBMITTED, "seat": 0, "move": {"type": "draw"}}
    assert store.log.append("nowhere", [body]).outcome == "missing"
    assert store.redis.keys("*nowhere*") == []


def _submission(game_id):
    return Writing(game_id, ({"type": log.SUBMITTED, "seat": 0, "move": {"type": "draw"}},),
                   submission=True)


def test_a_submission_s_round_trip_waits_for_its_verdict_when_asked(store):
    game_id = new_game(store)
    judging = threading.Timer(0.05, judge_pending, [store, game_id])
    judging.start()
    submitted = store.submit(_submission(game_id), store.log.head(game_id), look_ms=5000)
    judging.join()
    assert (submitted.appended.outcome, submitted.appended.seq) == ("ok", 2)
    last, verdict = submitted.looked
    assert (last, verdict["type"], verdict["of"]) == (3, log.ACCEPTED, 2)


def test_a_wait_that_sees_no_verdict_says_where_the_log_stood(store):
    game_id = new_game(store)
    submitted = store.submit(_submission(game_id), store.log.head(game_id), look_ms=20)
    assert submitted.looked == (2, None)
    assert store.submit(_submission(game_id), store.log.head(game_id)).looked is None


def test_a_submission_chained_again_after_another_writer_brings_no_wait_of_its_own(store):
    game_id = new_game(store)
    stale = store.log.head(game_id)
    submit(store, game_id)  # another writer first: the wait's entries are not about this one
    submitted = store.submit(_submission(game_id), stale, look_ms=20)
    assert (submitted.appended.outcome, submitted.appended.seq, submitted.looked) == ("ok", 3, None)
    assert [e["seq"] for e in store.log.entries(game_id)] == [1, 2, 3]


def test_a_submission_redis_lost_the_scripts_for_is_written_once_its_wait_is_over(store):
    """The append fails (Redis restarted without its scripts) while the wait sent with it
    blocks on a log that does not move: the wait ends, and the append is sent again."""
    game_id = new_game(store)
    store.redis.script_flush()
    submitted = store.submit(_submission(game_id), store.log.head(game_id), look_ms=50)
    assert (submitted.appended.outcome, submitted.looked) == ("ok", (2, None))
    assert [e["seq"] for e in store.log.entries(game_id)] == [1, 2]
