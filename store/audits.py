"""Audit records: an audit's progress while a worker runs it, then its report, kept for a while.

Identical requests (the same game, version and claim) while a record lives share it, so a flood
of them costs one run. A record, and the memory of which request made it, expire `TTL_S` after
their last change; reading an expired audit answers 404 like one that never was.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
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
# Requests of a process that may block on a connection at once waiting for an audit to be
# done; past them a request answers at once with the audit's progress (202), so that audit
# waits can never hold the pool's every connection.
WAITS = 16

# Number a new audit and write its record, unless an identical one (KEYS[2] names it) is on
# record: one step, so that requests at once each get the next number. The record's key is the
# number's, spelled from `records` (keys.GameKeys.audits): it cannot be declared before the number
# is, and it shares KEYS[1]'s hash tag, so it lives on the same Redis Cluster slot. ARGV[1] is
# {"record", "ttl_s", "records"}; KEYS[1] is the game's meta, whose `audits` is the last number.
_NEW = """
local a = cjson.decode(ARGV[1])
local same = redis.call('GET', KEYS[2])
if same then return {'same', same} end
local number = redis.call('HINCRBY', KEYS[1], 'audits', 1)
redis.call('SET', a.records .. number, a.record, 'EX', a.ttl_s)
redis.call('SET', KEYS[2], number, 'EX', a.ttl_s)
return {'new', tostring(number)}
"""

# Take a place among the audits that may wait for an auditor: KEYS[1] is RQ's audit queue (a
# list of the ids of the jobs waiting), KEYS[2] the places taken by webs about to queue one (a
# sorted set, scored by when each lapses). Lapsed places are let go first. ARGV[1] is
# {"place", "now", "until", "most"}.
_TAKE_PLACE = """
local a = cjson.decode(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', a.now)
if redis.call('LLEN', KEYS[1]) + redis.call('ZCARD', KEYS[2]) >= a.most then return 0 end
redis.call('ZADD', KEYS[2], a['until'], a.place)
return 1
"""
# How long a place is held for a web that took it and then died before queuing its audit.
PLACE_S = 10


class AuditStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"


class Numbered(StrEnum):
    """What numbering an audit came to."""

    NEW = "new"  # a new audit, to be queued
    SAME = "same"  # an identical request's audit, on record


class Audits:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._new = client.register_script(_NEW)
        self._waits = threading.BoundedSemaphore(WAITS)

    def new(self, game_id: str, version: int, claimed: Mapping[str, int]) -> tuple[int, bool]:
        """The number of the audit of `game_id` at `version` for `claimed`, and whether it is new
        (to be queued) rather than an identical one already on record."""
        k = keys.game(game_id)
        request = canonical({"version": version, "claimed": dict(claimed)})
        same = k.audit_of(hashlib.sha256(request).hexdigest()[:32])
        record = orjson.dumps({"status": AuditStatus.QUEUED, "claimed": claimed}).decode()
        args = {"record": record, "ttl_s": TTL_S, "records": k.audits}
        outcome, number = self._new(keys=[k.meta, same], args=[orjson.dumps(args)])
        return int(number), Numbered(outcome.decode()) == Numbered.NEW

    def save(self, game_id: str, number: int, report: Mapping[str, Any]) -> None:
        k = keys.game(game_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.set(k.audit(number), orjson.dumps(report), ex=TTL_S)
        if report.get("status") == AuditStatus.DONE:
            pipe.rpush(k.audit_done(number), 1)
            pipe.expire(k.audit_done(number), _DONE_TOKEN_S)
        pipe.execute()

    def read(self, game_id: str, number: int, wait_s: float = 0) -> dict[str, Any] | None:
        """Audit `number` of a game, waiting up to `wait_s` for it to be done (no polling)
        while fewer than `WAITS` requests of the process wait for one."""
        k = keys.game(game_id)
        found = self._record(k, number)
        if wait_s > 0 and found is not None and found.get("status") != AuditStatus.DONE:
            if not self._waits.acquire(blocking=False):
                return found
            try:
                done = k.audit_done(number)
                self.redis.blmove(done, done, wait_s, "LEFT", "RIGHT")
            finally:
                self._waits.release()
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


class Places:
    """The cap on audits waiting for an auditor, exact whatever asks at once.

    The audits waiting are RQ's queue (its length, as RQ counts it), plus the places webs took
    to queue one and have not yet given back: a web takes a place, checking the count, in one
    step (`take`), queues its audit (or finds an identical one on record, and queues nothing),
    then gives the place back (`give_back`). So the count never passes the cap, however many
    ask at once; for the instant between queuing and giving back an audit counts twice, which
    refuses early, never late. Nothing needs an auditor's help to keep it right: taking a job
    off the queue shortens it at once, and a place a web never gave back (it died in between)
    lapses after `PLACE_S`. An audit RQ queues again (its auditor died) is not counted anew:
    it was let in once, so the queue can hold a few more than the cap until it is run.

    They live on the Redis of the queues (`queues`), which may not be the game store's.
    """

    def __init__(self, queues: redis.Redis):
        self.redis = queues
        self._take = queues.register_script(_TAKE_PLACE)

    def take(self, queue: str, most: int) -> str | None:
        """A place among the `most` audits that may wait in the RQ queue whose list is `queue`,
        or None when they are all taken."""
        place = secrets.token_hex(8)
        now = time.time()
        args = {"place": place, "now": now, "until": now + PLACE_S, "most": most}
        taken = self._take(keys=[queue, keys.QUEUING_AUDITS], args=[orjson.dumps(args)])
        return place if taken else None

    def give_back(self, place: str) -> None:
        self.redis.zrem(keys.QUEUING_AUDITS, place)
