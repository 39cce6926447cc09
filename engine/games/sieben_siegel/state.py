"""Die sieben Siegel: the cards and seals, the state of a round, and the facts moves record.

Every seal in front of a seat keeps the log entries that left it there (the prediction that
took it, the prediction that handed a white seal over in exchange, the trick that brought a
black seal), so the score can name the sources of every penalty point.
"""

from __future__ import annotations

import functools
from dataclasses import field

from engine.codec import LATER
from engine.frozen import frozen
from engine.game import Fact, Table
from engine.recorded import Follows, Ledger
from engine.scoring import Component

COLOURS = ("R", "Y", "G", "B", "V")
TRUMP = "R"
SEAL_OF = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "V": "violet"}
COLOUR_SEALS = tuple(SEAL_OF.values())
WHITE = "white"
BLACK = "black"
SEALS = (*COLOUR_SEALS, WHITE, BLACK)
# The published rule book's split of the 27 seals (the translation gives no breakdown).
SEAL_COUNTS = dict(zip(SEALS, (5, 3, 3, 3, 3, 4, 6), strict=True))
HAND_SIZE = 15
SABOTEUR_BASE = 4  # the saboteur's penalty before black seals reduce it; option saboteur_max
HIGHEST_VALUE = {3: 9, 4: 12, 5: 15}

PREDICT = "predict"
TRICK = "trick"
RETURN = "return"
OVER = "over"


def colour_of(card: str) -> str:
    return card[0]


def value_of(card: str) -> int:
    return int(card[1:])


@functools.cache
def canonical(seats: int) -> tuple[str, ...]:
    """Colour by colour R, Y, G, B, V, values ascending: 45, 60 or 75 cards."""
    top = HIGHEST_VALUE[seats]
    return tuple(f"{c}{v}" for c in COLOURS for v in range(1, top + 1))


@functools.cache
def card_set(seats: int) -> frozenset[str]:
    """The cards of `canonical(seats)`, for checking a named card at every play."""
    return frozenset(canonical(seats))


@frozen
class Seal:
    kind: str
    events: tuple[int, ...]


@frozen
class Played:
    seat: int
    card: str


@frozen
class State:
    table: Table
    round: int
    first: int  # the seat that predicts first and leads the first trick of this round
    phase: str  # predict, trick, return (the winner chooses a seal), over
    turn: int
    hands: tuple[tuple[str, ...], ...]
    acted: tuple[int, ...]  # seats that predicted or took the saboteur, in order
    saboteur: int | None
    saboteur_event: int | None
    seals: tuple[tuple[Seal, ...], ...]
    trick: tuple[Played, ...]
    last_trick: tuple[Played, ...]
    tricks_won: tuple[int, ...]
    choice: tuple[str, ...]  # the fitting seals the trick's winner holds, while phase is return
    scored: tuple[tuple[Component, ...], ...]  # per seat, the components of finished rounds
    # A round recorded at a real table (engine.recorded): its cards, each named as it is
    # played from a hand of unknown cards (unopened until the table's setup entry), and what
    # its plays proved about following suit.
    ledger: Ledger | None = field(default=None, metadata=LATER)
    follows: Follows | None = field(default=None, metadata=LATER)


# -- facts -----------------------------------------------------------------------------------


@frozen
class RoundStarted(Fact):
    kind = "round-started"
    round: int
    first_seat: int


@frozen
class Predicted(Fact):
    """The seals a seat took for its prediction (none: it expects no trick)."""

    kind = "predicted"
    seat: int
    seals: tuple[str, ...]


@frozen
class SealTakenFrom(Fact):
    """The supply lacked `seal`: `seat` took it from `from_seat`, which got a white seal."""

    kind = "seal-taken-from"
    seat: int
    seal: str
    from_seat: int


@frozen
class SaboteurTaken(Fact):
    kind = "saboteur-taken"
    seat: int


@frozen
class CardPlayed(Fact):
    kind = "played"
    seat: int
    card: str


@frozen
class TrickWon(Fact):
    kind = "trick-won"
    seat: int
    trick: int
    led: str
    cards: tuple[str, ...]


@frozen
class SealReturned(Fact):
    kind = "seal-returned"
    seat: int
    seal: str


@frozen
class BlackSealTaken(Fact):
    kind = "black-seal-taken"
    seat: int


@frozen
class NoBlackSealLeft(Fact):
    """The winner had no fitting seal but all six black seals are out: he takes nothing."""

    kind = "no-black-seal-left"
    seat: int


@frozen
class SealChoice(Fact):
    """The winner holds several fitting seals: the game waits for his `return` move."""

    kind = "seal-choice"
    seat: int
    seals: tuple[str, ...]


@frozen
class RoundScored(Fact):
    kind = "round-scored"
    round: int
    points: tuple[int, ...]
