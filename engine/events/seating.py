"""Seating a round of an event: its table sizes, who sits at which table, in which seat.

Deterministic from the event's seed and its log before the round, so anyone holding both (the
seed is revealed by `event-finished`) seats every round again (`engine.events.evidence`):

1. **Who.** Every player not withdrawn, in an order: for a `swiss` event from round 2 on, by
   the standings after the round before (`engine.events.standings`), players of one rank in
   the order of the seeded shuffle `event-round-<r>`; otherwise (round 1, `round-robin`,
   `open`) in that shuffle's order.
2. **Table sizes** (`table_sizes`): as few tables as hold everyone at most `table_size` each,
   their sizes as equal as they can be (10 players at 4: 4, 3, 3), larger first; sizes never
   go below the title's fewest seats. Only when no such split exists do players sit out a bye,
   as few as make one exist.
3. **Byes** go to the players last in the order who had the fewest byes so far.
4. **Tables**, in order, each taking the first player left (the leader: in a Swiss event the
   best placed left), then one at a time the player who has met those already seated the fewest
   times in earlier rounds, the first in order among equals, looked for among the next
   2 x size players left (`swiss`: leaders stay together) or among all of them
   (`round-robin`: meetings spread as evenly as the greedy choice finds); an `open` event
   takes the players in order. Greedy, like BGA's: it does not promise the fewest repeat
   meetings of all seatings, only that each pick is the fewest it sees.
5. **Seats**: each table's players in the order of the shuffle `event-round-<r>-table-<t>`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any

from engine.events.entries import SEATED, of_type, withdrawn_players
from engine.events.standings import standings
from engine.games import GAMES
from engine.shuffle import shuffle


def table_sizes(players: int, fewest: int, table_size: int) -> tuple[list[int], int]:
    """The sizes of a round's tables, larger first, and how many players sit out a bye."""
    for seated in range(players, 0, -1):
        tables = -(-seated // table_size)
        size, larger = divmod(seated, tables)
        if size >= fewest:
            return [size + 1] * larger + [size] * (tables - larger), players - seated
    return [], players


def seat_round(entries: Sequence[Mapping[str, Any]], round_: int, seed: str
               ) -> tuple[list[list[str]], list[str]]:
    """Round `round_`'s tables (each its players in seat order) and byes, seated from the
    event's log before it (`entries`) and its seed (module docstring)."""
    created = entries[0]
    gone = withdrawn_players(entries)
    active = [p for p in created["players"] if p not in gone]
    drawn = {p: i for i, p in enumerate(shuffle(active, seed, f"event-round-{round_}"))}
    if created["format"] == "swiss" and round_ > 1:
        rank = {row["player"]: row["rank"] for row in standings(entries, round_ - 1)}
        order = sorted(active, key=lambda p: (rank[p], drawn[p]))
    else:
        order = sorted(active, key=drawn.__getitem__)
    fewest = GAMES[created["game"]].spec.seats[0]
    sizes, byes_due = table_sizes(len(order), fewest, created["table_size"])
    seated_before = of_type(entries, SEATED)
    had_byes = Counter(p for s in seated_before for p in s["byes"])
    lowest_first = list(reversed(order))
    byes = sorted(lowest_first, key=lambda p: had_byes[p])[:byes_due]
    left = [p for p in order if p not in byes]
    met = Counter(frozenset(pair) for s in seated_before for t in s["tables"]
                  for pair in combinations(t["players"], 2))
    tables = []
    for size in sizes:
        table, left = _table(left, size, created["format"], met)
        tables.append(table)
    return [shuffle(t, seed, f"event-round-{round_}-table-{n}")
            for n, t in enumerate(tables, start=1)], byes


def _table(left: list[str], size: int, format: str, met: Counter
           ) -> tuple[list[str], list[str]]:
    """One table of `size` taken from the players `left` (in order), and those left after."""
    if format == "open":
        return left[:size], left[size:]
    table, left = [left[0]], left[1:]
    while len(table) < size:
        window = left if format == "round-robin" else left[:2 * size]
        pick = min(range(len(window)), key=lambda i: (
            sum(met[frozenset((window[i], p))] for p in table), i))
        table.append(left.pop(pick))
    return table, left
