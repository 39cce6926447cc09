"""Games as stored: creating one, its meta, its tokens and secret, and the list of all games."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping, Sequence
from typing import Any

import orjson
import redis

from engine.log import GENESIS, chain
from store import keys
from store.projections import Field, Projection, Status


class Games:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def create(
        self,
        game_id: str,
        created: dict[str, Any],
        secret: Mapping[str, Any],
        tokens: Mapping[str, str],
        projection: Projection,
    ) -> dict[str, Any]:
        """Write a new game whose log is the single `game-created` entry, and its projections."""
        entry = chain(GENESIS, [{**created, "seq": 1}])[0]
        k = keys.game(game_id)
        meta = {
            "game": created["game"],
            "players": orjson.dumps(created["players"]),
            "options": orjson.dumps(created["options"]),
            "created_at": created["at"],
            "seed_commitment": created["seed_commitment"],
            "rules_version": created["rules_version"],
            "version": 1,
            "hash": entry["hash"],
            "submitted": 0,
        }
        # Listed first: a listing skips an id whose game is not there (yet, or ever).
        listed = {game_id: time.time()}
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(keys.GAMES, listed)
        pipe.zadd(keys.titled(created["game"]), listed)
        pipe.execute()
        pipe = self.redis.pipeline(transaction=True)
        pipe.xadd(k.log, {"e": orjson.dumps(entry)}, id="1-0")
        pipe.hset(k.meta, mapping=meta)
        decks = orjson.dumps(secret["decks"])
        pipe.hset(k.secret, mapping={"seed": secret["seed"], "decks": decks})
        pipe.hset(k.auth, mapping={token_digest(t): role for t, role in tokens.items()})
        pipe.hset(k.proj, mapping=projection.fields(at=1))
        pipe.execute()
        return entry

    def meta(self, game_id: str) -> dict[str, Any] | None:
        return self.context(game_id, None)[0]

    def context(
        self, game_id: str, token: str | None
    ) -> tuple[dict[str, Any] | None, str | None, bool]:
        """In one round trip: a game's meta, the role of `token` in it, and whether it is over."""
        k = keys.game(game_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(k.meta)
        pipe.hget(k.auth, token_digest(token) if token else "-")
        pipe.hget(k.proj, Field.STATUS)
        raw, role, status = pipe.execute()
        if not raw:
            return None, None, False
        meta = decode_meta(raw)
        for field in ("version", "submitted"):
            meta[field] = int(meta[field])
        return meta, role.decode() if role else None, Status.read(status) == Status.FINISHED

    def secret(self, game_id: str) -> tuple[str, list[list[str]]]:
        seed, decks = self.redis.hmget(keys.game(game_id).secret, "seed", "decks")
        return seed.decode(), orjson.loads(decks)

    def ids(
        self,
        start: float | None,
        limit: int,
        newest: bool = False,
        title: str | None = None,
        finished: bool = False,
    ) -> list[tuple[str, float]]:
        """Games created at or after `start` (seconds), oldest first; or, `newest` first, at or
        before it. Only those of `title`, or only `finished` ones (and perhaps a few about to
        finish: check their status), when asked."""
        among = keys.FINISHED if finished else keys.titled(title) if title else keys.GAMES
        if newest:
            top = "+inf" if start is None else start
            found = self.redis.zrevrangebyscore(among, top, "-inf", 0, limit, withscores=True)
        else:
            bottom = "-inf" if start is None else start
            found = self.redis.zrangebyscore(among, bottom, "+inf", 0, limit, withscores=True)
        return [(g.decode(), score) for g, score in found]

    def finishing(self, game_id: str) -> None:
        """List a game among the finished ones, before the entry that finishes it is appended:
        should that append fail, a listing finds its status still in progress and skips it."""
        created = self.redis.zscore(keys.GAMES, game_id)
        if created is not None:
            self.redis.zadd(keys.FINISHED, {game_id: created})

    def briefs(self, game_ids: Sequence[str]) -> list[dict[str, Any] | None]:
        """What a listing filters on (title, players, status) for many games in one round trip:
        a few small fields each, so scanning thousands of games for a rare match stays cheap."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            k = keys.game(game_id)
            pipe.hmget(k.meta, "game", "players")
            pipe.hget(k.proj, "status")
        raw = pipe.execute()
        return [
            None if game is None else {
                "game": game.decode(),
                "players": orjson.loads(players),
                "status": status.decode() if status else "in-progress",
            }
            for (game, players), status in zip(raw[::2], raw[1::2], strict=True)
        ]

    def metas(self, game_ids: Sequence[str]) -> list[dict[str, Any] | None]:
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            k = keys.game(game_id)
            pipe.hgetall(k.meta)
            pipe.hget(k.proj, Field.STATUS)
        raw = pipe.execute()
        out = []
        for found, status in zip(raw[::2], raw[1::2], strict=True):
            meta = decode_meta(found) if found else None
            if meta is not None:
                meta["status"] = Status.read(status)
            out.append(meta)
        return out


def decode_meta(raw: dict[bytes, bytes]) -> dict[str, Any]:
    meta = {k.decode(): v.decode() for k, v in raw.items()}
    meta["players"] = orjson.loads(meta["players"])
    meta["options"] = orjson.loads(meta["options"])
    return meta


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
