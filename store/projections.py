"""Projections: what readers need of a game without replaying its log.

A worker keeps them in the game's `proj` hash with every verdict: the engine state (for
resuming), `to_act`, the round, and a view per viewer (every seat, the spectator, the table),
so a state read is one `HMGET`. A view costs little to compute; a score breakdown, with its
provenance, costs more than judging the move and grows with the game, so it is computed when
read and kept beside the version it describes (`score_at`) for the next reader. This module is
the only one that knows the hash's fields (`Field`); everyone else reads and writes typed
records.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import orjson
import redis

from engine import codec
from engine.game import SPECTATOR, TABLE, Game, Viewer
from engine.visibility import shown_to
from store import keys


class Status(StrEnum):
    IN_PROGRESS = "in-progress"
    FINISHED = "finished"

    @classmethod
    def of(cls, over: bool) -> Status:
        return cls.FINISHED if over else cls.IN_PROGRESS

    @classmethod
    def read(cls, raw: bytes | None) -> Status:
        """A stored status; a game with none yet is in progress."""
        return cls(raw.decode()) if raw else cls.IN_PROGRESS


class Field(StrEnum):
    """The fields of the `proj` hash, besides one `view:<viewer>` per viewer."""

    JUDGED = "judged"  # the last submission judged
    AT = "at"  # the log version the projections describe
    STATUS = "status"
    TO_ACT = "to_act"
    ROUND = "round"
    STATE = "state"
    SCORE = "score"  # kept by the first reader of a version's score...
    SCORE_AT = "score_at"  # ...and the version it describes

    @staticmethod
    def view(viewer: Viewer | str) -> str:
        return f"view:{viewer}"


@dataclass(frozen=True)
class Projection:
    """A game's projections as a worker writes them, right after submission `judged`."""

    judged: int
    status: Status
    to_act: tuple[int, ...]
    round: int
    state: Any  # the engine state, encoded (`engine.codec`)
    views: Mapping[str, Any]  # viewer ("0", "spectator", "table") -> its view

    @classmethod
    def of(cls, game: Game, players: list[str], state: Any, judged: int) -> Projection:
        over = game.is_over(state)
        viewers: list[Viewer] = [SPECTATOR, TABLE, *range(len(players))]
        return cls(
            judged=judged,
            status=Status.of(over),
            to_act=tuple(game.to_act(state)),
            round=game.round(state),
            state=codec.encode(state),
            views={str(v): game.view(state, shown_to(v, over)) for v in viewers},
        )

    def fields(self, at: int) -> dict[str, str]:
        """The hash's fields, describing log version `at`, as plain strings."""
        fields = {
            Field.JUDGED: str(self.judged),
            Field.AT: str(at),
            Field.STATUS: str(self.status),
            Field.TO_ACT: _json(list(self.to_act)),
            Field.ROUND: str(self.round),
            Field.STATE: _json(self.state),
        }
        views = {Field.view(viewer): _json(view) for viewer, view in self.views.items()}
        return {str(field): value for field, value in fields.items()} | views


@dataclass(frozen=True)
class Position:
    """Where a game stands at log version `at`, as the projections say."""

    at: int
    status: Status
    round: int
    to_act: tuple[int, ...]


class Projections:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def position(self, game_id: str) -> Position:
        return _position(self.redis.hmget(keys.game(game_id).proj, *_POSITION))

    def view(self, game_id: str, viewer: Viewer) -> tuple[Position, bytes]:
        """Where the game stands and `viewer`'s view of it (JSON, as stored), read together."""
        *position, view = self.redis.hmget(
            keys.game(game_id).proj, *_POSITION, Field.view(viewer)
        )
        return _position(position), view

    def state(self, game_id: str) -> tuple[int, Any]:
        """The log version the projections describe and the engine state there, encoded."""
        at, state = self.redis.hmget(keys.game(game_id).proj, Field.AT, Field.STATE)
        return int(at), orjson.loads(state)

    def score(self, game_id: str) -> bytes | None:
        """The score breakdown's JSON at the version the projections describe, if a reader
        kept it."""
        at, score_at, score = self.redis.hmget(
            keys.game(game_id).proj, Field.AT, Field.SCORE_AT, Field.SCORE
        )
        return score if score_at == at else None

    def keep_score(self, game_id: str, at: int, score: bytes) -> None:
        """Keep the score computed for version `at` for the next reader. Both fields are set in
        one command, so a score is never labelled with another version."""
        self.redis.hset(keys.game(game_id).proj, mapping={Field.SCORE_AT: at, Field.SCORE: score})

    def stored(self, game_id: str, viewers: tuple[Viewer, ...]) -> dict[str, Any]:
        """What an audit compares with its rebuild: `at`, `state`, `views` and `score` when
        one is kept for that version."""
        at, state, score_at, score, *views = self.redis.hmget(
            keys.game(game_id).proj,
            Field.AT, Field.STATE, Field.SCORE_AT, Field.SCORE,
            *(Field.view(v) for v in viewers),
        )
        stored = {
            "at": int(at),
            "state": orjson.loads(state),
            "views": {
                str(v): orjson.loads(view)
                for v, view in zip(viewers, views, strict=True)
                if view
            },
        }
        if score and score_at == at:
            stored["score"] = orjson.loads(score)
        return stored

    def steps(self, game_id: str) -> bytes | None:
        """A finished game's views at every step, if answered lately (see `keep_steps`)."""
        return self.redis.get(keys.game(game_id).steps)

    def keep_steps(self, game_id: str, answer: bytes) -> None:
        """Keep a finished game's views at every step for the next viewers: they never change,
        but they are large (a megabyte for a long game), so they are kept only for a while."""
        self.redis.set(keys.game(game_id).steps, answer, ex=_STEPS_KEPT_S)


_STEPS_KEPT_S = 3600
_POSITION = (Field.AT, Field.STATUS, Field.ROUND, Field.TO_ACT)


def _position(raw: list[bytes | None]) -> Position:
    at, status, round_, to_act = raw
    return Position(int(at or 0), Status.read(status), int(round_), tuple(orjson.loads(to_act)))


def _json(value: Any) -> str:
    return orjson.dumps(value).decode()
