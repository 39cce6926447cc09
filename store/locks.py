"""A game's lock: one worker judges a game at a time, and reads what judging needs as it locks."""

from __future__ import annotations

import functools
import secrets
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import orjson
import redis

from store import keys
from store.batch import Answer, Batch
from store.stored import ProjField, Status, decode_meta, entry_from, request_of

# Shorter than a work item's lease (`store.scheduler.LEASE_MS`): when the lease of a judge
# that died lapses, the game is unlocked for the next.
LOCK_MS = 4_000
# How soon a lock held by another (`Locks.held`) is asked for again.
_HELD_AGAIN_S = 0.02

# Only the holder of the lock may release it; ARGV[1] is {"token": the holder's}.
_RELEASE = """
if redis.call('GET', KEYS[1]) == cjson.decode(ARGV[1]).token then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

# Take the game's lock (KEYS[1]) for ARGV[1]'s `token` and read what judging needs: the meta
# (KEYS[2]), the last judged submission and the status (`fields` of the proj hash, KEYS[3]),
# the engine state unless the caller already holds the state after that very submission
# (`cached`), and the log's entries (KEYS[4]) from it on (its own for its hash). A lock held
# by another answers when it lapses (ms from now).
_JUDGING = """
local a = cjson.decode(ARGV[1])
if not redis.call('SET', KEYS[1], a.token, 'NX', 'PX', a.lock_ms) then
  return {'locked', redis.call('PTTL', KEYS[1])}
end
local meta = redis.call('HGETALL', KEYS[2])
if #meta == 0 then
  redis.call('DEL', KEYS[1])
  return {'missing'}
end
local judged, status = unpack(redis.call('HMGET', KEYS[3], a.fields.judged, a.fields.status))
judged = tonumber(judged) or 0
local state = ''
if judged ~= a.cached then state = redis.call('HGET', KEYS[3], a.fields.state) end
local entries = redis.call('XRANGE', KEYS[4], math.max(judged, 1) .. '-0', '+')
return {'ok', meta, judged, status or '', state, entries}
"""


class Locked(Exception):
    """Another worker holds the game's lock (it may be judging it, or have died doing so)."""

    def __init__(self, lapses_in_s: float):
        super().__init__(f"locked for {lapses_in_s:.3f} s more")
        self.lapses_in_s = lapses_in_s


@dataclass(frozen=True)
class Judging:
    """What a worker reads, under the game's lock, before judging its pending submissions."""

    lock: str
    meta: dict[str, Any]
    judged_seq: int  # the last judged submission's
    finished: bool
    state: Any  # the stored engine state (encoded), or None when the caller holds it already
    entries: list[dict[str, Any]]  # the log from the last judged submission on
    # The ids of the requests that posted those submissions, by seq, where the store kept one
    # beside the entry (`store.log`, field `r`).
    requests: dict[int, str] = field(default_factory=dict)


class Locks:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._release = client.register_script(_RELEASE)
        self._judging = client.register_script(_JUDGING)

    def queue_release(self, batch: Batch, game_id: str, token: str) -> Answer[int]:
        return batch.script(
            self._release, [keys.game(game_id).lock], [orjson.dumps({"token": token})]
        )

    @contextmanager
    def held(self, key: str, within_s: float, lock_ms: int) -> Iterator[None]:
        """The lock `key` held while the block runs (for `lock_ms` at most, should its holder
        die), waited for up to `within_s`: `Locked` past that, the block not run."""
        token = secrets.token_hex(8)
        deadline = time.monotonic() + within_s
        while not self.redis.set(key, token, nx=True, px=lock_ms):
            if time.monotonic() > deadline:
                raise Locked(max(self.redis.pttl(key), 0) / 1000)
            time.sleep(_HELD_AGAIN_S)
        try:
            yield
        finally:
            self._release(keys=[key], args=[orjson.dumps({"token": token})])

    def queue_judging(
        self, batch: Batch, game_id: str, cached: int, worker: str = ""
    ) -> Answer[Judging | None]:
        """Queue taking the game's lock and reading what judging it needs (`judging_of`);
        `cached` is the last judged submission whose state the caller holds, so that the stored
        state is read only when it is not. The lock's token names the `worker` taking it, for
        whoever looks at a lock left behind."""
        k = keys.game(game_id)
        token = f"{worker}/{secrets.token_hex(8)}"
        fields = {"judged": ProjField.JUDGED, "status": ProjField.STATUS, "state": ProjField.STATE}
        return batch.script(self._judging, [k.lock, k.meta, k.proj, k.log], [orjson.dumps(
            {"token": token, "lock_ms": LOCK_MS, "cached": cached, "fields": fields}
        )], read=functools.partial(self.judging_of, token=token))

    @staticmethod
    def judging_of(answer: list[Any], token: str) -> Judging | None:
        """None when the game does not exist; `Locked` when another worker holds the lock."""
        if answer[0] == b"locked":
            raise Locked(max(answer[1], 0) / 1000)
        if answer[0] != b"ok":
            return None
        _, meta, judged_seq, status, state, entries = answer
        return Judging(
            lock=token,
            meta=decode_meta(dict(zip(meta[::2], meta[1::2], strict=True))),
            judged_seq=judged_seq,
            finished=Status.read(status).over,
            state=orjson.loads(state) if state else None,
            entries=[entry_from(fields[1]) for _, fields in entries],  # ENTRY's value
            requests={int(at.partition(b"-")[0]): request
                      for at, fields in entries if (request := request_of(fields)) is not None},
        )
