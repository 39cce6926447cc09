"""Heartbeats that a full Redis does not stop: a process's own key, whose time to live tells when
it last beat.

A beat gives the key an hour to live (`KEPT_S`); a process beat within the last `alive_s` while
its key has more than `KEPT_S - alive_s` left. When Redis is full (`store.connection.FULL`) it
refuses every command that may take memory, SET included, but not PEXPIRE: so a process whose
beat is refused pushes its key's time on instead, and is still counted alive while it runs,
however long Redis stays full, and even once it was stopped a while (a process that starts
while Redis is full has no key yet, and is counted once Redis takes writes again).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import redis

from store.connection import FULL

# As long as the workers' sorted sets remember a worker that stopped beating.
KEPT_S = 3600


def beat(key: str) -> tuple[Any, ...]:
    """A beat's command, to send along with the caller's own (a pipeline's or a batch's)."""
    return "SET", key, 1, "PX", KEPT_S * 1000


def refused(answer: Any) -> bool:
    """Whether a beat's answer says Redis is full (then `hold_on`)."""
    return isinstance(answer, FULL)


def hold_on(client: redis.Redis, key: str) -> bool:
    """A beat that takes no memory, while Redis refuses beats; False when the key is gone (the
    process started while Redis was full, or had not beaten for an hour)."""
    return bool(client.pexpire(key, KEPT_S * 1000))


def counted(client: redis.Redis, alive_keys: Sequence[str], alive_s: float) -> int:
    """How many of these processes beat within the last `alive_s`."""
    if not alive_keys:
        return 0
    pipe = client.pipeline(transaction=False)
    for key in alive_keys:
        pipe.pttl(key)
    since = (KEPT_S - alive_s) * 1000
    return sum(1 for left in pipe.execute() if left > since)
