"""Judging pending submissions against a real Redis: once, in order, nothing written twice."""

import pytest
import redis

from engine import log
from engine.games import GAMES
from service import handlers
from store import Store
from store.locks import Locked
from store.projections import Status
from workers import jobs
from workers.validation import has_pending, judge_pending


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
    jobs.drain()
    # Worker processes of other tests may share the drain; either way nothing stays pending.
    for game_id in games:
        store.log.wait(game_id, 2, 5000)
        assert not has_pending(store, game_id)
        assert kinds(store, game_id)[-1] == "move-accepted"
