"""Judging pending submissions against a real Redis: once, in order, nothing written twice."""

import subprocess
import sys
from dataclasses import fields

import pytest
import redis

from bench.local import throwaway_signer
from engine import log
from engine.games import GAMES
from service import handlers
from store import Store, keys
from store.batch import Batch
from store.locks import Locked
from store.log import Writing
from store.stored import Status
from tests.store.conftest import append, release_lock, take_lock, wait_past
from workers import jobs
from workers.drain import Drain, Work, judge_pending
from workers.judging import STATES, hand


def has_pending(store, game_id):
    """Whether the game has a submission past its last judged one."""
    submitted, judged_seq = store.log.progress(game_id)
    return submitted > judged_seq

@pytest.fixture
def store(quiet):
    """Every append of a submission writes its work item: in the suite's database its workers
    would judge it before the test."""
    return quiet


def new_game(store, seed="w"):
    body = {"game": "coloretto", "players": ["a", "b", "c"], "options": {}, "seed": seed}
    return handlers.create_game(store, throwaway_signer(), body)["id"]


def submit(store, game_id, seat, move):
    body = {"type": log.SUBMITTED, "seat": seat, "move": move}
    return append(store, game_id, [body], submission=True).seq


def kinds(store, game_id):
    return [e["type"] for e in store.log.entries(game_id)]


def test_a_submission_landing_as_the_game_ends_is_judged_before_game_finished(store):
    """A drain judged the table's abandon, and a move landed before its commit: its verdicts,
    `game-finished` among them, are not chained again onto that move, which would then be
    judged after `game-finished`; the game is judged again, that move with it."""
    game_id = new_game(store, seed="ends")
    abandon = submit(store, game_id, "table", {"type": "abandon"})
    drain = Drain(store, worker="w")
    reads = drain.read(Work([game_id]))
    late = submit(store, game_id, 0, {"type": "draw"})
    commit = Batch(store.redis)
    turn = drain.judge([], reads, commit)
    commit.run()
    drain.settle(turn)
    assert turn.written == 0 and drain.again == [game_id]
    assert kinds(store, game_id)[-1] == log.SUBMITTED
    assert judge_pending(store, game_id) == 2
    entries = store.log.entries(game_id)
    assert [(e["type"], e.get("of")) for e in entries[-3:]] == [
        (log.ACCEPTED, abandon), (log.REJECTED, late), (log.FINISHED, None)]
    assert entries[-2]["code"] == "game-finished" and log.broken_links(entries) == []


def test_pending_submissions_are_judged_in_one_batch(store):
    game_id = new_game(store)
    submit(store, game_id, 0, {"type": "draw"})
    submit(store, game_id, 0, {"type": "place", "row": 2})
    submit(store, game_id, 0, {"type": "draw"})
    assert has_pending(store, game_id)
    assert judge_pending(store, game_id) == 3
    assert kinds(store, game_id) == [
        "game-created", "move-submitted", "move-submitted", "move-submitted",
        "move-accepted", "move-accepted", "move-rejected",
    ]
    assert not has_pending(store, game_id)
    assert {seq: store.log.verdict(game_id, seq)["seq"] for seq in (2, 3, 4)} == {2: 5, 3: 6, 4: 7}


def test_judging_twice_writes_nothing_twice(store):
    game_id = new_game(store)
    submit(store, game_id, 0, {"type": "draw"})
    assert judge_pending(store, game_id) == 1
    before = store.log.entries(game_id)
    assert judge_pending(store, game_id) == 0
    assert store.log.entries(game_id) == before


def test_a_locked_game_is_left_to_the_lock_holder(store):
    game_id = new_game(store)
    submit(store, game_id, 0, {"type": "draw"})
    token = take_lock(store, game_id)
    with pytest.raises(Locked):
        judge_pending(store, game_id)
    assert has_pending(store, game_id)
    release_lock(store, game_id, token)
    assert judge_pending(store, game_id) == 1


def test_projections_follow_the_verdicts(store):
    game_id = new_game(store)
    submit(store, game_id, 0, {"type": "draw"})
    judge_pending(store, game_id)
    assert store.log.progress(game_id) == (2, 2)  # submitted, judged
    position = store.projections.position(game_id)
    assert (position.version, position.to_act, position.status) == (3, (0,), Status.IN_PROGRESS)
    seed, decks = store.games.secret(game_id)
    meta = store.games.context(game_id, None).meta
    replayed = log.state_at(GAMES["coloretto"], log.table_of(meta, seed, decks),
                            store.log.entries(game_id))
    assert replayed.game.drawn is not None


def test_drain_job_judges_every_game_with_work(store, redis_url, monkeypatch):
    monkeypatch.setenv("REDIS_URL", redis_url.rsplit("/", 1)[0] + "/8")
    games = [new_game(store, seed=str(i)) for i in range(3)]
    for game_id in games:
        submit(store, game_id, 0, {"type": "draw"})
    assert jobs.drain(linger_s=0) == 3
    for game_id in games:
        wait_past(store, game_id, 2, 5000)
        assert not has_pending(store, game_id)
        assert kinds(store, game_id)[-1] == "move-accepted"


def test_a_log_rewritten_by_a_failover_is_not_resumed_from_memory(quiet, redis_url):
    """This process judged a draw that a failover then lost (the promoted replica had the log
    as it was before), and another worker judged a different move at the same seq: the next
    judging here starts from the stored state, not the one this process remembers. (In a
    database no running worker listens on, which would judge the move first.)"""
    store, quiet_url = quiet, redis_url.rsplit("/", 1)[0] + "/8"
    game_id = new_game(store, seed="failover")
    names = [getattr(keys.game(game_id), f.name) for f in fields(keys.GameKeys)][1:]
    before = {name: store.redis.dump(name) for name in names}
    assert submit(store, game_id, 0, {"type": "draw"}) == 2
    assert judge_pending(store, game_id) == 1
    store.redis.delete(*names)
    for name, dumped in before.items():
        if dumped is not None:
            store.redis.restore(name, 0, dumped)
    assert submit(store, game_id, 0, {"type": "take", "row": 0}) == 2
    judged_elsewhere = (
        "import redis, sys; from store import Store; from workers.drain import judge_pending;"
        "sys.exit(judge_pending(Store(redis.Redis.from_url(sys.argv[1])), sys.argv[2]) != 1)"
    )
    subprocess.run([sys.executable, "-c", judged_elsewhere, quiet_url, game_id], check=True)
    assert submit(store, game_id, 0, {"type": "draw"}) == 4
    assert judge_pending(store, game_id) == 1
    assert kinds(store, game_id)[2:] == ["move-rejected", "move-submitted", "move-accepted"]


def test_a_game_listed_twice_is_judged_once_and_left_unlocked(store):
    """A drain judges a game again when more was submitted meanwhile, and that game may have
    been claimed again too."""
    game_id = new_game(store, seed="twice")
    submit(store, game_id, 0, {"type": "draw"})
    assert Drain(store).work_through(Work([game_id, game_id])).written == 1
    assert kinds(store, game_id)[-1] == "move-accepted"
    assert take_lock(store, game_id) is not None


@pytest.fixture
def quiet(redis_url):
    """A store in a database no worker process listens on: only the test reads its work."""
    client = redis.Redis.from_url(redis_url.rsplit("/", 1)[0] + "/8")
    client.flushdb()
    store = Store(client)
    store.scheduler.ensure_groups()
    return store


def posted(store, game_id, move):
    """Post a move as the web does: appended with its work item."""
    head = store.log.head(game_id)
    writing = Writing(game_id, (log.submission(0, move),), submission=True)
    return store.log.submit(writing, head).appended


def items(store, drain=None):
    """The new work items, read as a drain reads them (held by `drain`, as its turn holds
    them)."""
    found = store.scheduler.read("slot-0", range(keys.PARTITIONS), 0.01)
    if drain is not None:
        for item in found:
            drain.items.setdefault(item.game, []).append(item)
    return found


def reads(store):
    """How many times a drain has read a game to judge it (the script's XRANGE of the log)."""
    return store.redis.info("commandstats").get("cmdstat_xrange", {}).get("calls", 0)


def test_a_submission_following_the_state_held_here_is_judged_without_reading_the_game(quiet):
    game_id = new_game(quiet, seed="handed")
    submit(quiet, game_id, 0, {"type": "draw"})
    assert judge_pending(quiet, game_id) == 1  # this process now holds the game's state
    items(quiet)  # (the first move's item, done with)
    appended = posted(quiet, game_id, {"type": "place", "row": 0})
    drain = Drain(quiet, worker="w")
    [item] = items(quiet, drain)
    handed = hand(STATES, item)
    assert handed is not None
    before = reads(quiet)
    assert drain.work_through(Work(handed=[handed])).written == 1 and reads(quiet) == before
    assert quiet.log.verdict(game_id, appended.seq)["type"] == "move-accepted"
    assert drain.again == [] and drain.items == {}
    stream = keys.WORK[item.partition]
    assert quiet.redis.xpending(stream, keys.JUDGES)["pending"] == 1  # the first move's only
    assert [i for i, _ in quiet.redis.xrange(stream)] != [item.id]  # acknowledged, deleted


def test_a_handed_over_submission_the_log_moved_past_commits_nothing_and_is_read_again(quiet):
    """Another submission landed after it: its verdict, chained onto it, is refused; the game
    is read and judged next turn, and both items are done then."""
    game_id = new_game(quiet, seed="refused")
    submit(quiet, game_id, 0, {"type": "draw"})
    assert judge_pending(quiet, game_id) == 1
    items(quiet)
    posted(quiet, game_id, {"type": "place", "row": 0})
    drain = Drain(quiet, worker="w")
    [first] = items(quiet, drain)
    handed = hand(STATES, first)
    assert handed is not None  # chained onto this process's head, as far as it knows
    posted(quiet, game_id, {"type": "draw"})  # landed meanwhile
    before = quiet.log.entries(game_id)
    assert drain.work_through(Work(handed=[handed])).written == 0
    assert quiet.log.entries(game_id) == before
    assert drain.again == [game_id] and drain.items[game_id] == [first]
    drain._deal()
    assert drain.turn()  # the game read, with the second move's item
    assert kinds(quiet, game_id)[-4:-2] == ["move-submitted", "move-submitted"]
    assert all(quiet.log.verdict(game_id, seq) for seq in (first.seq, first.seq + 1))
    assert drain.again == [] and drain.items == {}
    # The first move's item too: read as this slot's, left, and taken up at the drain's first
    # turn (its game had nothing pending: done).
    assert store_waiting(quiet) == 0


def store_waiting(store):
    return sum(store.redis.xlen(keys.WORK[p]) for p in range(keys.PARTITIONS))


def test_an_item_is_not_handed_over_without_the_state_its_submission_follows(quiet):
    game_id = new_game(quiet, seed="unheld")
    posted(quiet, game_id, {"type": "draw"})
    [item] = items(quiet)
    assert hand(STATES, item) is None  # never judged here
    assert judge_pending(quiet, game_id) == 1
    submit(quiet, game_id, 0, {"type": "place", "row": 0})  # judged without its item
    posted(quiet, game_id, {"type": "draw"})
    assert hand(STATES, items(quiet)[-1]) is None  # it follows another submission
    assert judge_pending(quiet, game_id) == 2
