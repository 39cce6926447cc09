"""The entries of an event's log, and what they say.

- `event-created` (always 1): name, game, players, rounds, format, table_size, points,
  options, the title's `rules_version`, and `seed_commitment` (SHA-256 of the seed);
- `round-seated`: `round`, its `tables` (each `table`, `game` id, `players` in seat order, the
  game's `seed_commitment`) and its `byes`;
- `result-recorded`: a game of the event ended: `round`, `table`, `game`, `status`
  (`finished` or `abandoned`), `players` in seat order, their `totals` and `ranks` as the
  game's final score gives them, `final` (`seq` and `hash` of the game's last entry) and
  `head` (the server's signed receipt for that entry), `ended_at` (that entry's time);
- `player-withdrawn`: `player`, seated no more from the round after `after_round`;
- `event-finished`: the `seed`, revealed once every round is seated and every result is in.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from engine.log import seed_commitment
from engine.recorded import RECORDED, is_recorded

CREATED = "event-created"
SEATED = "round-seated"
RESULT = "result-recorded"
WITHDRAWN = "player-withdrawn"
FINISHED = "event-finished"

FORMATS = ("swiss", "round-robin", "open")
FINISHED_GAME, ABANDONED_GAME = "finished", "abandoned"


def created(name: str, game: str, rules_version: str, players: Sequence[str], rounds: int,
            format: str, table_size: int, points: Sequence[int], options: Mapping[str, Any],
            seed: str, recorded: bool = False) -> dict[str, Any]:
    """An event's first entry; one whose tables are played with real cards says `"deal":
    "recorded"` (its games have no seed: the event's seed draws the seating alone)."""
    return {
        "type": CREATED, "name": name, "game": game, "rules_version": rules_version,
        "players": list(players), "rounds": rounds, "format": format,
        "table_size": table_size, "points": list(points), "options": dict(options),
        "seed_commitment": seed_commitment(seed),
        **({"deal": RECORDED} if recorded else {}),
    }


def table_commitment(created: Mapping[str, Any], seed: str, round_: int, table: int
                     ) -> str | None:
    """The seed commitment of a table's game: none for a table played with real cards."""
    return None if is_recorded(created) else seed_commitment(game_seed(seed, round_, table))


def seated(round_: int, tables: Sequence[Mapping[str, Any]], byes: Sequence[str]
           ) -> dict[str, Any]:
    return {"type": SEATED, "round": round_, "tables": [dict(t) for t in tables],
            "byes": list(byes)}


def result(round_: int, table: int, game: str, score: Mapping[str, Any], status: str,
           final: tuple[int, str], head: Mapping[str, Any], ended_at: str) -> dict[str, Any]:
    """A game's result from its final score breakdown (docs/api.md, Score breakdowns);
    `ended_at` the time of its last entry, which orders the games a rating follows."""
    players = sorted(score["players"], key=lambda p: p["seat"])
    return {
        "type": RESULT, "round": round_, "table": table, "game": game, "status": status,
        "players": [p["name"] for p in players],
        "totals": [p["total"] for p in players],
        "ranks": [p["rank"] for p in players],
        "final": {"seq": final[0], "hash": final[1]},
        "head": dict(head),
        "ended_at": ended_at,
    }


def withdrawn(player: str, after_round: int) -> dict[str, Any]:
    return {"type": WITHDRAWN, "player": player, "after_round": after_round}


def finished(seed: str) -> dict[str, Any]:
    return {"type": FINISHED, "seed": seed}


def game_seed(seed: str, round_: int, table: int) -> str:
    """The seed of the game at `table` (1-based) of round `round_`: drawn from the event's, so
    that the whole event is dealt by the seed committed at its creation, and no game's seed
    tells the event's or another game's."""
    return hashlib.sha256(f"{seed}|round-{round_}|table-{table}".encode()).hexdigest()


def of_type(entries: Sequence[Mapping[str, Any]], kind: str) -> list[Mapping[str, Any]]:
    return [e for e in entries if e["type"] == kind]


def rounds_seated(entries: Sequence[Mapping[str, Any]]) -> int:
    return len(of_type(entries, SEATED))


def withdrawn_players(entries: Sequence[Mapping[str, Any]]) -> set[str]:
    return {e["player"] for e in of_type(entries, WITHDRAWN)}


def games_of(entries: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every game seated, in order: its round, table, id, players and whether its result is
    recorded (`result`, the entry, or None)."""
    results = {e["game"]: e for e in of_type(entries, RESULT)}
    return [
        {"round": s["round"], "table": t["table"], "game": t["game"], "players": t["players"],
         "result": results.get(t["game"])}
        for s in of_type(entries, SEATED) for t in s["tables"]
    ]


def is_complete(entries: Sequence[Mapping[str, Any]]) -> bool:
    """Every round seated and every game's result recorded: the seed may be revealed."""
    rounds = entries[0]["rounds"]
    return rounds_seated(entries) == rounds and all(
        g["result"] is not None for g in games_of(entries))
