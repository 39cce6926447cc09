"""The scheduler: games marked dirty, claimed by drains, put back when a claim lapses."""


from freezegun import freeze_time

from store.batch import Batch
from store.keys import BELL, CLAIMED, DIRTY, MARKS, draining
from store.scheduler import AT_ONCE, Marked, Ring, Settling
from tests.store.conftest import once_blocked


def claimed(claims):
    return [claim.game for claim in claims]


def released(*claims):
    """What a drain done with these claims sends with its next claim."""
    settling = Settling()
    for claim in claims:
        settling.release(claim)
    return settling


def test_a_waiting_drain_is_woken_by_the_bell_a_marked_game_rings(store):
    """A drain waiting for work blocks on the bell rather than polling the dirty set."""
    scheduler = store.scheduler
    scheduler.mark_dirty("first")
    scheduler.mark_dirty("first")
    assert store.redis.lrange(BELL, 0, -1) == [b"first"]  # one token wakes a waiter, naming
    # the game marked last; it never piles up
    assert claimed(scheduler.claim(0)) == ["first"]
    store.redis.delete(BELL)
    with once_blocked(store, "blpop", lambda: scheduler.mark_dirty("second")):
        assert scheduler.ring(30) == Ring("second", None)  # blocks until the mark rings it
    assert claimed(scheduler.claim(0)) == ["second"]


def test_the_bell_wakes_nobody_when_no_game_is_marked(store):
    assert store.scheduler.ring(0.1) is None


def test_a_claim_goes_in_one_round_trip_with_commands_about_other_games(store):
    """A drain woken by the bell reads the game it names along with its claim."""
    scheduler = store.scheduler
    scheduler.mark_dirty("g")
    batch = Batch(store.redis)
    claiming = scheduler.queue_claim(batch, 0)
    score = batch.add("ZSCORE", CLAIMED, "g")  # run after the claim
    batch.run()
    [claim] = claiming.value
    assert claim.game == "g" and float(claim.until) == score.value


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
    # The clock stands still inside each block: a slow machine cannot let a claim lapse early.
    scheduler = store.scheduler
    with freeze_time("2026-11-23 10:00:00"):
        scheduler.mark_dirty("old")
    with freeze_time("2026-11-23 10:00:01"):
        scheduler.mark_dirty("new")
        assert claimed(scheduler.claim(0)) == ["old"]
        scheduler.tend("w")  # a heartbeat takes back lapsed claims: this one has not lapsed
        assert store.redis.zrange(CLAIMED, 0, -1) == [b"old"]
    with freeze_time("2026-11-23 10:01:00"):
        scheduler.tend("w")
    assert store.redis.zrange(DIRTY, 0, -1) == [b"new", b"old"]
    assert store.redis.zcard(CLAIMED) == 0


def test_a_judged_game_is_no_longer_claimed_once_its_drain_claims_again_or_stops(store):
    scheduler = store.scheduler
    scheduler.mark_dirty("g")
    [claim] = scheduler.claim(0)
    settling = released(claim)
    assert store.redis.zcard(CLAIMED) == 1  # released without a round trip of its own...
    # ...by the next claim, or when the drain stops
    assert scheduler.drain_may_stop(0, settling=settling) is True
    assert store.redis.zcard(CLAIMED) == 0 and store.redis.zcard(DIRTY) == 0


def test_a_drain_claims_several_games_at_once_and_releases_them_with_its_next_claim(store):
    scheduler = store.scheduler
    for game in ("a", "b", "c"):
        scheduler.mark_dirty(game)
    claims = scheduler.claim(0, count=2)
    assert claimed(claims) == ["a", "b"]
    assert claimed(scheduler.claim(0, count=2, settling=released(*claims))) == ["c"]
    assert store.redis.zrange(CLAIMED, 0, -1) == [b"c"]


def test_a_drain_stops_only_when_no_game_waits(store):
    store.scheduler.mark_dirty("g")
    assert store.scheduler.drain_may_stop(0) is False  # "g" waits: the drain took its flag back
    store.scheduler.claim(0)
    assert store.scheduler.drain_may_stop(0) is True
    assert not store.redis.exists(draining(0))


def test_a_claim_that_lapsed_is_taken_back_by_the_next_claim_first_in_line(store):
    scheduler = store.scheduler
    with freeze_time("2026-11-23 10:00:00", tick=True):
        scheduler.mark_dirty("stranded")
        assert claimed(scheduler.claim(0)) == ["stranded"]  # ...and its drain dies
    with freeze_time("2026-11-23 10:00:30", tick=True):
        scheduler.mark_dirty("later")
        assert claimed(scheduler.claim(1)) == ["stranded"]
        assert claimed(scheduler.claim(1)) == ["later"]


def test_only_the_drain_holding_a_claim_releases_it(store):
    scheduler = store.scheduler
    with freeze_time("2026-11-23 10:00:00", tick=True):
        scheduler.mark_dirty("g")
        [slow] = scheduler.claim(0)
    with freeze_time("2026-11-23 10:00:30", tick=True):
        [other] = scheduler.claim(1)  # the slow drain's claim had lapsed
        assert other.game == "g"
        assert scheduler.claim(0, settling=released(slow)) == []
        assert store.redis.zscore(CLAIMED, "g") is not None
        assert scheduler.claim(1, settling=released(other)) == []
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
        scheduler.claim(0)
        store.redis.delete(draining(0))
    with freeze_time("2026-11-23 10:00:30", tick=True):
        assert scheduler.tend("idle") == 0
    assert store.redis.zrange(DIRTY, 0, -1) == [b"g"] and store.redis.zcard(CLAIMED) == 0


def test_a_reader_reminding_of_a_pending_move_leaves_a_claimed_game_to_its_drain(store):
    scheduler = store.scheduler
    scheduler.mark_dirty("g")
    scheduler.claim(0)
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


def unmarked(game_id, marked):
    """What a drain that judged `marked` as handed over sends with its next claim."""
    settling = Settling()
    settling.unmark(game_id, marked)
    return settling


def test_the_bell_carries_the_submission_a_game_was_marked_for(store):
    _rung_with(store, "g", 2, b'{"seq":2,"type":"move-submitted"}')
    assert store.scheduler.ring(5) == Ring("g", b'{"seq":2,"type":"move-submitted"}')
    # Taken as it rang: nothing claimed, and the game still marked until unmarked.
    assert store.redis.zcard(CLAIMED) == 0
    assert store.redis.zrange(DIRTY, 0, -1) == [b"g"]
    assert store.redis.hget(MARKS, "g") == b"2:h2"


def test_a_ring_not_taken_is_claimed_as_before(store):
    _rung_with(store, "g", 2)
    assert store.scheduler.ring(5).game == "g"
    assert claimed(store.scheduler.claim(0)) == ["g"]
    assert store.redis.hget(MARKS, "g") is None  # a claimed game is marked no more


def test_a_game_judged_as_handed_over_is_unmarked_by_the_next_claim(store):
    marked = _rung_with(store, "g", 2)
    # the game is not claimed: it is judged
    assert store.scheduler.claim(0, settling=unmarked("g", marked)) == []
    assert store.redis.zcard(DIRTY) == 0
    assert store.redis.hget(MARKS, "g") is None


def test_a_game_marked_for_a_later_submission_stays_marked(store):
    """The drain judged submission 2; submission 4 was marked before the drain's unmark
    reached Redis: the game waits for it, and is claimed."""
    judged = _rung_with(store, "g", 2)
    _rung_with(store, "g", 4)
    assert claimed(store.scheduler.claim(0, settling=unmarked("g", judged))) == ["g"]


def test_an_earlier_submission_marked_again_does_not_hide_a_later_one(store):
    """A post sent again after its answer was lost marks its game again, after a later
    submission's mark: the later one is the one a drain must judge before it unmarks."""
    _rung_with(store, "g", 4)
    again = _rung_with(store, "g", 2)
    assert store.redis.hget(MARKS, "g") == b"4:h4"
    assert claimed(store.scheduler.claim(0, settling=unmarked("g", again))) == ["g"]


def test_a_stopping_drain_sends_its_unmarks(store):
    settling = unmarked("g", _rung_with(store, "g", 2))
    assert store.scheduler.drain_may_stop(0, settling=settling)
    assert store.redis.zcard(DIRTY) == 0
