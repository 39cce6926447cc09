"""Projections: what readers need of a game without replaying its log.

A worker keeps them in the game's `proj` hash with every verdict: the engine state (for
resuming, and for every reader), `to_act` and the round, so a state read is one `HMGET`. A
viewer's view is computed from the state when it is read: computing and storing six of them
(four players, the spectator, the table) with every verdict was most of a worker's own work on
it and half a game's memory, for views mostly never read. A score breakdown, with its
provenance, costs more than judging the move and grows with the game, so it is computed when
read and kept beside the version it describes (`score_at`) for the next reader. The hash's
fields (`ProjField`) are spelled in `store.stored`; everyone else reads and writes typed records.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import orjson
import redis

from engine.game import Game
from store import keys
from store.compacted import Compacted, Record
from store.connection import FULL
from store.stored import ProjField, Status, state_json


@dataclass(frozen=True)
class Projection:
    """A game's projections as a worker writes them, right after submission `judged`."""

    judged: int
    status: Status
    to_act: tuple[int, ...]
    round: int
    state: str  # the engine state's JSON (`engine.codec`)

    @classmethod
    def of(cls, game: Game, state: Any, judged: int) -> Projection:
        return cls(
            judged=judged,
            status=Status.of(game, state),
            to_act=tuple(game.to_act(state)),
            round=game.round(state),
            state=state_json(game.encode(state)),
        )

    def fields(self, version: int) -> dict[str, str]:
        """The hash's fields, describing the log's `version`, as plain strings."""
        fields = {
            ProjField.JUDGED: str(self.judged),
            ProjField.VERSION: str(version),
            ProjField.STATUS: str(self.status),
            ProjField.TO_ACT: _json(list(self.to_act)),
            ProjField.ROUND: str(self.round),
            ProjField.STATE: self.state,
        }
        return {str(field): value for field, value in fields.items()}


@dataclass(frozen=True)
class Position:
    """Where a game stands at the log's `version`, as the projections say."""

    version: int
    status: Status
    round: int
    to_act: tuple[int, ...]


class Projections:
    """A compacted game (`store.compacted`) keeps where it stands in its proj hash, and its
    engine state in its record: a state missing from the hash is read there. A record written
    before spans may keep none to trust: its state reads as None, for the reader to fold from
    the log (the store folds nothing) and keep (`keep_state`)."""

    def __init__(self, client: redis.Redis, compacted: Compacted):
        self.redis = client
        self.compacted = compacted

    def position(self, game_id: str) -> Position:
        return _position(self.redis.hmget(keys.game(game_id).proj, *_POSITION))

    def standing(self, game_id: str) -> tuple[Position, bytes | None]:
        """Where the game stands and its engine state there (encoded, as stored JSON), read
        together."""
        *position, state = self.redis.hmget(keys.game(game_id).proj, *_POSITION, ProjField.STATE)
        return _position(position), state or self._record(game_id).final_state()

    def version(self, game_id: str) -> int:
        """The log version the projections describe."""
        return int(self.redis.hget(keys.game(game_id).proj, ProjField.VERSION))

    def state(self, game_id: str) -> tuple[int, Any | None]:
        """The log version the projections describe and the engine state there, encoded."""
        version, state = self.redis.hmget(
            keys.game(game_id).proj, ProjField.VERSION, ProjField.STATE)
        state = state or self._record(game_id).final_state()
        return int(version), None if state is None else orjson.loads(state)

    def keep_state(self, game_id: str, state: bytes) -> None:
        """Keep the final state a reader folded of a compacted game whose record keeps none,
        with the record this process read (`store.compacted.Record`), for the next reader."""
        if (record := self.compacted.cached(game_id)) is not None:
            record.state = state

    def score(self, game_id: str) -> bytes | None:
        """The score breakdown's JSON at the version the projections describe, if a reader
        kept it (a compacted game's, if a reader in this process did)."""
        if (record := self.compacted.cached(game_id)) is not None:
            return record.kept_score()
        version, score_version, score, sealed = self.redis.hmget(
            keys.game(game_id).proj, ProjField.VERSION, ProjField.SCORE_VERSION, ProjField.SCORE,
            ProjField.RECORD,
        )
        if sealed is not None and (record := self.compacted.read(game_id)) is not None:
            return record.kept_score()
        return score if score_version == version else None

    def keep_score(self, game_id: str, version: int, score: bytes) -> None:
        """Keep the score computed for version `version` for the next reader. Both fields are set in
        one command, so a score is never labelled with another version. A full Redis keeps
        nothing: the next reader computes it again. A compacted game's is kept by the process,
        with its record: its proj hash is left small."""
        if (record := self.compacted.cached(game_id)) is not None:
            record.score = score
            return
        with contextlib.suppress(FULL):
            self.redis.hset(keys.game(game_id).proj,
                            mapping={ProjField.SCORE_VERSION: version, ProjField.SCORE: score})

    def stored(self, game_id: str) -> dict[str, Any]:
        """What an audit compares with its rebuild: `at`, `state` when one is kept, and
        `score` when one is kept for that version."""
        version, state, score_version, score = self.redis.hmget(
            keys.game(game_id).proj, ProjField.VERSION, ProjField.STATE, ProjField.SCORE_VERSION,
            ProjField.SCORE,
        )
        if state is None:
            # A compacted game's score as written with its record is compared too, sealed or
            # not: an audit finds a score that is not the one the log comes to.
            record = self._record(game_id)
            state, score, score_version = record.final_state(), record.written_score, version
        stored: dict[str, Any] = {"at": int(version)}
        if state is not None:  # a record written before spans may keep none: nothing to compare
            stored["state"] = orjson.loads(state)
        if score and score_version == version:
            stored["score"] = orjson.loads(score)
        return stored

    def _record(self, game_id: str) -> Record:
        """The record of a game whose proj hash has no state: compacted."""
        record = self.compacted.read(game_id)
        if record is None:
            raise LookupError(f"game {game_id} has neither an engine state nor a record")
        return record

    def steps(self, game_id: str) -> bytes | None:
        """A finished game's views at every step, if answered lately (see `keep_steps`)."""
        return self.redis.get(keys.game(game_id).steps)

    def keep_steps(self, game_id: str, answer: bytes) -> None:
        """Keep a finished game's views at every step for the next viewers: they never change,
        but they are large (a megabyte for a long game), so they are kept only for a while,
        and not at all by a full Redis."""
        with contextlib.suppress(FULL):
            self.redis.set(keys.game(game_id).steps, answer, ex=_STEPS_KEPT_S)


_STEPS_KEPT_S = 3600
_POSITION = (ProjField.VERSION, ProjField.STATUS, ProjField.ROUND, ProjField.TO_ACT)


def _position(raw: list[bytes | None]) -> Position:
    version, status, round_, to_act = raw
    return Position(int(version or 0), Status.read(status), int(round_),
                    tuple(orjson.loads(to_act)))


def score_json(game: Game, state: Any, players: list[str]) -> bytes:
    """The JSON of a state's score breakdown, as a score read answers it."""
    return orjson.dumps(game.score(state).to_json(players))


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()
