"""Turn clocks: how long each seat has had to act, read from the log's own timestamps.

A seat's turn begins at the time of the submission that made it that seat's turn (the game's
creation for the first), and ends at the time of the submission that moved it on. Every time
is an entry's `at`, so a clock is a pure function of the log: replayed a year later, it says
the same. Times are whole milliseconds since the epoch; a claim is judged at its own `at`.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.frozen import frozen

IDLE = -1  # a seat that is not waited for


def millis(at: str) -> int:
    """An entry's `at` ("2026-11-27T10:47:33.123Z", as `store.log.now` writes it) as
    milliseconds since the epoch. Read by hand: the engine imports nothing that knows a clock."""
    date, _, time = at.rstrip("Z").partition("T")
    year, month, day = map(int, date.split("-"))
    hours, minutes, seconds = time.split(":")
    whole, _, fraction = seconds.partition(".")
    ms = round(float(f"0.{fraction or 0}") * 1000)
    return ((_days(year, month, day) * 24 + int(hours)) * 60 + int(minutes)) * 60_000 + (
        int(whole) * 1000 + ms)


def _days(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's
    days_from_civil)."""
    year -= month <= 2
    era = year // 400
    of_era = year - era * 400
    of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    of_era_days = of_era * 365 + of_era // 4 - of_era // 100 + of_year
    return era * 146097 + of_era_days - 719468


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
