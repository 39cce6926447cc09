"""Finished games played in process by `engine.playout`, as the replay documents a server serves.

Playing a game costs 10 to 150 ms; bench/transfer.py and the transfer tests need hundreds
(the tests import them from here: bench/ never imports tests/). A game played once is told
again under other players' names and another creation time (`retold`): its moves and verdicts
are the same, but its every hash differs, so it is another game to a server. Only its first
entry differs, so the canonical bytes of the others are computed once for all tellings.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from engine import log, playout
from engine.games import GAMES
from store import Store
from store.games import Loaded
from store.projections import Projection

# Games are created from the first of January 2026 on, and played on the first of February.
_CREATED = datetime(2026, 1, 1, tzinfo=UTC)
_PLAYED = datetime(2026, 2, 1, tzinfo=UTC)
# The shortest game of each title: the fewest players, one deal, one round.
_SHORTEST = {"coloretto": {"deals": 1}, "sieben-siegel": {"rounds": 1}}


@dataclass(frozen=True)
class _Told:
    """A playout as every telling of it shares it."""

    playout: playout.Playout
    created: dict[str, Any]  # the first entry's body, before its players and time are set
    bodies: list[dict[str, Any]]  # the other entries' bodies, stamped with their times
    canonical: list[bytes]  # and the bytes their hashes are made of
    projection: Projection
    decks: list[list[str]]


@functools.cache
def played(title: str, seed: str, seats: int | None = None) -> _Told:
    """The game of `title` played from `seed`: the shortest of its kind (the fewest players,
    one deal or round) unless `seats` is given, then a whole one with the default options."""
    game = GAMES[title]
    options = _SHORTEST.get(title) if seats is None else None
    whole = playout.play(
        game, seats or min(game.seat_counts), seed, random.Random(seed), options
    )
    bodies = [
        {**{k: v for k, v in entry.items() if k != "hash"}, "at": _stamp(_PLAYED, entry["seq"])}
        for entry in whole.entries
    ]
    judged = max(e["seq"] for e in bodies if e["type"] == log.SUBMITTED)
    table, final = whole.table, whole.final
    canonical = game.canonical_deck(table.seats, table.options)
    return _Told(
        whole, bodies[0], bodies[1:], [log.canonical(body) for body in bodies[1:]],
        Projection.of(game, final, judged),
        [list(table.deck(r, canonical)) for r in range(1, game.round(final) + 1)],
    )


def replay(title: str, seed: str, game_id: str, players: list[str] | None = None,
           created: int = 0, seats: int | None = None) -> dict[str, Any]:
    """The replay document of `title` played from `seed` (`played`), by `players` (p0, p1...
    unless given), created `created` seconds into 2026 and stored as `game_id`."""
    told = played(title, seed, seats)
    names = players or told.created["players"]
    first = {**told.created, "players": names, "at": _stamp(_CREATED, 1000 * created)}
    entries = [{**first, "hash": log.chain_hash(log.GENESIS, first)}]
    for body, canonical in zip(told.bodies, told.canonical, strict=True):
        # engine.log.chain_hash, from bytes made once
        entries.append({**body, "hash": log.link(entries[-1]["hash"], canonical)})
    game = told.playout.game
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
        "deal": {"decks": told.decks},
        "entries": entries,
        "score": game.score(told.playout.final).to_json(names),
    }


def retold(title: str, number: int, seeds: int = 5, seats: int | None = None) -> dict[str, Any]:
    """Game `number` of many of `title`: one of `seeds` playouts (`played` with `seats`), its
    players renamed, created a minute after game `number - 1` and not at the same time as any
    other title's."""
    count = seats or min(GAMES[title].seat_counts)
    players = [f"{title[:3]}{number}-{seat}" for seat in range(count)]
    return replay(title, f"{title}-{number % seeds}", f"{title}-{number}", players,
                  created=60 * number + sorted(GAMES).index(title), seats=seats)


def stored(store: Store, document: dict[str, Any], seats: int | None = None) -> Loaded:
    """Write a document `replay` made (of a game `played` with `seats`) straight into `store`,
    as an import does once it has verified it, without judging it again: the fast way to fill
    a server with finished games."""
    told = played(document["game"], document["seed"], seats)
    secret = {"seed": document["seed"], "decks": []}
    return store.games.load(document["id"], document["entries"], secret, told.projection)


def _stamp(start: datetime, milliseconds: int) -> str:
    at = start + timedelta(milliseconds=milliseconds)
    return at.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
