"""Keltis card game scoring: colour rows by length, the point row, wish stones.

The row table's header "Carte punti" in the original is two headings run together ("cards in
the row" and "points"): it scores colour rows by their number of cards.
"""

from __future__ import annotations

from engine.display import COLOUR_NAMES, COLOURS
from engine.games.keltis_card.state import Tableau
from engine.scoring import Component

_ROW_POINTS = (0, -4, -3, -2, 1, 2, 3, 6, 7, 10)  # by cards in the row; 9 or more: 10
_STONE_POINTS = (-4, -1, 0, 4, 6, 10)  # by stones held; 5 or more: 10


def scale(points: tuple[int, ...], first: int, one: str, many: str) -> str:
    """A table of points by count, said ("1 card -4, 2 cards -3, ..., 9 or more cards 10")."""
    said = [f"{n} {one if n == 1 else many} {p}" for n, p in enumerate(points) if n >= first]
    said[-1] = f"{len(points) - 1} or more {many} {points[-1]}"
    return ", ".join(said)


# The rule of each component, as the spec declares it (`engine.spec.Spec.scoring`).
RULES = {
    "*": "A colour row scores by its number of cards, whatever their values: "
         f"{scale(_ROW_POINTS, 1, 'card', 'cards')}.",
    "point cards": "Each point card laid in the point row scores 1.",
    "wish stones": "Wish stones score by how many a seat took: "
                   f"{scale(_STONE_POINTS, 0, 'stone', 'stones')}.",
}


def row_points(cards: int) -> int:
    return _ROW_POINTS[min(cards, len(_ROW_POINTS) - 1)]


def stone_points(stones: int) -> int:
    return _STONE_POINTS[min(stones, len(_STONE_POINTS) - 1)]


def score_tableau(tableau: Tableau) -> tuple[Component, ...]:
    """One seat's components: each colour row laid, the point row, the wish stones."""
    out = []
    for colour, row in zip(COLOURS, tableau.rows, strict=True):
        n = len(row.cards)
        if n:
            points = row_points(n)
            out.append(
                Component(
                    label=COLOUR_NAMES[colour],
                    detail=f"{n} card{'s' * (n != 1)} in the row: {points}",
                    points=points,
                    round=1,
                    events=row.events,
                )
            )
    n = len(tableau.point_row.cards)
    if n:
        out.append(
            Component(
                label="point cards",
                detail=f"{n} card{'s' * (n != 1)} in the point row, 1 each: {n}",
                points=n,
                round=1,
                events=tableau.point_row.events,
            )
        )
    n = len(tableau.stones.cards)
    points = stone_points(n)
    out.append(
        Component(
            label="wish stones",
            detail=f"{n} wish stone{'s' * (n != 1)}: {points}",
            points=points,
            round=1,
            events=tableau.stones.events,
        )
    )
    return tuple(out)
