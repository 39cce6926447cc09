"""Finished games played in process by `engine.playout`, as the replay documents a server serves.

Playing a game costs 20 to 100 ms; the transfer tests need hundreds. A game played once is
told again under other players' names and another creation time (`retold`): its moves and
verdicts are the same, but its every hash differs, so it is another game to a server.
"""

from __future__ import annotations

import functools
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from engine import log, playout
from engine.games import GAMES

_EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
# The shortest game of each title: the fewest players, one deal, one round.
_SHORTEST = {"coloretto": {"deals": 1}, "sieben-siegel": {"rounds": 1}}


@functools.cache
def played(title: str, seed: str) -> playout.Playout:
    game = GAMES[title]
    return playout.play(
        game, min(game.seat_counts), seed, random.Random(seed), _SHORTEST.get(title)
    )


def replay(title: str, seed: str, game_id: str, players: list[str] | None = None,
           created: int = 0) -> dict[str, Any]:
    """The replay document of `title` played from `seed`, by `players` (p0, p1... unless
    given), created `created` seconds into 2026 and stored as `game_id`."""
    game_played = played(title, seed)
    names = players or list(game_played.entries[0]["players"])
    start = _EPOCH + timedelta(seconds=created)
    bodies = [
        {**{k: v for k, v in entry.items() if k != "hash"}, "at": _stamp(start, entry["seq"])}
        for entry in game_played.entries
    ]
    bodies[0]["players"] = names
    entries = log.chain(log.GENESIS, bodies)
    first = entries[0]
    game, table, final = game_played.game, game_played.table, game_played.final
    canonical = game.canonical_deck(table.seats, table.options)
    return {
        "format": "tablelog-replay/1",
        "id": game_id,
        "game": title,
        "players": names,
        "options": first["options"],
        "rules_version": first["rules_version"],
        "status": "finished",
        "version": len(entries),
        "seed_commitment": first["seed_commitment"],
        "seed": seed,
        "deal": {"decks": [
            list(table.deck(r, canonical)) for r in range(1, game.round(final) + 1)
        ]},
        "entries": entries,
        "score": game.score(final).to_json(names),
    }


def retold(title: str, number: int, seeds: int = 5) -> dict[str, Any]:
    """Game `number` of many of `title`: one of `seeds` playouts, its players renamed."""
    seats = min(GAMES[title].seat_counts)
    players = [f"{title[:3]}{number}-{seat}" for seat in range(seats)]
    return replay(title, f"{title}-{number % seeds}", f"{title}-{number}", players,
                  created=number)


def _stamp(start: datetime, seq: int) -> str:
    at = start + timedelta(milliseconds=seq)
    return at.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
