"""A game's lock: one worker judges a game at a time, and reads what judging needs as it locks."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import orjson
import redis

from store import keys
from store.games import decode_meta
from store.projections import Field, Status

# Shorter than a claim (`store.scheduler.CLAIM_S`): when the claim of a judge that died lapses,
# the game is unlocked for the next.
_LOCK_MS = 4_000

# Only the holder of the lock may release it; ARGV[1] is {"token": the holder's}.
_RELEASE = """
if redis.call('GET', KEYS[1]) == cjson.decode(ARGV[1]).token then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class Locked(Exception):
    """Another worker holds the game's lock (it may be judging it, or have died doing so)."""


@dataclass(frozen=True)
class Judging:
    """What a worker reads, under the game's lock, before judging its pending submissions."""

    lock: str
    meta: dict[str, Any]
    judged: int
    finished: bool
    seed: str
    decks: list[list[str]]


class Locks:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._release = client.register_script(_RELEASE)

    def take(self, game_id: str) -> str | None:
        """The lock's token, or None when another worker holds it."""
        token = secrets.token_hex(8)
        taken = self.redis.set(keys.game(game_id).lock, token, nx=True, px=_LOCK_MS)
        return token if taken else None

    def release(self, game_id: str, token: str) -> None:
        self._release(keys=[keys.game(game_id).lock], args=[orjson.dumps({"token": token})])

    def judging(self, game_id: str, worker: str = "") -> Judging | None:
        """In one round trip: take the game's lock and read what judging it needs.

        None when the game does not exist; `Locked` when another worker holds the lock. The
        lock's token names the `worker` taking it, for whoever looks at a lock left behind.
        """
        k = keys.game(game_id)
        token = f"{worker}/{secrets.token_hex(8)}"
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(k.lock, token, nx=True, px=_LOCK_MS)
        pipe.hgetall(k.meta)
        pipe.hmget(k.proj, Field.JUDGED, Field.STATUS)
        pipe.hmget(k.secret, "seed", "decks")
        locked, raw, (judged, status), (seed, decks) = pipe.execute()
        if not locked:
            raise Locked(game_id)
        if not raw:
            self.release(game_id, token)
            return None
        return Judging(
            lock=token,
            meta=decode_meta(raw),
            judged=int(judged or 0),
            finished=Status.read(status) == Status.FINISHED,
            seed=seed.decode(),
            decks=orjson.loads(decks),
        )
