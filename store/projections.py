"""Projections: what readers need of a game without replaying its log.

A worker keeps them in the game's `proj` hash with every verdict: the engine state (for
resuming), the score, `to_act`, the round, and a view per viewer (every seat, the spectator,
the table), so a state read is one `HMGET`.
"""

from __future__ import annotations

from typing import Any

import orjson
import redis

from engine import codec
from engine.game import SPECTATOR, TABLE, Game
from store import keys


def project(game: Game, players: list[str], state: Any, judged: int) -> dict[str, Any]:
    """What readers need without replaying: status, whose turn, score, and a view per viewer.

    Once a game is over everything about it is public, so every viewer gets the table's view.
    """
    over = game.is_over(state)
    viewers: list[int | str] = [SPECTATOR, TABLE, *range(len(players))]
    views = {
        f"view:{viewer}": orjson.dumps(game.view(state, TABLE if over else viewer))
        for viewer in viewers
    }
    return {
        "judged": judged,
        "status": "finished" if over else "in-progress",
        "to_act": orjson.dumps(list(game.to_act(state))),
        "round": game.round(state),
        "state": orjson.dumps(codec.encode(state)),
        "score": orjson.dumps(game.score(state).to_json(players)),
        **views,
    }


class Projections:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def read(self, game_id: str, *fields: str) -> dict[str, Any]:
        values = self.redis.hmget(keys.game(game_id).proj, *fields)
        return {f: v and v.decode() for f, v in zip(fields, values, strict=True)}

    def view(self, game_id: str, viewer: str) -> tuple[int, bytes | None]:
        at, view = self.redis.hmget(keys.game(game_id).proj, "at", f"view:{viewer}")
        return (int(at) if at else 0), view
