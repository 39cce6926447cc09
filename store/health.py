"""What /healthz reports of the store: the moves waiting for a verdict, the age of the oldest,
whether Redis keeps what it is told (which the processes also warn of when they start), and
whether it takes writes (its memory against `maxmemory`).

The submissions waiting are the work items in the partitions' streams (`store.scheduler`): one
for each submission written and not judged yet, written by its append, so the report costs one
round trip however busy the service is.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import redis

from store import keys
from store.connection import FULL
from store.scheduler import waiting

# How long /healthz's probe of writes lives: it is written again by the next /healthz.
_PROBE_MS = 1000


@dataclass(frozen=True)
class Pending:
    submissions: int
    games: int
    oldest_s: float | None


@dataclass(frozen=True)
class Memory:
    """Redis's memory as INFO tells it, and whether it took a write just now."""

    used: int  # bytes
    most: int  # `maxmemory`: 0 for no limit
    policy: str  # `maxmemory-policy`: under `noeviction`, a full Redis refuses writes
    writable: bool

    @property
    def used_of_most(self) -> float | None:
        return round(self.used / self.most, 3) if self.most else None


def pending(client: redis.Redis) -> Pending:
    found = waiting(client)
    oldest = None if found.oldest_at is None else round(max(time.time() - found.oldest_at, 0), 3)
    return Pending(submissions=found.items, games=found.games, oldest_s=oldest)


def used_memory(client: redis.Redis) -> tuple[int, int]:
    """Redis's `used_memory` and `maxmemory` (0: no limit), in bytes, with no probe."""
    found = client.info("memory")
    return found["used_memory"], found["maxmemory"]


def memory(client: redis.Redis) -> Memory:
    """Redis's memory, and whether it takes a write (a probe that lapses at once)."""
    found = client.info("memory")
    try:
        client.set(keys.HEALTH, 1, px=_PROBE_MS)
    except FULL:
        writable = False
    else:
        writable = True
    return Memory(found["used_memory"], found["maxmemory"], found["maxmemory_policy"], writable)


def persistence(client: redis.Redis) -> str:
    """How the Redis keeps what it is told across a restart: "aof" (every write logged),
    "rdb" (snapshots only: a restart loses what came since the last), "none", or "unknown"
    (a managed Redis refusing INFO or CONFIG)."""
    try:
        if client.info("persistence").get("aof_enabled") == 1:
            return "aof"
        return "rdb" if client.config_get("save").get("save") else "none"
    except redis.ResponseError:
        return "unknown"


def forgetting(client: redis.Redis) -> str | None:
    """What a process starting on this Redis should warn of: that a restart of Redis would lose
    every game, or the moves since its last snapshot; None when it keeps an append-only file,
    cannot be asked, or does not answer yet (the process says so when it needs it)."""
    try:
        kept = persistence(client)
    except redis.RedisError:
        return None
    if kept == "none":
        return ("this Redis keeps nothing on disk (no append-only file, no snapshots): a restart"
                " of it loses every game; run it with the project's redis.conf (`make run` does)")
    if kept == "rdb":
        return ("this Redis keeps snapshots only (no append-only file): a restart of it loses"
                " the moves made since the last one; see the project's redis.conf")
    return None
