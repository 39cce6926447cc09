"""Heartbeats that a full Redis does not stop: a process's own key, alive while it beats.

A beat sets the key to lapse `alive_s` from now. When Redis is full (`store.connection.FULL`)
it refuses every command that may take memory, SET included, but not PEXPIRE: so a process
whose beat is refused pushes its key's lapse on instead, and is still counted alive while it
runs, however long Redis stays full (a process that starts while it is full has no key yet,
and is counted once Redis takes writes again). Counting reads the keys of every process that
beat within the last hour (the callers' sorted sets name them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import redis

from store.connection import FULL


def beat(key: str, alive_s: float) -> tuple[Any, ...]:
    """A beat's command, to send along with the caller's own (a pipeline's or a batch's)."""
    return "SET", key, 1, "PX", int(alive_s * 1000)


def refused(answer: Any) -> bool:
    """Whether a beat's answer says Redis is full (then `hold_on`)."""
    return isinstance(answer, FULL)


def hold_on(client: redis.Redis, key: str, alive_s: float) -> bool:
    """Push a key's lapse on without taking memory, while Redis refuses beats; False when
    the key is gone already (lapsed before Redis was full)."""
    return bool(client.pexpire(key, int(alive_s * 1000)))


def counted(client: redis.Redis, alive_keys: Sequence[str]) -> int:
    """How many of these processes' keys are alive (one command: they share a hash tag)."""
    return int(client.exists(*alive_keys)) if alive_keys else 0
