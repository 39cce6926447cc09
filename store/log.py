"""A game's log: chaining and appending entries atomically, and reading them back.

Every write that must not half-happen goes through one Lua script, `_APPEND`: it checks the
expected version, the idempotency key, that the game is not over (nothing follows its
`game-finished` entry) and that no verdict is written twice, then appends the entries and
updates meta, verdict index and projections together.

A submission's stream entry carries, beside the entry itself (field `e`), a nonce of its append
(field `n`, read by nothing else): an append sent again after its answer was lost (redis-py's
cluster client does so when a connection drops) finds its nonce where it meant to write, and is
answered as written instead of appending the move twice. Two clients posting the same move at
the same millisecond make identical entries, so the entry alone could not tell. It may also
carry the id of the request that posted it (field `r`, `X-Request-Id`), off the chain: no
hash covers it and no read of the log returns it; the worker judging the move names it in its
verdict's log line (`store.locks.Judging.requests`).
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, NamedTuple

import orjson
import redis

from engine.log import ACCEPTED, REJECTED, chain
from store import keys
from store.batch import Answer, Batch, NothingSent
from store.compacted import Compacted
from store.connection import UNREACHABLE
from store.counts import Count
from store.projections import Projection
from store.stored import (
    ENTRY,
    NONCE,
    REQUEST,
    WORK_GAME,
    WORK_SEQ,
    ProjField,
    Status,
    entries_of,
    entry_bytes,
    entry_from,
)

# ARGV[1] is one JSON object: `based_on` and `based_on_hash` (the version and last hash the
# entries were chained onto),
# `entries` (how many), `hash` (the last one's), `verdicts` ([submission seq, verdict seq]
# pairs), and when they apply `expected_version`, `idempotency` ({key, body_hash}),
# `submitted` (a submission's seq), `nonce` (stored beside a submission's first entry, and
# `request`, its request's id, beside it) and `counts` (the rate limits' counts the request
# takes, each {window, most, hit}, whose keys are KEYS[8..]: they are taken first, whatever the
# append comes to), `keyed` (how many seats had registered a key when the writer last read the game:
# should a seat have registered one since, the append is refused, as a submission's signature
# was checked against keys no longer all of them) and `meta` (fields of the meta hash a
# registration sets with its entry, which changes no state: projections describing the log
# before it are moved on to it). The entries follow, each its canonical JSON as stored,
# then the proj hash's fields and values: passed as they are, not as strings inside that
# object, they are neither escaped nor decoded again (a late game's state is kilobytes). With
# `nudge` set, a refusal adds an entry to the stream KEYS[6], which only a wait sent with the
# append reads (`Log.queue_verdict_after`): it ends at once instead of watching a log the
# append did not write to. With `work` (the game's id: a submission posted to it), the
# submission is added to its partition's work stream KEYS[7] with the entry, in this same
# script, so that no submission is ever written without the work item that gets it judged
# (`store.scheduler`); with `done` (work items' stream ids: the submissions these verdicts
# judge), those items are acknowledged and deleted in this same script, only if the verdicts
# are written. The proj hash's status is named by its owner, store.projections.
_APPEND = (f"local STATUS, FINISHED, ABANDONED = '{ProjField.STATUS}', '{Status.FINISHED}',"
           f" '{Status.ABANDONED}'\nlocal PROJ_VERSION = '{ProjField.VERSION}'\n"
           f"local ENTRY, NONCE, REQUEST = '{ENTRY}', '{NONCE}', '{REQUEST}'\n"
           f"local JUDGES, WORK_GAME, WORK_SEQ = '{keys.JUDGES}', '{WORK_GAME}', '{WORK_SEQ}'\n"
           ) + """
local log, meta, idem, index, proj, nudge = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local work = KEYS[7]
local a = cjson.decode(ARGV[1])
local fields_from = a.entries + 2

local function counted()
  local refused = false
  for i, count in ipairs(a.counts or {}) do
    local key, taken = KEYS[7 + i], 0
    if count.hit then
      taken = redis.call('INCR', key)
      redis.call('EXPIRE', key, count.window, 'NX')
    else
      taken = tonumber(redis.call('GET', key) or '0')
    end
    local allowed = taken < count.most or (count.hit and taken == count.most)
    if not allowed and not refused then refused = i end
  end
  return refused
end

local function append()
  local refused = counted()
  if refused then return {'limited', tostring(refused - 1)} end
  local head = redis.call('HMGET', meta, 'version', 'hash')
  local version = tonumber(head[1])
  if not version then return {'missing', '0'} end
  if a.keyed and tonumber(redis.call('HGET', meta, 'keyed') or '0') ~= a.keyed then
    return {'rekeyed', tostring(version)}
  end
  -- The hash too: a web process remembers heads (service/auth.py), and a failover
  -- that lost entries may give their seqs to others.
  local moved = a.based_on ~= version or a.based_on_hash ~= head[2]
  if a.idempotency then
    local seen = redis.call('HGET', idem, a.idempotency.key)
    if seen then return {'idempotent', seen} end
  end
  if a.nonce and moved then
    -- Sent again after its answer was lost: it was written, and is answered as written.
    local first = (a.based_on + 1) .. '-0'
    local there = redis.call('XRANGE', log, first, first)
    -- Its fields: ENTRY, the entry, NONCE, the nonce.
    if #there == 1 and there[1][2][4] == a.nonce then
      return {'ok', tostring(a.based_on + a.entries)}
    end
  end
  -- Nothing follows the entry that ended a game: not a submission, not a verdict, not a key.
  local status = redis.call('HGET', proj, STATUS)
  if status == FINISHED or status == ABANDONED then
    return {'finished', tostring(version)}
  end
  if a.expected_version and a.expected_version ~= version then
    return {'conflict', tostring(version)}
  end
  if moved then return {'moved', tostring(version), head[2]} end
  for _, pair in ipairs(a.verdicts) do
    if redis.call('HEXISTS', index, pair[1]) == 1 then return {'judged', tostring(pair[1])} end
  end
  for k = 1, a.entries do
    if k == 1 and a.nonce and a.request then
      redis.call('XADD', log, (version + k) .. '-0', ENTRY, ARGV[k + 1], NONCE, a.nonce,
                 REQUEST, a.request)
    elseif k == 1 and a.nonce then
      redis.call('XADD', log, (version + k) .. '-0', ENTRY, ARGV[k + 1], NONCE, a.nonce)
    else
      redis.call('XADD', log, (version + k) .. '-0', ENTRY, ARGV[k + 1])
    end
  end
  for _, pair in ipairs(a.verdicts) do redis.call('HSET', index, pair[1], pair[2]) end
  if #ARGV >= fields_from then redis.call('HSET', proj, unpack(ARGV, fields_from)) end
  local now = version + a.entries
  redis.call('HSET', meta, 'version', now, 'hash', a.hash)
  if a.meta then
    for field, value in pairs(a.meta) do redis.call('HSET', meta, field, value) end
    -- An entry that changes no state: projections that described the log before it still do.
    if redis.call('HGET', proj, PROJ_VERSION) == tostring(version) then
      redis.call('HSET', proj, PROJ_VERSION, now)
    end
  end
  if a.submitted then redis.call('HSET', meta, 'submitted', a.submitted) end
  if a.done then
    redis.call('XACK', work, JUDGES, unpack(a.done))
    redis.call('XDEL', work, unpack(a.done))
  end
  if a.work and a.request then
    redis.call('XADD', work, '*', WORK_GAME, a.work, WORK_SEQ, version + 1, ENTRY, ARGV[2],
               REQUEST, a.request)
  elseif a.work then
    redis.call('XADD', work, '*', WORK_GAME, a.work, WORK_SEQ, version + 1, ENTRY, ARGV[2])
  end
  if a.idempotency then
    redis.call('HSET', idem, a.idempotency.key, a.idempotency.body_hash .. ' ' .. (version + 1))
  end
  return {'ok', tostring(now)}
end

local answer = append()
if answer[1] ~= 'ok' and a.nudge then
  redis.call('XADD', nudge, '*', 'refused', answer[1])
  redis.call('PEXPIRE', nudge, 1000)
end
return answer
"""

# ARGV[1]: {"seq": a submission's seq}. It answers the verdict's entry, its first field's value.
_VERDICT = """
local verdict = redis.call('HGET', KEYS[2], cjson.decode(ARGV[1]).seq)
if not verdict then return false end
local found = redis.call('XRANGE', KEYS[1], verdict .. '-0', verdict .. '-0')
if #found == 0 then return false end
return found[1][2][2]
"""


_VERDICTS = (ACCEPTED, REJECTED)


def now() -> str:
    """ISO 8601 in UTC with a Z, to the millisecond, as `datetime.now(UTC)` would give it.

    Every entry is stamped, and formatting a datetime took a few percent of a verdict's CPU in
    the web and in the worker: the part up to the second is formatted once a second."""
    global _second
    fraction, whole = math.modf(time.time())
    micros = round(fraction * 1e6)  # as datetime rounds a timestamp
    if micros >= 1_000_000:
        whole, micros = whole + 1, micros - 1_000_000
    second = _second
    if second[0] != whole:
        second = _second = (whole, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)))
    return f"{second[1]}.{micros // 1000:03d}Z"


# The second `now` formatted last, and its text: one tuple, so that threads read a pair.
_second: tuple[float, str] = (-1.0, "")


# What a wait for a verdict saw: the last seq, and the verdict if it was among the entries.
VerdictRead = tuple[int, dict[str, Any] | None]


def verdict_read(found: Any, seq: int, after: int) -> VerdictRead:
    """What an XREAD of a log past `after` found: the last seq seen, and the verdict on
    submission `seq` if it is among the entries."""
    entries = next((e for stream, e in found or () if stream.endswith(b":log")), None)
    if not entries:
        return after, None
    read = entries_of(entries)
    return read[-1]["seq"], verdict_on(read, seq)


def verdict_on(entries: Iterable[dict[str, Any]], seq: int) -> dict[str, Any] | None:
    """The verdict on submission `seq` among `entries`, if it is there."""
    return next((e for e in entries if e.get("of") == seq and e["type"] in _VERDICTS), None)


# Tries of an append whose log other writers keep moving, before giving up.
TRIES = 100


class OutcomeUnknown(Exception):
    """An append was sent but its answer was lost (the connection dropped, Redis went away):
    the entries may or may not be in the log, the first at `seq` if they are."""

    def __init__(self, game_id: str, seq: int):
        super().__init__(f"game {game_id}: the append of entry {seq} may or may not be written")
        self.game_id, self.seq = game_id, seq


class AppendResult(StrEnum):
    """What an append came to."""

    OK = "ok"
    IDEMPOTENT = "idempotent"  # the key was used before: its first submission is the answer
    CONFLICT = "conflict"  # the log is not at the expected version
    JUDGED = "judged"  # a verdict was already written for one of the submissions
    MISSING = "missing"  # no such game
    MOVED = "moved"  # another writer appended first: chain again
    FINISHED = "finished"  # the game is over: nothing follows its `game-finished` entry
    LIMITED = "limited"  # a rate limit's count it took is past its rate
    REKEYED = "rekeyed"  # a seat registered a key since the writer read the game


@dataclass(frozen=True)
class Appended:
    outcome: AppendResult
    seq: int = 0
    version: int = 0
    body_hash: str = ""
    hash: str = ""  # MOVED: the log's last hash, beside its version
    refused: int = 0  # LIMITED: the index of the first count past its rate

    @property
    def head(self) -> tuple[int, str]:
        """MOVED: the head to chain onto instead."""
        return self.version, self.hash


@dataclass(frozen=True)
class Writing:
    """What an append writes, before it is chained onto a head."""

    game_id: str
    bodies: tuple[dict[str, Any], ...]
    verdicts: tuple[tuple[int, int], ...] = ()
    projection: Projection | None = None
    submission: bool = False
    expected_version: int | None = None
    idempotency: tuple[str, str] | None = None
    counts: tuple[Count, ...] = ()  # the rate limits' counts the request takes with it
    keyed: int | None = None  # the seat keys the writer knew of (None: not checked)
    meta: tuple[tuple[str, str], ...] = ()  # meta fields set with the entries
    request: str | None = None  # a submission's request id, kept beside it off the chain
    done: tuple[bytes, ...] = ()  # verdicts: the work items they judge, acknowledged with them

    def again(self) -> Writing:
        """The same entries sent again after a refusal: its counts were taken already."""
        return replace(self, counts=())

    def chained(self, version: int, last_hash: str, nudge: bool = False) -> Chained:
        """The script's keys and argument, the entries chained onto version `version`; with
        `nudge`, a refusal ends the wait sent with the append (`Chained.nudge`)."""
        stamped = [
            # A turn played for a conceded seat was judged at its own time: it keeps it.
            {**body, "seq": version + i, "at": body["at"] if "at" in body else now()}
            for i, body in enumerate(self.bodies, 1)
        ]
        entries = chain(last_hash, stamped)
        args: dict[str, Any] = {
            "based_on": version,
            "based_on_hash": last_hash,
            "entries": len(entries),
            "hash": entries[-1]["hash"],
            "verdicts": [[of, version + 1 + index] for of, index in self.verdicts],
        }
        fields = {} if self.projection is None else self.projection.fields(
            version=version + len(entries))
        nonce = _nonce()
        if self.submission:
            args["submitted"] = version + 1
            args["nonce"] = nonce
            args["work"] = self.game_id
            if self.request:
                args["request"] = self.request
        if self.expected_version is not None:
            args["expected_version"] = self.expected_version
        if self.idempotency:
            args["idempotency"] = {"key": self.idempotency[0], "body_hash": self.idempotency[1]}
        if self.counts:
            args["counts"] = [
                {"window": c.window_s, "most": c.most, "hit": c.hit} for c in self.counts]
        if self.keyed is not None:
            args["keyed"] = self.keyed
        if self.meta:
            args["meta"] = dict(self.meta)
        if self.done:
            args["done"] = [item_id.decode() for item_id in self.done]
        if nudge:
            args["nudge"] = True
        k = keys.game(self.game_id)
        nudged = k.nudge(nonce)
        return Chained(version, [k.log, k.meta, k.idem, k.verdict, k.proj, nudged,
                                 keys.WORK[keys.partition(self.game_id)],
                                 *(c.key for c in self.counts)], [
            orjson.dumps(args),
            *(entry_bytes(e) for e in entries),
            *itertools.chain.from_iterable(fields.items()),
        ], args["hash"], len(entries), self.request)


def _nonce() -> str:
    """Unique among every process's appends: a random prefix drawn once a process, and a
    count (drawing 8 random bytes each time was a system call, 1.5% of the web's CPU a move)."""
    return f"{_prefix}{next(_appends):x}"


def _draw_prefix() -> None:
    global _prefix
    _prefix = secrets.token_hex(6)


_appends = itertools.count()
_prefix = ""
_draw_prefix()
# gunicorn forks its workers from one process: each draws its own.
os.register_at_fork(after_in_child=_draw_prefix)


@dataclass(frozen=True)
class Chained:
    version: int  # the version the entries were chained onto
    keys: list[str]
    args: list[bytes | str]
    hash: str  # the last entry's
    entries: int
    request: str | None = None  # the id of the request posting it, when a submission

    @property
    def head(self) -> tuple[int, str]:
        """The log's version and last hash once these entries are appended."""
        return self.version + self.entries, self.hash

    @property
    def first(self) -> bytes:
        """The first entry, as appended: its canonical JSON."""
        return self.args[1]  # type: ignore[return-value]

    @property
    def nudge(self) -> str:
        """The stream a refusal of this append adds to (`_APPEND`)."""
        return self.keys[5]

    def outcome(self, answer: list[bytes]) -> Appended:
        outcome, value = AppendResult(answer[0].decode()), answer[1].decode()
        if outcome == AppendResult.OK:
            return Appended(outcome, seq=self.version + 1, version=int(value))
        if outcome == AppendResult.IDEMPOTENT:
            first_hash, seq = value.split(" ")
            return Appended(outcome, seq=int(seq), body_hash=first_hash)
        if outcome == AppendResult.MOVED:
            return Appended(outcome, version=int(value), hash=answer[2].decode())
        if outcome == AppendResult.LIMITED:
            return Appended(outcome, refused=int(value))
        return Appended(outcome, version=int(value))


@dataclass(frozen=True)
class Submitted:
    """What posting a submission came to."""

    appended: Appended
    # What waiting for its verdict in the same round trip saw; None without such a wait.
    looked: VerdictRead | None = None
    hash: str = ""  # the submission's hash, as chained (when OK, its entry's)


class Log:
    """A game's events, one contract for a live game and a compacted one alike: append
    (`write`; `submit`, a player's move with the wait for its verdict; `queue_append`), read a
    range (`entries`, and `verdict`) and read the head (`head`). A compacted game's range is
    read from its record, its head from the meta hash it keeps, and an append to it is refused
    as to any ended game (`AppendResult.FINISHED`)."""

    def __init__(self, client: redis.Redis, compacted: Compacted):
        self.redis = client
        self.compacted = compacted
        self._append = client.register_script(_APPEND)
        self._verdict = client.register_script(_VERDICT)

    def entries(
        self, game_id: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[dict[str, Any]]:
        """Entries `after` < seq <= `upto`, at most `limit`, from the live log or, once the game
        is compacted, its record. A compacted game is looked for only when the log has none of
        them: compaction removes the log in the step that writes the record."""
        if (record := self.compacted.cached(game_id)) is not None:
            return record.read(after, upto, limit)
        found = self.redis.xrange(
            keys.game(game_id).log,
            min=f"{after + 1}-0",
            max="+" if upto is None else f"{upto}-0",
            count=limit,
        )
        if not found and (record := self.compacted.read(game_id)) is not None:
            return record.read(after, upto, limit)
        return entries_of(found)

    def queue_verdict_after(self, batch: Batch, chained: Chained, seq: int, timeout_ms: int
                            ) -> Answer[VerdictRead]:
        """A wait for the entries past submission `seq`, the verdict on it among them, queued in
        a batch after the append `chained` (sent with `nudge`), which ends it at once should it
        refuse."""
        streams = {chained.keys[0]: f"{seq}-0", chained.nudge: "0-0"}
        return batch.add("XREAD", "BLOCK", timeout_ms, "STREAMS", *streams, *streams.values(),
                         read=functools.partial(verdict_read, seq=seq, after=seq))

    def write(self, writing: Writing, based_on: tuple[int, str] | None = None) -> Appended:
        """`writing` appended, chained again onto the head a refusal names while another
        writer moves the log first."""
        if based_on is None:
            based_on = self.head(writing.game_id)
            if based_on is None:
                return Appended(AppendResult.MISSING)
        for _ in range(TRIES):
            chained = writing.chained(*based_on)
            appended = chained.outcome(self._append(keys=chained.keys, args=chained.args))
            if appended.outcome != AppendResult.MOVED:
                return appended
            based_on, writing = appended.head, writing.again()
        raise RuntimeError(f"game {writing.game_id}: could not append after {TRIES} tries")

    def submit(self, writing: Writing, based_on: tuple[int, str], look_ms: int = 0) -> Submitted:
        """Append a submission chained onto `based_on`, its work item with it (`_APPEND`),
        and with `look_ms`, wait in that same round trip up to that long for its verdict
        (`Log.queue_verdict_after`), a wait the append ends at once should it refuse.

        When another writer came first (`based_on` was stale) the submission is chained onto
        the head the refusal names and sent again, wait included. Its rate limits' counts are
        taken by the first try alone.
        """
        sent = self._send(writing, based_on, look_ms)
        tries = 1
        while sent.appended.outcome == AppendResult.MOVED:
            if tries == TRIES:
                raise RuntimeError(f"game {writing.game_id}: could not append after {TRIES} tries")
            writing = writing.again()
            sent = self._send(writing, sent.appended.head, look_ms)
            tries += 1
        return Submitted(sent.appended, sent.looked, hash=sent.chained.hash)

    def _send(self, writing: Writing, based_on: tuple[int, str], look_ms: int) -> _Sent:
        """One try of a submission, in one round trip: its append chained onto `based_on`, and
        (`look_ms`) the wait for its verdict."""
        chained = writing.chained(*based_on, nudge=bool(look_ms))
        seq = chained.version + 1
        batch = Batch(self.redis)
        appending = self.queue_append(batch, chained)
        looking = (self.queue_verdict_after(batch, chained, seq, look_ms)
                   if look_ms else None)
        try:
            batch.run()
        except NothingSent:
            raise
        except UNREACHABLE as lost:
            raise OutcomeUnknown(writing.game_id, seq) from lost
        return _Sent(chained, appending, looking)

    def queue_append(self, batch: Batch, chained: Chained) -> Answer[Appended]:
        """Queue an append in a batch; one that finds the log moved is for `write` to try
        again."""
        return batch.script(self._append, chained.keys, chained.args, read=chained.outcome)

    def head(self, game_id: str) -> tuple[int, str] | None:
        """The log's version and its last entry's hash."""
        version, last_hash = self.redis.hmget(keys.game(game_id).meta, "version", "hash")
        return None if version is None else (int(version), last_hash.decode())

    def verdict(self, game_id: str, seq: int) -> dict[str, Any] | None:
        """The verdict entry on submission `seq`, in one round trip, or None while pending."""
        if (record := self.compacted.cached(game_id)) is None:
            k = keys.game(game_id)
            found = self._verdict(keys=[k.log, k.verdict], args=[orjson.dumps({"seq": seq})])
            if found:
                return entry_from(found)
            record = self.compacted.read(game_id)
        return None if record is None else verdict_on(record.past(seq), seq)

    def queue_submitted(self, batch: Batch, game_id: str) -> Answer[int]:
        """Queue reading the last submission's seq (0 before any)."""
        meta = keys.game(game_id).meta
        return batch.add("HGET", meta, "submitted", read=_seq)

    def progress(self, game_id: str) -> tuple[int, int]:
        """The last submission's seq and the last judged one's, read together."""
        k = keys.game(game_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hget(k.meta, "submitted")
        pipe.hget(k.proj, ProjField.JUDGED)
        submitted, judged = pipe.execute()
        return int(submitted or 0), int(judged or 0)


class _Sent(NamedTuple):
    """One try of a submission: its append's answer, and its wait's if one was sent."""

    chained: Chained
    appending: Answer[Appended]
    looking: Answer[VerdictRead] | None

    @property
    def appended(self) -> Appended:
        """Refused (a full Redis refuses its first write): nothing of it was written."""
        return self.appending.value

    @property
    def looked(self) -> VerdictRead | None:
        """What its wait saw; None without a wait, or for an append that did not write."""
        if self.looking is None or self.appended.outcome != AppendResult.OK:
            return None
        return self.looking.value


def _seq(answer: bytes | None) -> int:
    return int(answer or 0)
