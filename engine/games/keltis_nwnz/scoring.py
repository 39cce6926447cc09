"""Keltis "Neue Wege, neue Ziele": final scoring with provenance.

Each pawn scores its cell's value (the big pawn double, negatives too; the start stone 0);
point tiles were scored during play; wish stones score by their number of colours, plus 10 for
each colour held three or more times (a stone counts for both).
"""

from __future__ import annotations

from engine.games.keltis_nwnz.board import COLOUR_NAMES, COLOURS, Board
from engine.games.keltis_nwnz.state import BIG, Pawn, Player
from engine.scoring import Component

_COLOURS_POINTS = (-4, -3, 2, 3, 6, 10)
_SET_SIZE = 3
_SET_POINTS = 10


# The rule of each component, as the spec declares it (`engine.spec.Spec.scoring`).
RULES = {
    "pawn *": "Each pawn scores the value of the cell it ends on, negative values too (the big"
              " pawn doubles it; on the start stone 0).",
    "point tiles": "A point tile scores its points when a pawn lands on its cell, during play.",
    "wish-stone colours": "Wish stones score by their number of different colours: "
                          + ", ".join(f"{n} {p}" for n, p in enumerate(_COLOURS_POINTS)) + ".",
    "wish-stone set *": f"Each colour held {_SET_SIZE} times or more scores {_SET_POINTS} more"
                        " (its stones count for their colours too).",
}


def stone_points(colours: int) -> int:
    """-4/-3/2/3/6/10 for 0..5 different wish-stone colours."""
    return _COLOURS_POINTS[colours]


def score_player(board: Board, player: Player) -> tuple[Component, ...]:
    """A seat's components: each pawn by its cell, point tiles, wish-stone colours and sets."""
    components = []
    for pawn in player.pawns:
        components.append(_pawn_component(board, pawn))
    if player.awards:
        total = sum(a.points for a in player.awards)
        parts = " + ".join(f"{a.points} on {a.cell}" for a in player.awards)
        components.append(
            Component(
                label="point tiles",
                detail=f"scored during play: {parts} = {total}",
                points=total,
                round=1,
                events=tuple(a.event for a in player.awards),
            )
        )
    held = [c for c in COLOURS if any(s.colour == c for s in player.stones)]
    named = ", ".join(COLOUR_NAMES[c] for c in held) or "none"
    points = stone_points(len(held))
    components.append(
        Component(
            label="wish-stone colours",
            detail=f"{len(held)} colour{'s' * (len(held) != 1)} ({named}): {points}",
            points=points,
            round=1,
            events=tuple(s.event for s in player.stones),
        )
    )
    for colour in held:
        stones = [s for s in player.stones if s.colour == colour]
        if len(stones) >= _SET_SIZE:
            components.append(
                Component(
                    label=f"wish-stone set {colour}",
                    detail=f"{len(stones)} {COLOUR_NAMES[colour]} stones, a set of three or"
                    f" more: {_SET_POINTS}",
                    points=_SET_POINTS,
                    round=1,
                    events=tuple(s.event for s in stones),
                )
            )
    return tuple(components)


def _pawn_component(board: Board, pawn: Pawn) -> Component:
    value = board.value(pawn.cell)
    factor = 2 if pawn.name == BIG else 1
    if pawn.cell == board.start:
        where = "on the start stone"
    else:
        where = f"on {pawn.cell} (row {board.cell(pawn.cell).row}, value {value})"
    doubled = ", doubled for the big pawn" if factor == 2 else ""
    return Component(
        label=f"pawn {pawn.name}",
        detail=f"{where}{doubled}: {value * factor}",
        points=value * factor,
        round=1,
        events=pawn.moves,
    )
