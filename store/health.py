"""What /healthz reports of the store: the moves waiting for a verdict, the age of the oldest, and
whether Redis keeps what it is told (which the processes also warn of when they start).

The games waiting are those marked dirty or claimed by a drain; the submissions of the
longest-waiting of them (`_LOOKED_AT`) are counted from their logs, so the report costs three
round trips however busy the service is.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime

import orjson
import redis

from engine import log
from store import keys

_LOOKED_AT = 100
# Pending submissions counted per game at most.
_COUNTED = 1000


@dataclass(frozen=True)
class Pending:
    submissions: int
    games: int
    oldest_s: float | None


def pending(client: redis.Redis) -> Pending:
    pipe = client.pipeline(transaction=False)
    pipe.zrange(keys.DIRTY, 0, _LOOKED_AT - 1)
    pipe.zrange(keys.CLAIMED, 0, _LOOKED_AT - 1)
    games = list(dict.fromkeys(g.decode() for found in pipe.execute() for g in found))
    for game_id in games:
        k = keys.game(game_id)
        pipe.hget(k.proj, "judged")
        pipe.hget(k.meta, "submitted")
    progress = pipe.execute()
    for game_id, judged, submitted in zip(games, progress[::2], progress[1::2], strict=True):
        if int(submitted or 0) > int(judged or 0):
            pipe.xrange(keys.game(game_id).log, f"{int(judged or 0) + 1}-0", f"{int(submitted)}-0",
                        count=_COUNTED)
    waiting = [_submissions(found) for found in pipe.execute()]
    firsts = [datetime.fromisoformat(w[0]["at"]).timestamp() for w in waiting if w]
    return Pending(
        submissions=sum(len(w) for w in waiting),
        games=sum(1 for w in waiting if w),
        oldest_s=round(time.time() - min(firsts), 3) if firsts else None,
    )


def _submissions(found: list) -> list[dict]:
    entries = (orjson.loads(fields[b"e"]) for _, fields in found)
    return [e for e in entries if e["type"] == log.SUBMITTED]


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
