"""Audit records: an audit's progress while a worker runs it, then its report."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

import orjson
import redis

from store import keys

# How long a finished audit's token stays for waiters to see.
_DONE_TOKEN_S = 60


class AuditStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"


class Audits:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def new(self, game_id: str, claimed: Mapping[str, int]) -> int:
        number = self.redis.hincrby(keys.game(game_id).meta, "audits", 1)
        self.save(game_id, number, {"status": AuditStatus.QUEUED, "claimed": claimed})
        return number

    def save(self, game_id: str, number: int, report: Mapping[str, Any]) -> None:
        k = keys.game(game_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.set(k.audit(number), orjson.dumps(report))
        if report.get("status") == AuditStatus.DONE:
            pipe.rpush(k.audit_done(number), 1)
            pipe.expire(k.audit_done(number), _DONE_TOKEN_S)
        pipe.execute()

    def read(self, game_id: str, number: int, wait_s: float = 0) -> dict[str, Any] | None:
        """Audit `number` of a game, waiting up to `wait_s` for it to be done (no polling)."""
        k = keys.game(game_id)
        if wait_s > 0:
            done = k.audit_done(number)
            self.redis.blmove(done, done, wait_s, "LEFT", "RIGHT")
        raw = self.redis.get(k.audit(number))
        return orjson.loads(raw) if raw else None
