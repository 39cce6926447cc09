"""Keltis card game: the state (each seat's rows, point row and wish stones) and the facts.

Every card laid keeps the log entry that laid it, so the score can name its sources.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Fact, Table
from engine.piles import Piles


@dataclass(frozen=True)
class Row:
    """Cards laid in one row, oldest first, with the log entry that laid each."""

    cards: tuple[str, ...]
    events: tuple[int, ...]


@dataclass(frozen=True)
class Tableau:
    """What one seat has laid in front of itself: colour rows (R Y G B V), points, stones."""

    rows: tuple[Row, ...]
    point_row: Row
    stones: Row  # cards "W5" and the wish moves that took them


@dataclass(frozen=True)
class State:
    table: Table
    phase: str
    hands: tuple[tuple[str, ...], ...]
    piles: Piles
    set_aside: tuple[str, ...]
    stones: tuple[int, ...]  # wish stones still in the middle
    tableaux: tuple[Tableau, ...]
    turn: int
    to_draw: int
    end_order: tuple[int, ...]  # seats still to make their end-phase placements, next first
    end_placed: int  # cards the seat at end_order[0] placed so far


@dataclass(frozen=True)
class Played(Fact):
    kind = "played"
    seat: int
    card: str
    row: str  # a colour letter, or "points" for the point row


@dataclass(frozen=True)
class Discarded(Fact):
    kind = "discarded"
    seat: int
    card: str


@dataclass(frozen=True)
class WishTaken(Fact):
    kind = "wish-taken"
    seat: int
    stone: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Drew(Fact):
    """A card from the deck: only its drawer learns which."""

    kind = "drew"
    hidden = ("card",)
    seat: int
    card: str


@dataclass(frozen=True)
class TookDiscard(Fact):
    kind = "took-discard"
    seat: int
    pile: str
    card: str


@dataclass(frozen=True)
class EndPhaseBegan(Fact):
    kind = "end-phase-began"
    reason: str  # "five-final-rows" or "deck-exhausted"
    order: tuple[int, ...]


@dataclass(frozen=True)
class Passed(Fact):
    kind = "passed"
    seat: int


@dataclass(frozen=True)
class GameOver(Fact):
    kind = "game-over"
    totals: tuple[int, ...]
