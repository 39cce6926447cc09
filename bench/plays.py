"""Games the benchmark plays, computed before the clock starts.

Each game is created with its seed and explicit decks, so the benchmark knows the deal and plays
the whole game in process first: during the clock a client only posts bodies it already holds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import orjson

from bench.client import Client
from engine import log
from engine.game import Game
from engine.games import GAMES
from engine.playout import play

# Enough explicit decks for any game's deals; only those the playout used are sent.
_DECKS = 32


@dataclass(frozen=True)
class Track:
    """One game's moves in order, as the bodies its client posts."""

    game_id: str
    token: str
    bodies: tuple[bytes, ...]

    def path(self, wait: float) -> str:
        return f"/v1/games/{self.game_id}/moves?wait={wait:g}"


def prepare(base: str, name: str, players: int, count: int, label: str,
            options: dict[str, Any] | None = None) -> list[Track]:
    client = Client(base)
    return [_prepared(client, GAMES[name], players, options or {}, f"{label}-{i}")
            for i in range(count)]


def _prepared(client: Client, game: Game, players: int, options: dict[str, Any],
              seed: str) -> Track:
    rnd = random.Random(seed)
    canonical = list(game.canonical_deck(players, game.options(players, options)))
    decks = [rnd.sample(canonical, len(canonical)) for _ in range(_DECKS)]
    played = play(game, players, seed, rnd, options, decks=decks)
    created = client.call("/v1/games", {
        "game": game.name, "players": [f"p{s}" for s in range(players)], "options": options,
        "seed": seed, "decks": decks[:game.round(played.final)],
    })
    bodies = tuple(orjson.dumps({"seat": e["seat"], "move": e["move"]})
                   for e in played.entries if e["type"] == log.SUBMITTED)
    return Track(created["id"], created["table_token"], bodies)
