"""Keltis card game: the state (each seat's rows, point row and wish stones) and the facts.

Every card laid keeps the log entry that laid it, so the score can name its sources.
"""

from __future__ import annotations

from dataclasses import field

from engine.codec import LATER
from engine.frozen import frozen
from engine.game import Fact, Table
from engine.piles import Piles
from engine.recorded import Ledger


@frozen
class Row:
    """Cards laid in one row, oldest first, with the log entry that laid each."""

    cards: tuple[str, ...]
    events: tuple[int, ...]


@frozen
class Tableau:
    """What one seat has laid in front of itself: colour rows (R Y G B V), points, stones."""

    rows: tuple[Row, ...]
    point_row: Row
    stones: Row  # cards "W5" and the wish moves that took them


@frozen
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
    # A game recorded at a real table (engine.recorded): its cards, each named once; opened by
    # the table's setup entry, which deals the hands face down.
    ledger: Ledger | None = field(default=None, metadata=LATER)


@frozen
class Played(Fact):
    kind = "played"
    seat: int
    card: str
    row: str  # a colour letter, or "points" for the point row


@frozen
class Discarded(Fact):
    kind = "discarded"
    seat: int
    card: str


@frozen
class WishTaken(Fact):
    kind = "wish-taken"
    seat: int
    stone: int
    cards: tuple[str, ...]


@frozen
class Drew(Fact):
    """A card from the deck: only its drawer learns which."""

    kind = "drew"
    hidden = ("card",)
    seat: int
    card: str


@frozen
class DealtFaceDown(Fact):
    """A recorded game's deal at its setup entry: every card face down, counted."""

    kind = "dealt-face-down"
    hand: int
    deck: int
    set_aside: int


@frozen
class DrewUnseen(Fact):
    """A card from the deck of a game recorded at a real table: nobody here saw which."""

    kind = "drew-unseen"
    seat: int


@frozen
class TookDiscard(Fact):
    kind = "took-discard"
    seat: int
    pile: str
    card: str


@frozen
class EndPhaseBegan(Fact):
    kind = "end-phase-began"
    reason: str  # "five-final-rows" or "deck-exhausted"
    order: tuple[int, ...]


@frozen
class Passed(Fact):
    kind = "passed"
    seat: int


@frozen
class GameOver(Fact):
    kind = "game-over"
    totals: tuple[int, ...]
