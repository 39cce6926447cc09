"""Games as stored: creating or importing one, its meta, its tokens and secret, and the list of
all games."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
import redis

from engine.log import ACCEPTED, GENESIS, REJECTED, SUBMITTED, chain
from store import counts, keys
from store.batch import checked
from store.connection import FULL
from store.counts import Count
from store.log import Log
from store.projections import Projection
from store.stored import (
    ENTRY,
    SECRET_FIELDS,
    ProjField,
    Status,
    decode_meta,
    entries_of,
    entry_bytes,
    meta_fields,
    secret_fields,
    secret_of,
)

# KEYS: the game's meta, log, secret, verdict index and projections. ARGV[1] is one JSON object
# of string maps (`meta`, `secret`, `projection`) and `verdicts` ([submission seq, verdict seq]
# pairs); ARGV[2..] the entries, as stored. A game whose meta or log exists is left alone: the
# answer is then the head (version and last hash) of what holds the id.
_LOAD = f"local ENTRY = '{ENTRY}'\n" + """
local meta, log, secret, index, proj = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
if redis.call('EXISTS', meta) == 1 or redis.call('EXISTS', log) == 1 then
  local version, head = redis.call('HGET', meta, 'version'), redis.call('HGET', meta, 'hash')
  return {'taken', version or '0', head or ''}
end
local a = cjson.decode(ARGV[1])
for seq = 1, #ARGV - 1 do redis.call('XADD', log, seq .. '-0', ENTRY, ARGV[seq + 1]) end
for key, fields in pairs({[meta] = a.meta, [secret] = a.secret, [proj] = a.projection}) do
  for field, value in pairs(fields) do redis.call('HSET', key, field, value) end
end
for _, pair in ipairs(a.verdicts) do redis.call('HSET', index, pair[1], pair[2]) end
return {'stored', a.meta.version, a.meta.hash}
"""

# Take the id ARGV[2] for the game whose `game-created` entry has the hash ARGV[1], in KEYS[1]
# (keys.BY_CREATION), unless another id holds it; ARGV[3], when not empty, is an id that
# holds it stale (it holds another game), taken over. The answer is the id that holds it.
_TAKE_ID = """
local holder = redis.call('HGET', KEYS[1], ARGV[1])
if holder and holder ~= ARGV[3] then return holder end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return ARGV[2]
"""


@dataclass(frozen=True)
class Context:
    """What a request about a game learns of it before acting (`Games.context`)."""

    meta: dict[str, Any] | None  # None: no such game
    role: str | None  # of the request's token in the game: a seat, "table", or None
    finished: bool
    # The rate limits' counts asked for, in their order; None when Redis refused to count
    # them (it is full), for the caller to count them itself.
    counts: list[int] | None


@dataclass(frozen=True)
class Loaded:
    """What an import came to: whether it wrote the game, and the head of the game that holds
    its id now (this one, or another that was there first)."""

    written: bool
    version: int
    hash: str


class Games:
    def __init__(self, client: redis.Redis, log: Log):
        self.redis = client
        self.log = log  # a game's first entry, live or compacted
        self._load = client.register_script(_LOAD)
        self._take_id = client.register_script(_TAKE_ID)

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
        meta = meta_fields(created, version=1, last_hash=entry["hash"], submitted=0)
        # Listed first: a listing skips an id whose game is not there (yet, or ever).
        self._list(game_id, created["game"], time.time(), created=entry["hash"])
        pipe = self.redis.pipeline(transaction=True)
        pipe.xadd(k.log, {ENTRY: entry_bytes(entry, as_created=True)}, id="1-0")
        pipe.hset(k.meta, mapping=meta)
        pipe.hset(k.secret, mapping=secret_fields(secret["seed"], secret["decks"]))
        pipe.hset(k.auth, mapping={token_digest(t): role for t, role in tokens.items()})
        pipe.hset(k.proj, mapping=projection.fields(version=1))
        pipe.execute()
        return entry

    def rated(self, game_id: str) -> None:
        """List a game whose seats' handles are rated (`keys.RATED`)."""
        self.redis.zadd(keys.RATED, {game_id: time.time()})

    def rated_ids(self) -> list[str]:
        """Every rated game, oldest first."""
        return [g.decode() for g in self.redis.zrange(keys.RATED, 0, -1)]

    def load(
        self,
        game_id: str,
        entries: Sequence[dict[str, Any]],
        secret: Mapping[str, Any],
        projection: Projection,
    ) -> Loaded:
        """Store a finished game from elsewhere with its log exactly as given (chained and
        numbered from 1), in one script: all of it, or nothing when the id is taken.

        It has no tokens: a finished game is public, and no move can be posted to it. Once the
        id holds this game it is listed (`list_finished`), so importing it again also lists a
        game whose listing was cut short.
        """
        k = keys.game(game_id)
        submissions = [e["seq"] for e in entries if e["type"] == SUBMITTED]
        meta = meta_fields(entries[0], len(entries), entries[-1]["hash"],
                           max(submissions, default=0))
        args = {
            "meta": {field: _text(value) for field, value in meta.items()},
            "secret": secret_fields(secret["seed"], secret["decks"]),
            "projection": projection.fields(version=len(entries)),
            "verdicts": [
                [e["of"], e["seq"]] for e in entries if e["type"] in (ACCEPTED, REJECTED)
            ],
        }
        stored = [entry_bytes(e) for e in entries]
        outcome, version, head = self._load(
            keys=[k.meta, k.log, k.secret, k.verdict, k.proj], args=[orjson.dumps(args), *stored]
        )
        loaded = Loaded(outcome == b"stored", int(version), head.decode())
        if (loaded.version, loaded.hash) == (len(entries), entries[-1]["hash"]):
            self.list_finished(game_id, entries[0])
        return loaded

    def list_finished(self, game_id: str, created: Mapping[str, Any]) -> None:
        """List an imported game where it would have been listed had it been played here: by
        the time of its `game-created` entry, among all games, its title's and finished ones.

        That time is to the millisecond; games created in the same one are told apart within
        it by their ids, since a page of a listing ends at a time and the next starts after it.
        """
        when = datetime.fromisoformat(created["at"]).timestamp() + _within_a_ms(game_id)
        self._list(game_id, created["game"], when, keys.FINISHED)

    def _list(self, game_id: str, title: str, when: float, *among: str,
              created: str | None = None) -> None:
        """List a game; a new one (`created`, the hash of its first entry) takes its id too."""
        listed = {game_id: when}
        pipe = self.redis.pipeline(transaction=False)
        for index in (keys.GAMES, keys.titled(title), *among):
            pipe.zadd(index, listed)
        if created is not None:
            pipe.hsetnx(keys.BY_CREATION, created, game_id)
        pipe.set(keys.LAYOUT, keys.PARTITIONED, nx=True)
        pipe.execute()

    def enter_every_creation(self, at_once: int = 500) -> int:
        """Enter every stored game in the index of creations (`take_id`), for games stored before
        it existed, so that a copy of one imported under another id is refused too. A pass
        that ends is remembered and not made again; one interrupted is simply made again (an
        entry is only ever added). How many games it looked at."""
        if self.redis.exists(keys.BY_CREATION_FILLED):
            return 0
        looked = 0
        while ids := [g.decode() for g in
                      self.redis.zrange(keys.GAMES, looked, looked + at_once - 1)]:
            pipe = self.redis.pipeline(transaction=False)
            for game_id in ids:
                pipe.xrange(keys.game(game_id).log, "1-0", "1-0")
            for game_id, first in zip(ids, pipe.execute(), strict=True):
                # A compacted game's is read as any range of its log is (`Log.entries`).
                if found := entries_of(first) or self.log.entries(game_id, upto=1):
                    pipe.hsetnx(keys.BY_CREATION, found[0]["hash"], game_id)
            pipe.execute()
            looked += len(ids)
        self.redis.set(keys.BY_CREATION_FILLED, looked)
        return looked

    def take_id(self, created: str, game_id: str, stale: str = "") -> str:
        """The id a game is stored under here, told by the hash of its `game-created` entry
        (`created`): `game_id` once taken for it, or the id that took it first (unless that
        is `stale`, taken over). A game created here takes its id as it is created."""
        return self._take_id(keys=[keys.BY_CREATION], args=[created, game_id, stale]).decode()

    def context(
        self, game_id: str, token: str | None, counting: Sequence[Count] = ()
    ) -> Context:
        """In one round trip: a game's meta, the role of `token` in it, whether it is over, and
        the rate limits' counts taken for the request (`counting`). A full Redis still
        answers the reads, and refuses the counts alone."""
        k = keys.game(game_id)
        pipe = self.redis.pipeline(transaction=False)
        counts.queue(pipe, counting)
        pipe.hgetall(k.meta)
        pipe.hget(k.auth, token_digest(token) if token else "-")
        pipe.hget(k.proj, ProjField.STATUS)
        *counted, raw, role, status = pipe.execute(raise_on_error=False)
        for answer in (raw, role, status):
            checked(answer)
        taken = None if any(isinstance(c, FULL) for c in counted) else counts.read(
            [checked(c) for c in counted], counting)
        if not raw or b"players" not in raw:  # none, or an event's log (`store.events`)
            return Context(None, None, False, taken)
        meta = decode_meta(raw)
        for field in ("version", "submitted"):
            meta[field] = int(meta[field])
        finished = Status.read(status).over
        return Context(meta, role.decode() if role else None, finished, taken)

    def secret(self, game_id: str) -> tuple[str, list[list[str]]]:
        return secret_of(self.redis.hmget(keys.game(game_id).secret, *SECRET_FIELDS))

    def ids(
        self,
        after: tuple[float, str | None] | None,
        limit: int,
        newest: bool = False,
        title: str | None = None,
        finished: bool = False,
    ) -> list[tuple[str, float]]:
        """Games created after the game `after` names (its creation time and id), oldest first;
        or, `newest` first, before it. Games created at the very same time are ordered by id,
        as Redis orders them, so a page ending among them leaves none out. Only those of
        `title`, or only `finished` ones (and perhaps a few about to finish: check their
        status), when asked. `after` without an id is a time (a cursor from before ids were
        in them): the games from that time on."""
        among = keys.FINISHED if finished else keys.titled(title) if title else keys.GAMES
        edge = "+inf" if newest else "-inf"
        at, last = after if after is not None else (edge, None)
        since = f"({at!r}" if last is not None else at
        pipe = self.redis.pipeline(transaction=False)
        if newest:
            pipe.zrevrangebyscore(among, since, "-inf", 0, limit, withscores=True)
        else:
            pipe.zrangebyscore(among, since, "+inf", 0, limit, withscores=True)
        if last is not None:  # the rest of the games created at `at`, all of them
            pipe.zrangebyscore(among, at, at)
        found, *tied = pipe.execute()
        rest: list[bytes] = []
        if tied:  # ordered by id, in the listing's order
            mark = last.encode()
            rest = [g for g in reversed(tied[0]) if g < mark] if newest else [
                g for g in tied[0] if g > mark]
        return [(g.decode(), at) for g in rest] + [(g.decode(), score) for g, score in found]

    def finished_count(self) -> int:
        """How many games are listed among the finished ones (and abandoned)."""
        return self.redis.zcard(keys.FINISHED)

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
            pipe.hget(k.proj, ProjField.STATUS)
        raw = pipe.execute()
        out = []
        for found, status in zip(raw[::2], raw[1::2], strict=True):
            meta = decode_meta(found) if found else None
            if meta is not None:
                meta["status"] = Status.read(status)
            out.append(meta)
        return out


def _within_a_ms(game_id: str) -> float:
    """0 to 0.998 ms, in steps of 2 µs: wider than a listing cursor's step past a time (1 µs)."""
    return int.from_bytes(hashlib.sha256(game_id.encode()).digest()[:4], "big") % 500 * 2e-6


def _text(value: bytes | str | int) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
