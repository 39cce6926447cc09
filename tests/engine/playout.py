"""Random legal playouts of any registered game, as a log the way the service would write it."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engine import log
from engine.game import Game, Table


@dataclass
class Playout:
    game: Game
    table: Table
    entries: list[dict[str, Any]] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)

    @property
    def final(self) -> Any:
        return self.states[-1]


def created_entry(game: Game, table: Table) -> dict[str, Any]:
    return {
        "seq": 1,
        "type": log.CREATED,
        "game": game.name,
        "players": [f"p{s}" for s in range(table.seats)],
        "options": dict(table.options),
    }


def play(game: Game, seats: int, seed: str, rnd: random.Random, options=None) -> Playout:
    """Play to the end choosing uniformly among legal moves; every state is recorded."""
    table = Table(seats, game.options(seats, options or {}), seed)
    state = game.deal(table)
    out = Playout(game, table, [created_entry(game, table)], [state])
    for _ in range(20_000):
        if game.is_over(state):
            return out
        choices = [(s, m) for s in game.to_act(state) for m in game.legal_moves(state, s)]
        assert choices, f"{game.name}: nobody can move in a running game"
        seat, move = rnd.choice(choices)
        seq = len(out.entries) + 1
        submitted = {"seq": seq, "type": log.SUBMITTED, "seat": seat, "move": move,
                     "hidden": ["move"]}
        state, judged = log.verdict(game, state, submitted)
        assert judged["type"] == log.ACCEPTED, f"a listed legal move was refused: {judged}"
        out.entries += [submitted, {**judged, "seq": seq + 1}]
        out.states.append(state)
    raise AssertionError(f"{game.name}: no end after 20000 moves")
