"""Keltis "Neue Wege, neue Ziele": the state of a game and the facts its moves produce.

Everything here is a frozen dataclass of tuples, round-tripped by engine/codec.py. Points keep
the log entry that produced them (`moves`, `event`) so the score can name its provenance.
"""

from __future__ import annotations

from dataclasses import field

from engine.codec import LATER
from engine.frozen import frozen
from engine.game import Fact, Table
from engine.games.keltis_nwnz.board import COLOURS
from engine.piles import Piles
from engine.recorded import Ledger

PAWNS = ("s1", "s2", "s3", "s4", "big")
BIG = "big"
CLOVER = "clover"
DISCARD = "discard"
POINTS = {"points-2": 2, "points-3": 3}
WISH = tuple(f"wish-{c}" for c in COLOURS)
# The order shuffled under the label `tiles`: as the rules list the tiles.
TILES = (*[CLOVER] * 5, *WISH, *["points-2"] * 5, *["points-3"] * 2, *[DISCARD] * 5)

PLAY, CLOVER_DUE, DISCARD_DUE, DRAW = "play", "clover", "discard-tile", "draw"


@frozen
class Pawn:
    name: str
    cell: str
    moves: tuple[int, ...]  # the log entries that moved it


@frozen
class Stone:
    """A wish stone held, from a path tile or a stack, and the log entry that took it."""

    colour: str
    cell: str
    event: int


@frozen
class Award:
    """Points of a point tile, scored at once on arrival."""

    points: int
    cell: str
    event: int


@frozen
class Player:
    hand: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]  # display rows in R Y G B V order
    pawns: tuple[Pawn, ...]
    stones: tuple[Stone, ...]
    awards: tuple[Award, ...]


@frozen
class PathTile:
    cell: str
    tile: str
    taken_by: int | None  # only wish-stone tiles are ever taken


@frozen
class State:
    table: Table
    piles: Piles
    set_aside: tuple[str, ...]
    players: tuple[Player, ...]
    tiles: tuple[PathTile, ...]
    stacks: tuple[int, ...]  # stones left per colour, R Y G B V
    turn: int
    phase: str
    due_at: str | None  # the cell whose tile demands the pending follow-up
    over: bool
    ended_by: str | None
    # A game recorded at a real table (engine.recorded): its cards, each named once; opened by
    # the table's setup entry, which lays the path tiles and deals the hands face down.
    ledger: Ledger | None = field(default=None, metadata=LATER)


@frozen
class Moved(Fact):
    kind = "moved"
    seat: int
    pawn: str
    origin: str
    to: str
    card: str


@frozen
class CloverMoved(Fact):
    kind = "clover-moved"
    seat: int
    pawn: str
    origin: str
    to: str


@frozen
class Discarded(Fact):
    kind = "discarded"
    seat: int
    card: str
    source: str  # "hand" or the colour of the display row


@frozen
class TilePoints(Fact):
    kind = "tile-points"
    seat: int
    cell: str
    points: int


@frozen
class StoneTaken(Fact):
    kind = "wish-stone-taken"
    seat: int
    cell: str
    colour: str
    source: str  # "tile" or "stack"


@frozen
class FollowUpDue(Fact):
    """A clover or discard tile was reached; `idle` when there was nothing it could act on."""

    kind = "tile-action"
    seat: int
    cell: str
    tile: str
    idle: bool


@frozen
class DrewFromDeck(Fact):
    kind = "drew"
    hidden = ("card",)
    seat: int
    source: str
    card: str


@frozen
class DrewFromPile(Fact):
    kind = "drew"
    seat: int
    source: str
    card: str


@frozen
class DrewUnseen(Fact):
    """A card from the deck of a game recorded at a real table: nobody here saw which."""

    kind = "drew-unseen"
    seat: int


@frozen
class TilesLaid(Fact):
    """A recorded game's setup entry: the path tiles it named laid on the board, and every
    card dealt face down, counted."""

    kind = "tiles-laid"
    tiles: int
    hand: int
    deck: int
    set_aside: int


@frozen
class GameEnded(Fact):
    kind = "game-ended"
    reason: str  # "goal-zone" or "deck"
