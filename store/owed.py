"""Marks Redis refused, sent again by the process that posted their moves until Redis takes them.

A move's append may land while its game's mark is refused (a full Redis refuses the mark once
the append took the last of its memory) or lost (Redis went away between the two on a
cluster). The workers' sweep (`store.unmarked`) finds such games, a slice of all games a second;
the process that saw the refusal knows the game at once, so it marks it again every `AGAIN_S`
until Redis takes the mark, and the move is judged as soon as Redis takes writes again, however
many games there are. A worker's heartbeat queues a drain for a game marked with none to judge
it (`Scheduler.tend`). Owed marks live in the process only: one that dies with some leaves them
to the sweep, as it does past `MOST` of them.
"""

from __future__ import annotations

import threading
import time

import redis

from store.scheduler import Scheduler

AGAIN_S = 0.5
MOST = 10_000


class OwedMarks:
    def __init__(self, scheduler: Scheduler):
        self._scheduler = scheduler
        self._lock = threading.Lock()
        self._games: set[str] = set()
        self._retrying = False

    def owe(self, game_id: str) -> None:
        """The mark of a game whose move was written is owed: send it again until it is taken."""
        with self._lock:
            if len(self._games) < MOST:
                self._games.add(game_id)
            if self._retrying:
                return
            self._retrying = True
        threading.Thread(target=self._retry, daemon=True, name="tablelog-owed-marks").start()

    def owed(self) -> set[str]:
        with self._lock:
            return set(self._games)

    def _retry(self) -> None:
        while True:
            time.sleep(AGAIN_S)
            for game_id in self.owed():
                try:
                    self._scheduler.mark_dirty(game_id, unless_claimed=True)
                except redis.RedisError:  # still full, or away: next time
                    continue
                with self._lock:
                    self._games.discard(game_id)
            with self._lock:
                if not self._games:
                    self._retrying = False
                    return
