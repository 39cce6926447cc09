"""A game's log: chaining and appending entries atomically, and reading them back.

Every write that must not half-happen goes through one Lua script, `_APPEND`: it checks the
expected version, the idempotency key and that no verdict is written twice, then appends the
entries and updates meta, verdict index and projections together.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
import redis

from engine.log import chain
from store import keys

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


def now() -> str:
    """ISO 8601 in UTC with a Z, to the millisecond."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


@dataclass(frozen=True)
class Appended:
    """What an append came to: `ok`, `idempotent` (an earlier answer), `conflict`, `judged`."""

    outcome: str
    seq: int = 0
    version: int = 0
    body_hash: str = ""


class Log:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._append = client.register_script(_APPEND)
        self._verdict = client.register_script(_VERDICT)

    def entries(
        self, game_id: str, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> list[dict[str, Any]]:
        found = self.redis.xrange(
            keys.game(game_id).log,
            min=f"{after + 1}-0",
            max="+" if upto is None else f"{upto}-0",
            count=limit,
        )
        return [orjson.loads(fields[b"e"]) for _, fields in found]

    def wait(self, game_id: str, after: int, timeout_ms: int) -> int:
        """Block until the log holds entries after `after` or the time is up (no polling);
        the last seq seen."""
        found = self.redis.xread({keys.game(game_id).log: f"{after}-0"}, block=timeout_ms)
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
        k = keys.game(game_id)
        idem_key, body_hash = idempotency or ("", "")
        verdicts = list(verdicts)
        for _ in range(100):
            # `based_on` saves a round trip when the caller has just read the log's head.
            version, last_hash = based_on or self.redis.hmget(k.meta, "version", "hash")
            based_on = None
            if version is None:
                return Appended("missing")
            version = int(version)
            last_hash = last_hash if isinstance(last_hash, str) else last_hash.decode()
            stamped = [
                {**body, "seq": version + i, "at": now()} for i, body in enumerate(bodies, 1)
            ]
            chained = chain(last_hash, stamped)
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
            outcome, value = self._append(
                keys=[k.log, k.meta, k.idem, k.verdict, k.proj], args=args
            )
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

    def verdict(self, game_id: str, seq: int) -> dict[str, Any] | None:
        """The verdict entry on submission `seq`, in one round trip, or None while pending."""
        k = keys.game(game_id)
        found = self._verdict(keys=[k.log, k.verdict], args=[seq])
        return orjson.loads(found) if found else None

    def verdict_seqs(self, game_id: str) -> dict[int, int]:
        raw = self.redis.hgetall(keys.game(game_id).verdict)
        return {int(k): int(v) for k, v in raw.items()}

    def progress(self, game_id: str) -> tuple[int, int]:
        """The last submission's seq and the last judged one's, read together."""
        k = keys.game(game_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hget(k.meta, "submitted")
        pipe.hget(k.proj, "judged")
        submitted, judged = pipe.execute()
        return int(submitted or 0), int(judged or 0)
