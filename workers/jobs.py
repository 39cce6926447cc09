"""The RQ jobs: plain importable functions, safe to run twice.

`drain` judges every game with pending submissions, so under load one job's cost is shared by
many moves and many games. `audit` rebuilds one game from its log.
"""

from __future__ import annotations

import logging

from redis.exceptions import RedisError

from engine.audit import report
from engine.game import SPECTATOR, TABLE
from store import Store
from store.audits import AuditStatus
from store.connection import cluster_url, redis_url
from store.locks import Locked
from workers import presence
from workers.validation import has_pending, judge_pending


def _store() -> Store:
    return Store.connect(redis_url(), cluster_url())


LINGER_S = 0.05
_log = logging.getLogger(__name__)


def drain(slot: int = 0) -> int:
    """Judge games until none is marked dirty; the number of verdicts written.

    The job lingers a moment for more work before it stops: under load a stream of moves is
    judged by one job instead of one job each. Every claim also takes back claims that lapsed.
    """
    store = _store()
    scheduler = store.scheduler
    worker = presence.me()
    written = 0
    while True:
        while (game_id := scheduler.next_dirty(slot, LINGER_S, worker)) is not None:
            written += _judge_claimed(store, game_id)
        if scheduler.drain_may_stop(slot, worker):
            return written


def _judge_claimed(store: Store, game_id: str) -> int:
    """Judge one claimed game. A game that cannot be judged now must not stop the drain for
    every other game: locked by another worker (judging it, or dead while judging it), or
    failing (a bug), it keeps its claim, which lapses after the lock does, so the game is
    judged again. When Redis goes away the drain ends: the worker waits for it to be back."""
    try:
        written = _judge_all(store, game_id)
    except Locked:
        store.scheduler.leave(game_id)
        return 0
    except RedisError:
        raise  # Redis went away: no other game can be judged either
    except Exception:
        _log.exception("judging game %s failed; it is tried again once its claim lapses", game_id)
        store.scheduler.leave(game_id)
        return 0
    store.scheduler.judged(game_id)
    return written


def _judge_all(store: Store, game_id: str) -> int:
    written = judge_pending(store, game_id)
    # A submission may have landed while we held the lock and another drain, finding the game
    # locked, left it to its claim's lapse: look again now that the lock is released.
    while has_pending(store, game_id):
        done = judge_pending(store, game_id)
        if not done:
            break
        written += done
    return written


def audit(game_id: str, number: int) -> bool:
    """Rebuild `game_id` from its log, showing progress in the audit record as it goes."""
    store = _store()
    queued = store.audits.read(game_id, number) or {}
    claimed = queued.get("claimed") or {}
    entries = store.log.entries(game_id)
    seed, decks = store.games.secret(game_id)

    def progress(done: int, total: int) -> None:
        store.audits.save(game_id, number, {
            "status": AuditStatus.RUNNING,
            "claimed": claimed,
            "progress": {"done": done, "total": total},
        })

    stored = store.projections.stored(game_id, (SPECTATOR, TABLE))
    result = report(entries, seed, decks, stored, claimed, progress)
    result.update(status=AuditStatus.DONE, number=number, version=len(entries))
    store.audits.save(game_id, number, result)
    return result["ok"]
