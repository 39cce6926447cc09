"""The one module that knows how games live in Redis: the log stream and its projections.

Every key of a game shares the hash tag `{id}`, so a game can later live on one Redis Cluster
shard. Per game:
- `tl:{id}:log`     stream; entry `seq` has the stream id `seq-0` and one field `e`, the
                    entry's canonical JSON with its `hash` (CONTRACT.md section 5);
- `tl:{id}:meta`    hash: game, players, options, created_at, seed_commitment, version (last
                    seq), hash (last entry's hash), submitted (last submission's seq);
- `tl:{id}:secret`  hash: seed and explicit decks, read only by workers and replays;
- `tl:{id}:auth`    hash: sha256(token) -> "table" or a seat number;
- `tl:{id}:idem`    hash: idempotency key -> "<body hash> <seq>";
- `tl:{id}:verdict` hash: submission seq -> seq of its verdict entry;
- `tl:{id}:proj`    hash: the projections a worker keeps: judged (last submission judged),
                    at (log version they describe), status, to_act, round, state (engine state),
                    score, and `view:<viewer>` per seat, spectator and table;
- `tl:{id}:audit:<n>` the report of audit n.
Global keys: `tl:games` (sorted set of ids by creation) and the scheduler's, which one script
may touch together and so share the hash tag `{sched}`: `tl:{sched}:dirty` (sorted set of games
with submissions to judge, oldest first), `tl:{sched}:claimed` (games a drain job is judging,
scored by the time its claim lapses), `tl:{sched}:drain:<slot>` (a drain job is queued or
running in that slot) and `tl:{sched}:bell` (rung when a game is marked, for a waiting drain).
No script or transaction spans two hash tags.

Every write that must not half-happen goes through one Lua script, `_APPEND`: it checks the
expected version, the idempotency key and that no verdict is written twice, then appends the
entries and updates meta, verdict index and projections together.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
import redis

from engine import log

GAMES = "tl:games"
DIRTY = "tl:{sched}:dirty"
CLAIMED = "tl:{sched}:claimed"
DRAINING = "tl:{{sched}}:drain:{}"
BELL = "tl:{sched}:bell"
DRAINERS = 2

# Mark a game dirty and ring the bell (KEYS[2]) for a drain waiting for work; one token is
# enough to wake a waiter, so the bell never holds more. With no game id (ARGV[2] empty) it
# only opens a slot for the games already waiting.
_MARK_DIRTY = """
if ARGV[2] ~= '' then
  redis.call('ZADD', KEYS[1], 'NX', ARGV[1], ARGV[2])
  redis.call('LPUSH', KEYS[2], 1)
  redis.call('LTRIM', KEYS[2], 0, 0)
end
local backlog = redis.call('ZCARD', KEYS[1])
for slot = 0, #KEYS - 3 do
  if slot < backlog and redis.call('SET', KEYS[slot + 3], 1, 'NX', 'EX', ARGV[3]) then
    return slot
  end
end
return -1
"""

# Take the oldest dirty game and claim it until ARGV[1]; keep the drain slot's flag (KEYS[3])
# alive while its job works, so a flag outlives its job by at most one TTL.
_CLAIM = """
redis.call('EXPIRE', KEYS[3], ARGV[2])
local found = redis.call('ZPOPMIN', KEYS[1])
if #found == 0 then return false end
redis.call('ZADD', KEYS[2], ARGV[1], found[1])
return found[1]
"""

# Claims that lapsed (their job died between claiming a game and judging it) go back to dirty.
_RECLAIM = """
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
for _, game in ipairs(lapsed) do
  redis.call('ZREM', KEYS[2], game)
  redis.call('ZADD', KEYS[1], 'NX', ARGV[1], game)
end
return #lapsed
"""

_APPEND = """
local log, meta, idem, index, proj = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local based_on, expected, idem_key = ARGV[1], ARGV[2], ARGV[3]
local version = tonumber(redis.call('HGET', meta, 'version'))
if not version then return {'missing', '0'} end
if idem_key ~= '' then
  local seen = redis.call('HGET', idem, idem_key)
  if seen then return {'idempotent', seen} end
end
if expected ~= '' and tonumber(expected) ~= version then return {'conflict', tostring(version)} end
if tonumber(based_on) ~= version then return {'moved', tostring(version)} end
local n = tonumber(ARGV[7])
local m = tonumber(ARGV[8 + n])
local first_pair = 9 + n
for k = 0, m - 1 do
  if redis.call('HEXISTS', index, ARGV[first_pair + 2 * k]) == 1 then
    return {'judged', ARGV[first_pair + 2 * k]}
  end
end
for k = 1, n do
  redis.call('XADD', log, (version + k) .. '-0', 'e', ARGV[7 + k])
end
for k = 0, m - 1 do
  redis.call('HSET', index, ARGV[first_pair + 2 * k], ARGV[first_pair + 2 * k + 1])
end
local p = first_pair + 2 * m
for k = p, #ARGV, 2 do redis.call('HSET', proj, ARGV[k], ARGV[k + 1]) end
if #ARGV >= p then redis.call('HSET', proj, 'at', version + n) end
redis.call('HSET', meta, 'version', version + n, 'hash', ARGV[5])
if ARGV[6] ~= '' then redis.call('HSET', meta, 'submitted', ARGV[6]) end
if idem_key ~= '' then redis.call('HSET', idem, idem_key, ARGV[4] .. ' ' .. (version + 1)) end
return {'ok', tostring(version + n)}
"""

_VERDICT = """
local at = redis.call('HGET', KEYS[2], ARGV[1])
if not at then return false end
local found = redis.call('XRANGE', KEYS[1], at .. '-0', at .. '-0')
if #found == 0 then return false end
return found[1][2][2]
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def now() -> str:
    """ISO 8601 in UTC with a Z, to the millisecond."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def dumps(value: Any) -> bytes:
    return orjson.dumps(value)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def keys(game_id: str) -> dict[str, str]:
    tag = f"tl:{{{game_id}}}"
    return {
        name: f"{tag}:{name}"
        for name in ("log", "meta", "secret", "auth", "idem", "verdict", "proj", "lock")
    }


_LOCK_MS = 30_000
_DRAIN_FLAG_S = 10
_CLAIM_S = 30


@dataclass(frozen=True)
class Judging:
    """What a worker reads, under the game's lock, before judging its pending submissions."""

    lock: str
    meta: dict[str, Any]
    judged: int
    finished: bool
    seed: str
    decks: list[list[str]]


@dataclass(frozen=True)
class Appended:
    """What an append came to: `ok`, `idempotent` (an earlier answer), `conflict`, `judged`."""

    outcome: str
    seq: int = 0
    version: int = 0
    body_hash: str = ""


class Store:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._append = client.register_script(_APPEND)
        self._release = client.register_script(_RELEASE)
        self._verdict = client.register_script(_VERDICT)
        self._mark_dirty = client.register_script(_MARK_DIRTY)
        self._claim = client.register_script(_CLAIM)
        self._reclaim = client.register_script(_RECLAIM)

    # -- creating and reading games ------------------------------------------------------

    def create(
        self,
        game_id: str,
        created: dict[str, Any],
        secret: Mapping[str, Any],
        tokens: Mapping[str, str],
        projection: Mapping[str, Any],
    ) -> dict[str, Any]:
        """Write a new game whose log is the single `game-created` entry, and its projections."""
        entry = log.chain(log.GENESIS, [{**created, "seq": 1}])[0]
        k = keys(game_id)
        meta = {
            "game": created["game"],
            "players": dumps(created["players"]),
            "options": dumps(created["options"]),
            "created_at": created["at"],
            "seed_commitment": created["seed_commitment"],
            "version": 1,
            "hash": entry["hash"],
            "submitted": 0,
        }
        # Listed first: a listing skips an id whose game is not there (yet, or ever).
        self.redis.zadd(GAMES, {game_id: time.time()})
        pipe = self.redis.pipeline(transaction=True)
        pipe.xadd(k["log"], {"e": dumps(entry)}, id="1-0")
        pipe.hset(k["meta"], mapping=meta)
        pipe.hset(k["secret"], mapping={"seed": secret["seed"], "decks": dumps(secret["decks"])})
        pipe.hset(k["auth"], mapping={token_digest(t): role for t, role in tokens.items()})
        pipe.hset(k["proj"], mapping={**projection, "at": 1})
        pipe.execute()
        return entry

    def meta(self, game_id: str) -> dict[str, Any] | None:
        return self.context(game_id, None)[0]

    def context(
        self, game_id: str, token: str | None
    ) -> tuple[dict[str, Any] | None, str | None, bool]:
        """In one round trip: a game's meta, the role of `token` in it, and whether it is over."""
        k = keys(game_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(k["meta"])
        pipe.hget(k["auth"], token_digest(token) if token else "-")
        pipe.hget(k["proj"], "status")
        raw, role, status = pipe.execute()
        if not raw:
            return None, None, False
        meta = self._decode_meta(raw)
        for field in ("version", "submitted"):
            meta[field] = int(meta[field])
        return meta, role.decode() if role else None, status == b"finished"

    def secret(self, game_id: str) -> tuple[str, list[list[str]]]:
        seed, decks = self.redis.hmget(keys(game_id)["secret"], "seed", "decks")
        return seed.decode(), orjson.loads(decks)

    def game_ids(
        self, start: float | None, limit: int, newest: bool = False
    ) -> list[tuple[str, float]]:
        """Games created at or after `start` (seconds), oldest first; or, `newest` first, at or
        before it."""
        if newest:
            top = "+inf" if start is None else start
            found = self.redis.zrevrangebyscore(GAMES, top, "-inf", 0, limit, withscores=True)
        else:
            bottom = "-inf" if start is None else start
            found = self.redis.zrangebyscore(GAMES, bottom, "+inf", 0, limit, withscores=True)
        return [(g.decode(), score) for g, score in found]

    def metas(self, game_ids: Sequence[str]) -> list[dict[str, Any] | None]:
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.hgetall(keys(game_id)["meta"])
            pipe.hmget(keys(game_id)["proj"], "status")
        raw = pipe.execute()
        out = []
        for found, (status,) in zip(raw[::2], raw[1::2], strict=True):
            meta = self._decode_meta(found) if found else None
            if meta is not None:
                meta["status"] = status.decode() if status else "in-progress"
            out.append(meta)
        return out

    def _decode_meta(self, raw: dict[bytes, bytes]) -> dict[str, Any]:
        meta = {k.decode(): v.decode() for k, v in raw.items()}
        meta["players"] = orjson.loads(meta["players"])
        meta["options"] = orjson.loads(meta["options"])
        return meta

    # -- the log ---------------------------------------------------------------------------

    def entries(
        self, game_id: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[dict[str, Any]]:
        found = self.redis.xrange(
            keys(game_id)["log"],
            min=f"{after + 1}-0",
            max="+" if upto is None else f"{upto}-0",
            count=limit,
        )
        return [orjson.loads(fields[b"e"]) for _, fields in found]

    def raw_entries(self, game_id: str, after: int = 0, limit: int | None = None) -> list[bytes]:
        """Entries as stored, for streaming without re-encoding."""
        found = self.redis.xrange(keys(game_id)["log"], min=f"{after + 1}-0", count=limit)
        return [fields[b"e"] for _, fields in found]

    def wait_for_entries(self, game_id: str, after: int, timeout_ms: int) -> int:
        """Block until the log holds entries after `after` or the time is up (no polling);
        the last seq seen."""
        found = self.redis.xread({keys(game_id)["log"]: f"{after}-0"}, block=timeout_ms)
        if not found:
            return after
        return int(found[0][1][-1][0].split(b"-")[0])

    def append(
        self,
        game_id: str,
        bodies: Sequence[dict[str, Any]],
        *,
        expected_version: int | None = None,
        idempotency: tuple[str, str] | None = None,
        verdicts: Iterable[tuple[int, int]] = (),
        projection: Mapping[str, Any] | None = None,
        submission: bool = False,
        based_on: tuple[int, str] | None = None,
    ) -> Appended:
        """Chain `bodies` onto the log atomically, retrying when another writer got there first.

        `bodies` are entries without seq, at or hash; `verdicts` pairs each judged submission
        with the index (0-based) in `bodies` of its verdict entry.
        """
        k = keys(game_id)
        idem_key, body_hash = idempotency or ("", "")
        verdicts = list(verdicts)
        for _ in range(100):
            # `based_on` saves a round trip when the caller has just read the log's head.
            version, last_hash = based_on or self.redis.hmget(k["meta"], "version", "hash")
            based_on = None
            if version is None:
                return Appended("missing")
            version = int(version)
            last_hash = last_hash if isinstance(last_hash, str) else last_hash.decode()
            stamped = [
                {**body, "seq": version + i, "at": now()} for i, body in enumerate(bodies, 1)
            ]
            chained = log.chain(last_hash, stamped)
            pairs: list[Any] = []
            for of, index in verdicts:
                pairs += [of, version + 1 + index]
            proj: list[Any] = []
            for field, value in (projection or {}).items():
                proj += [field, value]
            args = [
                version,
                "" if expected_version is None else expected_version,
                idem_key,
                body_hash,
                chained[-1]["hash"],
                version + 1 if submission else "",
                len(chained),
                *[orjson.dumps(e, option=orjson.OPT_SORT_KEYS) for e in chained],
                len(verdicts),
                *pairs,
                *proj,
            ]
            outcome, value = self._append(keys=[k[n] for n in _APPEND_KEYS], args=args)
            outcome, value = outcome.decode(), value.decode()
            if outcome == "moved":
                continue
            if outcome == "ok":
                return Appended("ok", seq=version + 1, version=int(value))
            if outcome == "idempotent":
                first_hash, seq = value.split(" ")
                return Appended("idempotent", seq=int(seq), body_hash=first_hash)
            return Appended(outcome, version=int(value) if value.isdigit() else 0)
        raise RuntimeError(f"game {game_id}: could not append after 100 attempts")

    def verdict_entry(self, game_id: str, seq: int) -> dict[str, Any] | None:
        """The verdict entry on submission `seq`, in one round trip, or None while pending."""
        k = keys(game_id)
        found = self._verdict(keys=[k["log"], k["verdict"]], args=[seq])
        return orjson.loads(found) if found else None

    def verdict_seqs(self, game_id: str) -> dict[int, int]:
        raw = self.redis.hgetall(keys(game_id)["verdict"])
        return {int(k): int(v) for k, v in raw.items()}

    # -- projections -------------------------------------------------------------------------

    def projection(self, game_id: str, *fields: str) -> dict[str, Any]:
        values = self.redis.hmget(keys(game_id)["proj"], *fields)
        return {f: v and v.decode() for f, v in zip(fields, values, strict=True)}

    def judging(self, game_id: str) -> Judging | None:
        """In one round trip: take the game's lock and read what judging it needs.

        None when another worker holds the lock (or the game does not exist).
        """
        k = keys(game_id)
        token = secrets.token_hex(8)
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(k["lock"], token, nx=True, px=_LOCK_MS)
        pipe.hgetall(k["meta"])
        pipe.hmget(k["proj"], "judged", "status")
        pipe.hmget(k["secret"], "seed", "decks")
        locked, raw, (judged, status), (seed, decks) = pipe.execute()
        if not locked:
            return None
        if not raw:
            self.unlock(game_id, token)
            return None
        meta = self._decode_meta(raw)
        return Judging(
            lock=token,
            meta=meta,
            judged=int(judged or 0),
            finished=status == b"finished",
            seed=seed.decode(),
            decks=orjson.loads(decks),
        )

    def progress(self, game_id: str) -> tuple[int, int]:
        """The last submission's seq and the last judged one's, read together."""
        k = keys(game_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hget(k["meta"], "submitted")
        pipe.hget(k["proj"], "judged")
        submitted, judged = pipe.execute()
        return int(submitted or 0), int(judged or 0)

    def view(self, game_id: str, viewer: str) -> tuple[int, bytes | None]:
        at, view = self.redis.hmget(keys(game_id)["proj"], "at", f"view:{viewer}")
        return (int(at) if at else 0), view

    # -- scheduling validation ------------------------------------------------------------

    def mark_dirty(self, game_id: str = "") -> int | None:
        """Note that `game_id` has submissions to judge; the drain slot to queue a job for, if any.

        A slot's flag stands for "a drain job is queued or running in this slot": while it is
        set, submissions only join the dirty set, so under load one job judges the moves of many
        games. A second slot opens only while more than one game waits, so that two workers
        overlap their waits on Redis under load and a quiet service runs one job at a time.
        Without a game it only opens a slot for games already waiting (a worker starting up).
        """
        flags = [DRAINING.format(slot) for slot in range(DRAINERS)]
        slot = self._mark_dirty(
            keys=[DIRTY, BELL, *flags], args=[time.time(), game_id, _DRAIN_FLAG_S]
        )
        return None if slot < 0 else int(slot)

    def next_dirty(self, slot: int, linger_s: float) -> str | None:
        """Claim the game marked dirty longest ago, waiting up to `linger_s` for one to appear.

        The claim lapses after a while, so a game whose job died before judging it is not lost:
        `reclaim_lapsed` puts it back. Call `judged` once the game is judged. Claiming is one
        script, so it cannot block; waiting blocks on the bell that marking a game rings.
        """
        deadline = time.monotonic() + linger_s
        while True:
            claimed = self._claim(
                keys=[DIRTY, CLAIMED, DRAINING.format(slot)],
                args=[time.time() + _CLAIM_S, _DRAIN_FLAG_S],
            )
            left = deadline - time.monotonic()
            if claimed is not None or left <= 0:
                return claimed.decode() if claimed is not None else None
            self.redis.blpop([BELL], timeout=left)

    def judged(self, game_id: str) -> None:
        self.redis.zrem(CLAIMED, game_id)

    def reclaim_lapsed(self) -> int:
        """Put games whose claim lapsed back among the dirty ones; how many there were."""
        return self._reclaim(keys=[DIRTY, CLAIMED], args=[time.time()])

    def drain_may_stop(self, slot: int) -> bool:
        """Lower the slot's flag; False if a game was marked dirty meanwhile and this drain took
        the flag back, so the caller must go on draining instead of stopping."""
        flag = DRAINING.format(slot)
        pipe = self.redis.pipeline(transaction=False)
        pipe.delete(flag)
        pipe.zcard(DIRTY)
        if not pipe.execute()[1]:
            return True
        return not self.redis.set(flag, 1, nx=True, ex=_DRAIN_FLAG_S)

    def lock(self, game_id: str) -> str | None:
        token = secrets.token_hex(8)
        return token if self.redis.set(keys(game_id)["lock"], token, nx=True, px=_LOCK_MS) else None

    def unlock(self, game_id: str, token: str) -> None:
        self._release(keys=[keys(game_id)["lock"]], args=[token])

    # -- audits --------------------------------------------------------------------------------

    def new_audit(self, game_id: str, claimed: Mapping[str, int]) -> int:
        number = self.redis.hincrby(keys(game_id)["meta"], "audits", 1)
        self.save_audit(game_id, number, {"status": "queued", "claimed": claimed})
        return number

    def save_audit(self, game_id: str, number: int, report: Mapping[str, Any]) -> None:
        key = f"tl:{{{game_id}}}:audit:{number}"
        pipe = self.redis.pipeline(transaction=True)
        pipe.set(key, dumps(report))
        if report.get("status") == "done":
            pipe.rpush(key + ":done", 1)
            pipe.expire(key + ":done", 60)
        pipe.execute()

    def audit(self, game_id: str, number: int, wait_s: float = 0) -> dict[str, Any] | None:
        key = f"tl:{{{game_id}}}:audit:{number}"
        if wait_s > 0:
            self.redis.blmove(key + ":done", key + ":done", wait_s, "LEFT", "RIGHT")
        raw = self.redis.get(key)
        return orjson.loads(raw) if raw else None


_APPEND_KEYS = ("log", "meta", "idem", "verdict", "proj")
