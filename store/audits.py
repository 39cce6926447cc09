"""Audit records: an audit's progress while a worker runs it, then its report, kept for a while.

Identical requests (the same game, version and claim) while a record lives share it, so a flood
of them costs one run. A record, and the memory of which request made it, expire `TTL_S` after
their last change; reading an expired audit answers 404 like one that never was.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

import orjson
import redis

from engine.log import canonical
from store import alive, keys
from store.batch import checked
from store.scheduler import ALIVE_S, FORGET_S

TTL_S = 3600
# How long a finished audit's token stays for waiters to see.
_DONE_TOKEN_S = 60

# Number a new audit `number` (when the meta's count is still one less) unless an identical
# one (KEYS[2] names it) is on record; write its record (KEYS[3]) and remember it by its
# request. ARGV[1] is {"number", "record", "ttl_s"}.
_NEW = """
local a = cjson.decode(ARGV[1])
local same = redis.call('GET', KEYS[2])
if same then return {'same', same} end
local last = tonumber(redis.call('HGET', KEYS[1], 'audits') or '0')
if last + 1 ~= a.number then return {'moved', tostring(last)} end
redis.call('HSET', KEYS[1], 'audits', a.number)
redis.call('SET', KEYS[3], a.record, 'EX', a.ttl_s)
redis.call('SET', KEYS[2], a.number, 'EX', a.ttl_s)
return {'new', tostring(a.number)}
"""


class AuditStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"


class Numbered(StrEnum):
    """What numbering an audit came to."""

    NEW = "new"  # a new audit, to be queued
    SAME = "same"  # an identical request's audit, on record
    MOVED = "moved"  # another audit took the number: try the next


class Audits:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._new = client.register_script(_NEW)

    def new(self, game_id: str, version: int, claimed: Mapping[str, int]) -> tuple[int, bool]:
        """The number of the audit of `game_id` at `version` for `claimed`, and whether it is new
        (to be queued) rather than an identical one already on record."""
        k = keys.game(game_id)
        request = canonical({"version": version, "claimed": dict(claimed)})
        same = k.audit_of(hashlib.sha256(request).hexdigest()[:32])
        record = orjson.dumps({"status": AuditStatus.QUEUED, "claimed": claimed}).decode()
        last = int(self.redis.hget(k.meta, "audits") or 0)
        for _ in range(100):
            args = {"number": last + 1, "record": record, "ttl_s": TTL_S}
            outcome, number = self._new(
                keys=[k.meta, same, k.audit(last + 1)], args=[orjson.dumps(args)]
            )
            if Numbered(outcome.decode()) != Numbered.MOVED:
                return int(number), Numbered(outcome.decode()) == Numbered.NEW
            last = int(number)
        raise RuntimeError(f"game {game_id}: could not number an audit after 100 attempts")

    def save(self, game_id: str, number: int, report: Mapping[str, Any]) -> None:
        k = keys.game(game_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.set(k.audit(number), orjson.dumps(report), ex=TTL_S)
        if report.get("status") == AuditStatus.DONE:
            pipe.rpush(k.audit_done(number), 1)
            pipe.expire(k.audit_done(number), _DONE_TOKEN_S)
        pipe.execute()

    def read(self, game_id: str, number: int, wait_s: float = 0) -> dict[str, Any] | None:
        """Audit `number` of a game, waiting up to `wait_s` for it to be done (no polling)."""
        k = keys.game(game_id)
        found = self._record(k, number)
        if wait_s > 0 and found is not None and found.get("status") != AuditStatus.DONE:
            done = k.audit_done(number)
            self.redis.blmove(done, done, wait_s, "LEFT", "RIGHT")
            found = self._record(k, number)
        return found

    def _record(self, k: keys.GameKeys, number: int) -> dict[str, Any] | None:
        raw = self.redis.get(k.audit(number))
        return orjson.loads(raw) if raw else None

    def beat(self, worker: str) -> None:
        """An auditing worker's heartbeat; while Redis is full its alive key is only kept
        alive (`store.alive`)."""
        now = time.time()
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(keys.AUDITORS, {worker: now + ALIVE_S})
        pipe.zremrangebyscore(keys.AUDITORS, "-inf", now - FORGET_S)
        pipe.execute_command(*alive.beat(keys.auditor_alive(worker)))
        *_, beaten = answers = pipe.execute(raise_on_error=False)
        if alive.refused(beaten):
            alive.hold_on(self.redis, keys.auditor_alive(worker))
        for answer in answers:
            checked(answer)

    def live_auditors(self) -> int:
        """Auditing workers beating, by their alive keys: counted right while Redis is full."""
        named = self.redis.zrange(keys.AUDITORS, 0, -1)
        return alive.counted(self.redis, [keys.auditor_alive(w.decode()) for w in named],
                             ALIVE_S)
