"""Judging pending submissions against a real Redis: once, in order, nothing written twice."""

import subprocess
import sys
from dataclasses import fields

import pytest
import redis

from engine import log
from engine.games import GAMES
from service import handlers
from store import Store, keys
from store.locks import Locked
from store.projections import Status
from workers import jobs
from workers.validation import has_pending, judge, judge_pending


@pytest.fixture
def store(redis_url):
    return Store(redis.Redis.from_url(redis_url))


def new_game(store, seed="w"):
    body = {"game": "coloretto", "players": ["a", "b", "c"], "options": {}, "seed": seed}
    return handlers.create_game(store, body)["id"]


def submit(store, game_id, seat, move):
    return store.log.append(
        game_id, [{"type": log.SUBMITTED, "seat": seat, "move": move}], submission=True
    ).seq


def kinds(store, game_id):
    return [e["type"] for e in store.log.entries(game_id)]


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
    assert store.log.verdict_seqs(game_id) == {2: 5, 3: 6, 4: 7}


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
    token = store.locks.take(game_id)
    with pytest.raises(Locked):
        judge_pending(store, game_id)
    assert has_pending(store, game_id)
    store.locks.release(game_id, token)
    assert judge_pending(store, game_id) == 1


def test_projections_follow_the_verdicts(store):
    game_id = new_game(store)
    submit(store, game_id, 0, {"type": "draw"})
    judge_pending(store, game_id)
    assert store.log.progress(game_id) == (2, 2)  # submitted, judged
    position = store.projections.position(game_id)
    assert (position.at, position.to_act, position.status) == (3, (0,), Status.IN_PROGRESS)
    seed, decks = store.games.secret(game_id)
    meta = store.games.meta(game_id)
    replayed = log.state_at(GAMES["coloretto"], log.table_of(meta, seed, decks),
                            store.log.entries(game_id))
    assert replayed.drawn is not None


def test_drain_job_judges_every_dirty_game(store, redis_url, monkeypatch):
    monkeypatch.setenv("REDIS_URL", redis_url)
    games = [new_game(store, seed=str(i)) for i in range(3)]
    for game_id in games:
        submit(store, game_id, 0, {"type": "draw"})
        store.scheduler.mark_dirty(game_id)
    jobs.drain(linger_s=0)
    # Worker processes of other tests may share the drain; either way nothing stays pending.
    for game_id in games:
        store.log.wait(game_id, 2, 5000)
        assert not has_pending(store, game_id)
        assert kinds(store, game_id)[-1] == "move-accepted"


def test_a_log_rewritten_by_a_failover_is_not_resumed_from_memory(store, redis_url):
    """This process judged a draw that a failover then lost (the promoted replica had the log
    as it was before), and another worker judged a different move at the same seq: the next
    judging here starts from the stored state, not the one this process remembers."""
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
        "import redis, sys; from store import Store; from workers.validation import judge_pending;"
        "sys.exit(judge_pending(Store(redis.Redis.from_url(sys.argv[1])), sys.argv[2]) != 1)"
    )
    subprocess.run([sys.executable, "-c", judged_elsewhere, redis_url, game_id], check=True)
    assert submit(store, game_id, 0, {"type": "draw"}) == 4
    assert judge_pending(store, game_id) == 1
    assert kinds(store, game_id)[2:] == ["move-rejected", "move-submitted", "move-accepted"]


def test_a_game_listed_twice_is_judged_once_and_left_unlocked(store):
    """A drain judges a game again when more was submitted meanwhile, and that game may have
    been claimed again too."""
    game_id = new_game(store, seed="twice")
    submit(store, game_id, 0, {"type": "draw"})
    assert judge(store, [game_id, game_id]).written == 1
    assert kinds(store, game_id)[-1] == "move-accepted"
    assert store.locks.take(game_id) is not None
