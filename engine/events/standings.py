"""An event's standings, from its log alone, every number citing the game it came from.

Points: each finished game scores its players by the event's `points` (one
value per place of a `table_size` table, first place first) at the rank the game's own final
score gives them (ties share a rank, conceded seats rank last, as the game ranks them): place
p of a table of k seats takes `points[p - 1]` for p < k, and the last place always takes the
table's last value (`points[-1]`), so a smaller table's last player scores what a full table's
last does. A bye scores the points of place ceil(table_size / 2). An abandoned game scores
nobody anything and counts in no tie-break.

Tie-breaks, in this order (docs/events.md):
1. `opponents-points` (Buchholz): the sum, over the player's finished games, of each
   opponent's points at that table;
2. `own-scores`: the sum of the player's own totals in those games, negated for a title whose
   lowest total wins, so that more is better either way;
3. `won-against-tied`: among the players still tied on points and both tie-breaks above, how
   many of their games' seats held by another of them the player ranked above.
Players tied on all of these share a rank, listed by name.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from engine.events.entries import ABANDONED_GAME, RESULT, SEATED, WITHDRAWN, of_type
from engine.games import GAMES

BREAKS = ("opponents-points", "own-scores", "won-against-tied")


def place_points(points: Sequence[int], seats: int, rank: int) -> int:
    """The points of `rank` at a table of `seats` (module docstring)."""
    return points[rank - 1] if rank < seats else points[-1]


def bye_points(points: Sequence[int]) -> int:
    """The points of place ceil(table_size / 2)."""
    return points[(len(points) + 1) // 2 - 1]


def standings(entries: Sequence[Mapping[str, Any]], after_round: int | None = None
              ) -> list[dict[str, Any]]:
    """The standings as they stood once the results of rounds 1..`after_round` (every round
    seated, by default) were in: one row a player, best first."""
    created = entries[0]
    points_by_place, players = created["points"], created["players"]
    lowest_wins = GAMES[created["game"]].lowest_wins
    last = after_round if after_round is not None else len(of_type(entries, SEATED))
    played: dict[str, list[dict[str, Any]]] = defaultdict(list)
    results = [r for r in of_type(entries, RESULT) if r["round"] <= last]
    for result in results:
        for name, total, rank in zip(result["players"], result["totals"], result["ranks"],
                                     strict=True):
            played[name].append(_row(result, points_by_place, name, total, rank))
    for seated in of_type(entries, SEATED):
        if seated["round"] <= last:
            for name in seated["byes"]:
                played[name].append({"round": seated["round"], "bye": True,
                                     "points": bye_points(points_by_place)})
    for rows in played.values():
        rows.sort(key=lambda row: row["round"])
    points = {p: sum(row["points"] for row in played[p]) for p in players}
    finished = _finished_by_player(results)
    opponents = {p: _opponents(p, finished[p], points) for p in players}
    own = {p: _own(finished[p], lowest_wins) for p in players}
    level = {p: (points[p], _value(opponents[p]), _value(own[p])) for p in players}
    level_with: dict[tuple[int, int, int], set[str]] = defaultdict(set)
    for p in players:
        level_with[level[p]].add(p)
    tied = {p: _won_against_tied(p, finished[p], level_with[level[p]]) for p in players}
    key = {p: (*level[p], _value(tied[p])) for p in players}
    ordered = sorted(players, key=lambda p: (tuple(-v for v in key[p]), p))
    rank_of = _ranks(ordered, key)
    withdrawn = {e["player"]: e["after_round"] for e in of_type(entries, WITHDRAWN)
                 if e["after_round"] <= last}
    rows = []
    for p in ordered:
        row = {
            "rank": rank_of[p], "player": p, "points": points[p],
            "tie_breaks": [{"name": name, "value": _value(parts), "from": parts}
                           for name, parts in zip(BREAKS, (opponents[p], own[p], tied[p]),
                                                  strict=True)],
            "games": played[p],
        }
        if p in withdrawn:
            row["withdrawn_after_round"] = withdrawn[p]
        rows.append(row)
    return rows


def _row(result: Mapping[str, Any], points_by_place: Sequence[int], name: str, total: int,
         rank: int) -> dict[str, Any]:
    """One player's game: what it scored them, and where that is written."""
    abandoned = result["status"] == ABANDONED_GAME
    return {
        "round": result["round"], "table": result["table"], "game": result["game"],
        "status": result["status"], "rank": rank, "of": len(result["players"]),
        "total": total,
        "points": 0 if abandoned else place_points(points_by_place, len(result["players"]), rank),
        "seq": result["final"]["seq"], "hash": result["final"]["hash"],
        "head": result["head"],
    }


def _finished_by_player(results: Sequence[Mapping[str, Any]]
                        ) -> dict[str, list[tuple[Mapping[str, Any], int]]]:
    """Each player's finished games, as (result, the player's index at its table)."""
    found: dict[str, list[tuple[Mapping[str, Any], int]]] = defaultdict(list)
    for result in results:
        if result["status"] != ABANDONED_GAME:
            for index, player in enumerate(result["players"]):
                found[player].append((result, index))
    return found


def _ranks(ordered: Sequence[str], key: Mapping[str, tuple[int, ...]]) -> dict[str, int]:
    """Competition ranks of players in order: those of one key share the first's place."""
    ranks: dict[str, int] = {}
    for place, p in enumerate(ordered, start=1):
        before = ordered[place - 2] if place > 1 else None
        ranks[p] = ranks[before] if before is not None and key[before] == key[p] else place
    return ranks


def _opponents(player: str, finished: Sequence[tuple[Mapping[str, Any], int]],
               points: Mapping[str, int]) -> list[dict[str, Any]]:
    return [{"game": r["game"], "opponent": o, "points": points[o]}
            for r, _ in finished for o in r["players"] if o != player]


def _own(finished: Sequence[tuple[Mapping[str, Any], int]], lowest_wins: bool
         ) -> list[dict[str, Any]]:
    sign = -1 if lowest_wins else 1
    return [{"game": r["game"], "seq": r["final"]["seq"], "total": r["totals"][i],
             "value": sign * r["totals"][i]}
            for r, i in finished]


def _won_against_tied(player: str, finished: Sequence[tuple[Mapping[str, Any], int]],
                      tied: set[str]) -> list[dict[str, Any]]:
    return [{"game": r["game"], "over": o, "value": 1}
            for r, i in finished
            for j, o in enumerate(r["players"])
            if o != player and o in tied and r["ranks"][i] < r["ranks"][j]]


def _value(parts: Sequence[Mapping[str, Any]]) -> int:
    return sum(part.get("value", part.get("points", 0)) for part in parts)
