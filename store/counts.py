"""The rate limits' counts: fixed windows on the game store's Redis.

A count lives under its key (`keys.rate_count`): incremented by each request it counts, and
given its window's length when that window's first request creates it. Counts can be queued
in a pipeline beside other reads, so that a request about a game learns its counts and its
game's context in one round trip (`Games.context`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from store.connection import StoreClient


@dataclass(frozen=True)
class Count:
    key: str  # where it is counted (`keys.rate_count`)
    window_s: int
    hit: bool  # this request counts; else its count is only looked at
    most: int  # the rate's: a hit allowed up to it, a look below it

    def allows(self, taken: int) -> bool:
        """As the `limits` library's fixed windows (and `store.log`'s append script)."""
        return taken <= self.most if self.hit else taken < self.most


def queue(pipe: Any, counts: Sequence[Count]) -> None:
    for count in counts:
        if count.hit:
            pipe.incr(count.key)
            # NX: only the window's first request starts its clock.
            pipe.expire(count.key, count.window_s, nx=True)
        else:
            pipe.get(count.key)


def read(answers: Sequence[Any], counts: Sequence[Count]) -> list[int]:
    """Each count, from the answers of what `queue` sent (in its order, nothing between)."""
    found, index = [], 0
    for count in counts:
        found.append(int(answers[index] or 0))
        index += 2 if count.hit else 1
    return found


class Counts:
    def __init__(self, client: StoreClient):
        self.redis = client

    def take(self, counts: Sequence[Count]) -> list[int]:
        """Count this request, in one round trip."""
        if not counts:
            return []
        pipe = self.redis.pipeline(transaction=False)
        queue(pipe, counts)
        return read(pipe.execute(), counts)

    def lapses_in_s(self, count: Count) -> int:
        """Seconds until `count`'s window ends (0 if it has none)."""
        return max(0, self.redis.ttl(count.key))
