"""The scheduler: games marked dirty, claimed by drains, put back when a claim lapses."""


from freezegun import freeze_time

from store import Store
from store.batch import Batch
from store.keys import BELL, CLAIMED, DIRTY, MARKS, draining
from store.scheduler import AT_ONCE, Marked, Ring
from tests.store.conftest import once_blocked


def test_a_waiting_drain_is_woken_by_the_bell_a_marked_game_rings(store):
    """A drain waiting for work blocks on the bell rather than polling the dirty set."""
    scheduler = store.scheduler
    scheduler.mark_dirty("first")
    scheduler.mark_dirty("first")
    assert store.redis.lrange(BELL, 0, -1) == [b"first"]  # one token wakes a waiter, naming
    # the game marked last; it never piles up
    assert scheduler.next_dirty(0, linger_s=0) == ["first"]
    store.redis.delete(BELL)
    with once_blocked(store, "blpop", lambda: scheduler.mark_dirty("second")):
        assert scheduler.next_dirty(0, linger_s=30) == ["second"]


def test_the_claim_after_a_ring_carries_commands_about_the_game_the_bell_named(store):
    scheduler = store.scheduler
    asked = []

    def along(batch, game_id):
        batch.add("ZSCORE", CLAIMED, game_id)
        return lambda answers: asked.append((game_id, answers))

    scheduler.mark_dirty("g")
    assert scheduler.next_dirty(0, linger_s=0, along=along) == ["g"]
    assert asked == []  # no ring was waited for: nothing to send along
    store.redis.delete(BELL)
    with once_blocked(store, "blpop", lambda: scheduler.mark_dirty("rung")):
        assert scheduler.next_dirty(0, linger_s=30, along=along) == ["rung"]
    # One batch: the claim's answer, then the command sent along (run after the claim).
    [(game_id, (claimed, score))] = asked
    assert game_id == "rung" and claimed == [b"rung"] and score is not None


def test_a_drain_told_no_game_waited_waits_for_the_bell_before_it_claims(store):
    """Right after a commit that found no game waiting, a claim would find nothing: the drain
    waits for the next mark's ring first, and claims then."""
    scheduler = store.scheduler
    store.redis.zadd(DIRTY, {"unrung": 1.0})  # as a mark would, but without the ring
    with once_blocked(store, "blpop", lambda: scheduler.mark_dirty("rung")):
        claimed = scheduler.next_dirty(0, linger_s=5, at_most=2, bell_first=True)
    assert claimed == ["unrung", "rung"]  # claimed once "rung" rang, not before
    store.redis.zadd(DIRTY, {"unrung-too": 1.0})
    assert scheduler.next_dirty(0, linger_s=5, at_most=2) == ["unrung-too"]  # at once


def test_one_slot_opens_for_one_waiting_game_and_a_second_only_past_one_claim_s_worth(store):
    scheduler = store.scheduler
    assert scheduler.mark_dirty("a") == 0
    assert scheduler.mark_dirty("a") is None  # slot 0 is taken and one game waits
    # One drain claims every game waiting at once: a second would only split them.
    for game in range(1, AT_ONCE):
        assert scheduler.mark_dirty(f"g{game}") is None
    assert store.redis.zcard(DIRTY) == AT_ONCE and not store.redis.exists(draining(1))
    assert scheduler.mark_dirty("one-more") == 1
    assert scheduler.mark_dirty("c") is None
    assert store.redis.exists(draining(0), draining(1)) == 2


def test_games_are_claimed_oldest_first_and_a_lapsed_claim_is_put_back(store):
    scheduler = store.scheduler
    with freeze_time("2026-11-23 10:00:00", tick=True):
        scheduler.mark_dirty("old")
    with freeze_time("2026-11-23 10:00:01", tick=True):
        scheduler.mark_dirty("new")
        assert scheduler.next_dirty(0, linger_s=0) == ["old"]
        scheduler.tend("w")  # a heartbeat takes back lapsed claims: this one has not lapsed
        assert store.redis.zrange(CLAIMED, 0, -1) == [b"old"]
    with freeze_time("2026-11-23 10:01:00", tick=True):
        scheduler.tend("w")
    assert store.redis.zrange(DIRTY, 0, -1) == [b"new", b"old"]
    assert store.redis.zcard(CLAIMED) == 0


def test_a_judged_game_is_no_longer_claimed_once_its_drain_claims_again_or_stops(store):
    scheduler = store.scheduler
    scheduler.mark_dirty("g")
    assert scheduler.next_dirty(0, linger_s=0) == ["g"]
    scheduler.judged("g")
    assert store.redis.zcard(CLAIMED) == 1  # released without a round trip of its own...
    assert scheduler.drain_may_stop(0) is True  # ...by the next claim, or when the drain stops
    assert store.redis.zcard(CLAIMED) == 0 and store.redis.zcard(DIRTY) == 0


def test_a_drain_claims_several_games_at_once_and_releases_them_with_its_next_claim(store):
    scheduler = store.scheduler
    for game in ("a", "b", "c"):
        scheduler.mark_dirty(game)
    assert scheduler.next_dirty(0, linger_s=0, at_most=2) == ["a", "b"]
    scheduler.judged("a")
    scheduler.judged("b")
    assert scheduler.next_dirty(0, linger_s=0, at_most=2) == ["c"]
    assert store.redis.zrange(CLAIMED, 0, -1) == [b"c"]


def test_a_drain_stops_only_when_no_game_waits(store):
    store.scheduler.mark_dirty("g")
    assert store.scheduler.drain_may_stop(0) is False  # "g" waits: the drain took its flag back
    store.scheduler.next_dirty(0, linger_s=0)
    assert store.scheduler.drain_may_stop(0) is True
    assert not store.redis.exists(draining(0))


def test_a_claim_that_lapsed_is_taken_back_by_the_next_claim_first_in_line(store):
    scheduler = store.scheduler
    with freeze_time("2026-11-23 10:00:00", tick=True):
        scheduler.mark_dirty("stranded")
        assert scheduler.next_dirty(0, linger_s=0) == ["stranded"]  # ...and its drain dies
    with freeze_time("2026-11-23 10:00:30", tick=True):
        scheduler.mark_dirty("later")
        assert scheduler.next_dirty(1, linger_s=0) == ["stranded"]
        assert scheduler.next_dirty(1, linger_s=0) == ["later"]


def test_only_the_drain_holding_a_claim_releases_it(store):
    slow = store.scheduler
    with freeze_time("2026-11-23 10:00:00", tick=True):
        slow.mark_dirty("g")
        assert slow.next_dirty(0, linger_s=0) == ["g"]
    other = Store(store.redis).scheduler
    with freeze_time("2026-11-23 10:00:30", tick=True):
        assert other.next_dirty(1, linger_s=0) == ["g"]  # the slow drain's claim had lapsed
        slow.judged("g")
        assert slow.next_dirty(0, linger_s=0) == []
        assert store.redis.zscore(CLAIMED, "g") is not None
        other.judged("g")
        assert other.next_dirty(1, linger_s=0) == []
    assert store.redis.zcard(CLAIMED) == 0


def test_a_heartbeat_frees_the_slots_of_dead_workers_and_opens_one_for_waiting_games(store):
    scheduler = store.scheduler
    scheduler.tend("alive")
    store.redis.set(draining(0), "dead")  # a worker killed mid-drain: its flag has no TTL left
    store.redis.set(draining(1), "alive")
    assert scheduler.mark_dirty("g") is None  # both slots taken: no job queued for "g"
    assert scheduler.tend("alive") == 0
    assert store.redis.get(draining(0)) == b"queued"
    assert store.redis.get(draining(1)) == b"alive"
    assert scheduler.live_workers() == 1


def test_a_heartbeat_takes_back_lapsed_claims(store):
    scheduler = store.scheduler
    with freeze_time("2026-11-23 10:00:00", tick=True):
        scheduler.mark_dirty("g")
        scheduler.next_dirty(0, linger_s=0)
        store.redis.delete(draining(0))
    with freeze_time("2026-11-23 10:00:30", tick=True):
        assert scheduler.tend("idle") == 0
    assert store.redis.zrange(DIRTY, 0, -1) == [b"g"] and store.redis.zcard(CLAIMED) == 0


def test_a_reader_reminding_of_a_pending_move_leaves_a_claimed_game_to_its_drain(store):
    scheduler = store.scheduler
    scheduler.mark_dirty("g")
    scheduler.next_dirty(0, linger_s=0)
    scheduler.mark_dirty("g", unless_claimed=True)
    assert store.redis.zcard(DIRTY) == 0
    scheduler.mark_dirty("lost", unless_claimed=True)  # pending, but its mark was lost
    assert store.redis.zrange(DIRTY, 0, -1) == [b"lost"]


def test_a_worker_frees_the_slots_of_its_own_drains_and_only_those(store):
    store.redis.set(draining(0), "me")
    store.redis.set(draining(1), "another")
    store.scheduler.free_slots("me")
    assert store.redis.get(draining(0)) is None and store.redis.get(draining(1)) == b"another"


def _rung_with(store, game_id, seq, entry=b'{"seq":2}'):
    """Mark `game_id` for submission `seq` (its hash `h<seq>`), as posting it does."""
    batch = Batch(store.redis)
    store.scheduler.queue_mark(batch, game_id, Marked(seq, f"h{seq}", entry))
    batch.run()
    return Marked(seq, f"h{seq}", entry)


def test_the_bell_carries_the_submission_a_game_was_marked_for(store):
    scheduler = store.scheduler
    _rung_with(store, "g", 2, b'{"seq":2,"type":"move-submitted"}')
    offered = []

    def handed(ring):
        offered.append(ring)
        return True

    assert scheduler.next_dirty(0, linger_s=5, handed=handed, bell_first=True) == []
    assert offered == [Ring("g", b'{"seq":2,"type":"move-submitted"}')]
    # Taken as it was handed over: nothing claimed, and the game still marked until unmarked.
    assert store.redis.zcard(CLAIMED) == 0
    assert store.redis.zrange(DIRTY, 0, -1) == [b"g"]
    assert store.redis.hget(MARKS, "g") == b"2:h2"


def test_a_ring_not_taken_is_claimed_as_before(store):
    scheduler = store.scheduler
    _rung_with(store, "g", 2)
    assert scheduler.next_dirty(0, linger_s=5, handed=lambda ring: False,
                                bell_first=True) == ["g"]
    assert store.redis.hget(MARKS, "g") is None  # a claimed game is marked no more


def test_a_game_judged_as_handed_over_is_unmarked_by_the_next_claim(store):
    scheduler = store.scheduler
    marked = _rung_with(store, "g", 2)
    scheduler.unmark("g", marked)
    assert scheduler.next_dirty(0, linger_s=0) == []  # the game is not claimed: it is judged
    assert store.redis.zcard(DIRTY) == 0
    assert store.redis.hget(MARKS, "g") is None


def test_a_game_marked_for_a_later_submission_stays_marked(store):
    """The drain judged submission 2; submission 4 was marked before the drain's unmark
    reached Redis: the game waits for it, and is claimed."""
    scheduler = store.scheduler
    judged = _rung_with(store, "g", 2)
    _rung_with(store, "g", 4)
    scheduler.unmark("g", judged)
    assert scheduler.next_dirty(0, linger_s=0) == ["g"]


def test_an_earlier_submission_marked_again_does_not_hide_a_later_one(store):
    """A post sent again after its answer was lost marks its game again, after a later
    submission's mark: the later one is the one a drain must judge before it unmarks."""
    scheduler = store.scheduler
    _rung_with(store, "g", 4)
    again = _rung_with(store, "g", 2)
    assert store.redis.hget(MARKS, "g") == b"4:h4"
    scheduler.unmark("g", again)
    assert scheduler.next_dirty(0, linger_s=0) == ["g"]


def test_a_stopping_drain_sends_its_unmarks(store):
    scheduler = store.scheduler
    scheduler.unmark("g", _rung_with(store, "g", 2))
    assert scheduler.drain_may_stop(0)
    assert store.redis.zcard(DIRTY) == 0
