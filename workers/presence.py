"""A worker process's presence: its name, and a heartbeat that keeps the pipeline healing.

A judging worker beats every second through `Scheduler.tend`, which also frees the drain slots
of dead workers and queues a drain while fewer run than workers live: so every live worker
runs one, which takes up what a dead one left (`workers.drain`). While Redis is full and
refuses the beat, the worker's alive key is kept alive instead (`store.alive`), so /healthz
still counts it. An auditing worker beats to be counted by /healthz, and queues the compaction
of games that ended a while ago. The beat runs in a thread of its own, so a long job does not
make its worker look dead.
"""

from __future__ import annotations

import functools
import logging
import os
import secrets
import threading
from collections.abc import Callable

from redis.exceptions import RedisError

from store import Store
from workers.queue import enqueue_compaction, enqueue_drain

BEAT_S = 1.0
COMPACT_AFTER_S = 60.0
# Games a beat queues the compaction of at most, and how long before a game whose compaction
# died with its worker is taken again.
COMPACT_AT_ONCE = 50
COMPACT_LEASE_S = 600.0
_log = logging.getLogger(__name__)


@functools.cache
def me() -> str:
    """This process's name among the workers, unique across hosts and restarts."""
    return f"{os.getpid()}-{secrets.token_hex(4)}"


def tend(store: Store) -> None:
    """A judging worker's beat: queue a drain while fewer run than workers live."""
    if (slot := store.scheduler.tend(me())) is not None:
        enqueue_drain(store.queues, slot)


def attend(store: Store) -> None:
    """An auditing worker's beat, which also queues the compaction of games that ended a
    while ago (`workers.compaction`)."""
    store.audits.beat(me())
    for game_id in store.compacted.take(COMPACT_AT_ONCE, compact_after_s(), COMPACT_LEASE_S):
        enqueue_compaction(store.queues, game_id)


def compact_after_s() -> float:
    """How long after its end a game is compacted: a minute unless TABLELOG_COMPACT_AFTER_S
    says otherwise. Its players and spectators read it most right then, as live keys."""
    return float(os.environ.get("TABLELOG_COMPACT_AFTER_S", COMPACT_AFTER_S))


def start(store: Store, beat: Callable[[Store], None]) -> threading.Event:
    """Beat every second from now on, in a daemon thread; set the event to stop."""
    stopped = threading.Event()

    def run() -> None:
        while True:
            try:
                beat(store)
            except RedisError:
                # The main loop waits for Redis to come back and says so; beats simply resume.
                _log.debug("heartbeat missed: Redis does not answer", exc_info=True)
            if stopped.wait(BEAT_S):
                return

    threading.Thread(target=run, name="heartbeat", daemon=True).start()
    return stopped
