"""A game's lock, and the audit records workers write while they rebuild a game."""


import pytest

from store import keys
from store.audits import TTL_S, AuditStatus
from store.batch import Batch
from store.locks import Locked
from tests.store.conftest import new_game, once_blocked, release_lock, submit, take_lock


def judging(store, game_id, cached=-1):
    batch = Batch(store.redis)
    read = store.locks.queue_judging(batch, game_id, cached)
    batch.run()
    return read.value


def test_a_locked_game_cannot_be_taken_for_judging_until_its_holder_releases_it(store):
    game_id = new_game(store)
    token = take_lock(store, game_id)
    assert token is not None
    with pytest.raises(Locked):
        judging(store, game_id)
    release_lock(store, game_id, "not-the-holder")
    assert take_lock(store, game_id) is None
    release_lock(store, game_id, token)
    taken = judging(store, game_id)
    assert (taken.judged_seq, taken.finished, taken.meta["game"]) == (0, False, "coloretto")
    assert take_lock(store, game_id) is None  # judging holds the lock
    release_lock(store, game_id, taken.lock)


def test_judging_reads_the_pending_entries_and_the_state_only_when_the_caller_lacks_it(store):
    game_id = new_game(store)
    submit(store, game_id)
    cold = judging(store, game_id)
    assert [e["type"] for e in cold.entries] == ["game-created", "move-submitted"]
    assert cold.state is not None
    release_lock(store, game_id, cold.lock)
    warm = judging(store, game_id, cached=0)
    assert warm.entries == cold.entries and warm.state is None


def test_a_game_that_does_not_exist_is_not_judged_and_not_left_locked(store):
    assert judging(store, "nowhere") is None
    assert store.redis.keys("*nowhere*") == []


def test_waiting_for_an_audit_returns_when_it_is_done(store):
    game_id = new_game(store)
    number, new = store.audits.new(game_id, 1, {"0": 41})
    assert new
    assert store.audits.read(game_id, number) == {"status": "queued", "claimed": {"0": 41}}
    done = {"status": AuditStatus.DONE, "ok": True}
    with once_blocked(store, "blmove", lambda: store.audits.save(game_id, number, done)):
        assert store.audits.read(game_id, number, wait_s=30) == {"status": "done", "ok": True}


def test_identical_audit_requests_share_one_audit_and_another_claim_or_version_does_not(store):
    game_id = new_game(store)
    first, new = store.audits.new(game_id, 1, {"0": 41, "1": 3})
    assert new
    assert store.audits.new(game_id, 1, {"1": 3, "0": 41}) == (first, False)
    assert store.audits.new(game_id, 1, {"0": 40}) == (first + 1, True)
    assert store.audits.new(game_id, 2, {"0": 41, "1": 3}) == (first + 2, True)


def test_audit_records_and_the_memory_of_their_requests_expire(store):
    game_id = new_game(store)
    number, _ = store.audits.new(game_id, 1, {})
    store.audits.save(game_id, number, {"status": AuditStatus.DONE, "ok": True})
    k = keys.game(game_id)
    remembered = store.redis.keys(k.audit_of("*"))
    assert len(remembered) == 1
    for key in [k.audit(number), *remembered]:
        assert TTL_S - 60 < store.redis.ttl(key) <= TTL_S
