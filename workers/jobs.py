"""The RQ jobs: plain importable functions, safe to run twice.

`drain` judges every game with pending submissions, so under load one job's cost is shared by
many moves and many games. `audit` rebuilds one game from its log. `compact` keeps a game that
ended as one record (`workers.compaction`).
"""

from __future__ import annotations

import threading
import time

from engine.audit import report
from store import Store
from store.audits import AuditStatus
from store.compacted import Broken
from store.connection import cluster_url, redis_url
from store.gc_paused import uncollected
from telemetry.metrics import AUDITS, COMPACTIONS
from workers import compaction, presence
from workers.drain import Drain


def _store() -> Store:
    return Store.connect(redis_url(), cluster_url())


# Set when the worker is asked to stop: a drain ends within a turn (`WAIT_AT_ONCE_S` when idle).
STOPPING = threading.Event()
# An audit's progress is written at most this often: one record every 200 entries cost the
# audit of a finished Coloretto game seven round trips, more than its rebuild.
PROGRESS_EVERY_S = 0.25


def drain(slot: int = 0, linger_s: float | None = None) -> int:
    """Judge the work of this slot's partitions while the worker runs
    (`workers.drain.Drain`), or until none came for `linger_s`; the number of verdicts
    written."""
    return Drain(_store(), slot, presence.me(), linger_s, STOPPING).run()


def audit(game_id: str, number: int) -> bool:
    """Rebuild `game_id` from its log, showing progress in the audit record as it goes."""
    with uncollected():
        ok = _audit(_store(), game_id, number)
    AUDITS.labels(str(ok).lower()).inc()
    return ok


def compact(game_id: str) -> str:
    done = compaction.compact_listed(_store(), game_id)
    COMPACTIONS.labels(done).inc()
    return done


def _audit(store: Store, game_id: str, number: int) -> bool:
    queued = store.audits.read(game_id, number) or {}
    claimed = queued.get("claimed") or {}
    try:
        entries, stored = store.log.entries(game_id), store.projections.stored(game_id)
    except Broken as broken:
        # A compacted log that does not reach its stored head: audited as the entries it
        # holds, the last one claiming that head, so that the report names where it breaks.
        entries = [*broken.entries[:-1], {**broken.entries[-1], "hash": broken.head}]
        stored = None
    seed, decks = store.games.secret(game_id)

    shown = time.monotonic()

    def progress(done: int, total: int) -> None:
        nonlocal shown
        if time.monotonic() - shown < PROGRESS_EVERY_S:
            return
        shown = time.monotonic()
        store.audits.save(game_id, number, {
            "status": AuditStatus.RUNNING,
            "claimed": claimed,
            "progress": {"done": done, "total": total},
        })

    result = report(entries, seed, decks, stored, claimed, progress, game_id=game_id)
    result.update(status=AuditStatus.DONE, number=number, version=len(entries))
    store.audits.save(game_id, number, result)
    return result["ok"]
