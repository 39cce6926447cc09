"""Turn clocks: how long each seat has had to act, read from the log's own timestamps.

A seat's turn begins at the time of the submission that made it that seat's turn (the game's
creation for the first), and ends at the time of the submission that moved it on. Every time
is an entry's `at`, so a clock is a pure function of the log: replayed a year later, it says
the same. Times are whole milliseconds since the epoch; a claim is judged at its own `at`.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from engine.frozen import frozen

IDLE = -1  # a seat that is not waited for


def millis(at: str) -> int:
    """An entry's `at` (ISO 8601, UTC, "Z") as milliseconds since the epoch."""
    return round(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)


@frozen
class Clock:
    """The turn limit, when each seat's wait began (`IDLE` if it is not waited for), and each
    seat's thinking time so far, in milliseconds."""

    limit_s: int
    since: tuple[int, ...]
    thinking: tuple[int, ...]

    @classmethod
    def idle(cls, limit_s: int, seats: int) -> Clock:
        """A clock before the game starts: nobody waited for yet."""
        return cls(limit_s, (IDLE,) * seats, (0,) * seats)

    def moved(self, at: int, acted: object, waiting: Iterable[int]) -> Clock:
        """The clock after an accepted submission at `at` by `acted` (a seat, or the table):
        a seat that acted, or is no longer waited for, adds the time it had; a seat waited for
        now and not before starts its wait at `at`."""
        waited = set(waiting)
        since, thinking = list(self.since), list(self.thinking)
        for seat, began in enumerate(self.since):
            if began != IDLE and (seat == acted or seat not in waited):
                thinking[seat] += max(at - began, 0)
                since[seat] = IDLE
        for seat in waited:
            if since[seat] == IDLE:
                since[seat] = at
        return Clock(self.limit_s, tuple(since), tuple(thinking))

    def restarted(self, at: int, waiting: Iterable[int]) -> Clock:
        """The waits begun at `at` (the game's start, a takeback); the thinking done stays."""
        waited = set(waiting)
        return Clock(self.limit_s, tuple(at if s in waited else IDLE
                                         for s in range(len(self.since))), self.thinking)

    def late(self, at: int) -> tuple[int, ...]:
        """The seats whose wait has lasted the limit or longer at `at`."""
        limit = self.limit_s * 1000
        return tuple(s for s, began in enumerate(self.since)
                     if began != IDLE and at - began >= limit)

    def left_ms(self, at: int) -> int:
        """How long until the first waited-for seat is late."""
        waits = [began for began in self.since if began != IDLE]
        return max(min(waits) + self.limit_s * 1000 - at, 0) if waits else 0
