"""The one small interface every game implements, and the values that cross it.

A game package under `engine/games/<title>/` exposes one `Game`, which declares its `spec`
(`engine.spec`: seats, options, move shapes, sentences) and writes only what differs from the
defaults here. The service and the workers only ever talk to games through it, and everything
else about a title is derived from its spec, so adding a game touches no file outside its
package (and its tests).

Conventions shared by every game:
- A move is the JSON object a client posts (`{"type": "take", "row": 2}`); `apply` validates it
  completely and raises `IllegalMove` for anything the rules forbid, malformed input included.
- A fact is what an accepted move produced (a card drawn, a trick won, a seal returned). Facts
  are frozen dataclasses (`Fact`); a fact whose fields only one seat may see names that seat in
  `seat` and the private fields in its class attribute `hidden` (see `engine.visibility`).
- A viewer is a seat number, `SPECTATOR` or `TABLE` (the scorekeeper, who sees everything).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any, ClassVar, NamedTuple

from engine import codec
from engine.frozen import field_names, frozen
from engine.scoring import Score
from engine.shuffle import shuffle
from engine.spec import BadPlayerCount as BadPlayerCount  # raised by the spec's checks,
from engine.spec import BadSetup as BadSetup  # named here with the engine's other errors
from engine.spec import Spec, check_seats, filled_options

SPECTATOR = "spectator"
TABLE = "table"
Viewer = int | str


class IllegalMove(Exception):
    """A move the rules forbid: `code` is stable kebab-case, `detail` names the rule broken."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code = code
        self.detail = detail


class MoveAfterEnd(IllegalMove):
    """Any move once the game is over, whoever refuses it (the web, or the judge)."""

    def __init__(self) -> None:
        super().__init__("game-finished", "the game is over: no more moves are taken")


# Values a fact's JSON holds as they are: most fields, told apart without the checks of _plain.
_SCALARS = frozenset((str, int, bool, type(None)))


@frozen
class Fact:
    """Something an accepted move made happen, recorded in the log so a replay reads alone."""

    kind: ClassVar[str] = "fact"
    hidden: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        for name in field_names(type(self)):
            value = getattr(self, name)
            out[name] = value if type(value) in _SCALARS else _plain(value)
        if self.hidden:
            out["hidden"] = list(self.hidden)
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [v if type(v) in _SCALARS else _plain(v) for v in value]
    if is_mapping(value):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


@frozen
class Dealt(Fact):
    """A seat's new hand, dealt during the game: for that seat's eyes only."""

    kind = "dealt"
    hidden = ("cards",)
    seat: int
    cards: tuple[str, ...]


def is_mapping(value: Any) -> bool:
    """isinstance(value, Mapping), answered at once for the dicts that moves parsed from JSON
    are: the ABC check runs Python code, and every move is checked."""
    return type(value) is dict or isinstance(value, Mapping)


def move_type(move: Any, over: bool) -> Any:
    """The `type` of a posted move, after the checks every game makes first."""
    if over:
        raise MoveAfterEnd()
    if not is_mapping(move):
        raise IllegalMove("malformed-move", 'a move is an object with a "type"')
    return move.get("type")


def require_turn(seat: int, turn: int) -> None:
    if seat != turn:
        raise IllegalMove("not-your-turn", f"it is seat {turn}'s turn, not seat {seat}'s")


@frozen
class Table:
    """What every deal of a game is made from: seat count, options, the seed and explicit decks
    (or, in a recorded game, nothing but the table's word).

    The seed is secret until the game ends; it lives here so that later deals of a match can be
    shuffled from it, and no view ever shows it.
    """

    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: str = ""
    decks: tuple[tuple[str, ...], ...] = ()
    # What the seed chose besides the decks, when a replay shows them instead of the seed.
    choices: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    # A deal recorded at a real table (`engine.recorded`): nothing is dealt from the seed, and
    # each card enters the game when the table names it.
    recorded: bool = field(default=False, metadata=codec.LATER)

    def deck(self, deal: int, canonical: tuple[str, ...]) -> tuple[str, ...]:
        """The deck of deal `deal` (1-based), top card first: explicit if given, else shuffled."""
        if deal <= len(self.decks):
            return self.decks[deal - 1]
        return tuple(shuffle(canonical, self.seed, f"deal-{deal}"))

    def shuffled(self, items: tuple[Any, ...], label: str) -> tuple[Any, ...]:
        """Any other random choice of a game, under its own documented label."""
        if label in self.choices:
            return tuple(self.choices[label])
        return tuple(shuffle(items, self.seed, label))


def compose_view(
    public: dict[str, Any],
    private: list[dict[str, Any]],
    undealt: dict[str, Any],
    viewer: Viewer,
) -> dict[str, Any]:
    """Every game's view has one shape: what all may see, plus what this viewer may see.

    A seat gets its own secrets under `you` (its hand, its unrevealed choices); the table
    gets every seat's under `private` and the undealt cards (`undealt`, e.g. the deck order);
    a spectator gets the public part alone. The conformance test checks exactly this shape.
    """
    if viewer == TABLE:
        return {**public, "private": private, **undealt}
    if isinstance(viewer, int):
        return {**public, "you": private[viewer]}
    return dict(public)


class Outcome(NamedTuple):
    """What an accepted move made: the next state and its facts. A named tuple, since every
    move makes one and a tuple is cheaper to make than a frozen dataclass."""

    state: Any
    facts: tuple[Fact, ...]


class Game:
    """What a game package provides. States are frozen dataclasses the codec can round-trip.

    A game sets `spec`, `rules_version`, `lowest_wins` and `state_type`, and writes the rules
    below; the rest has defaults: options checked and filled from the spec, no board, no move
    kept secret once accepted.
    """

    spec: ClassVar[Spec]
    rules_version: ClassVar[str]
    lowest_wins: ClassVar[bool]
    state_type: ClassVar[type]

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def seat_counts(self) -> tuple[int, ...]:
        return self.spec.seat_counts

    def options(self, seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options with defaults filled in; BadPlayerCount for a seat count the game is not
        played by, BadSetup for unknown or invalid options (all as the spec declares)."""
        check_seats(self.spec, seats)
        return filled_options(self.spec, seats, options)

    def canonical_deck(self, seats: int, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The unshuffled deck of one deal, which explicit decks must be a permutation of."""
        raise NotImplementedError

    def deal(self, table: Table) -> Any:
        """The state before the first move."""
        raise NotImplementedError

    def to_act(self, state: Any) -> tuple[int, ...]:
        """The seats the game waits for: one, or several for a simultaneous choice."""
        raise NotImplementedError

    def round(self, state: Any) -> int:
        """The current round, deal or hand, from 1."""
        raise NotImplementedError

    def is_over(self, state: Any) -> bool:
        raise NotImplementedError

    def legal_moves(self, state: Any, seat: int) -> tuple[dict[str, Any], ...]:
        """Every move `seat` may post now, each exactly as it would be posted."""
        raise NotImplementedError

    def table_moves(self, state: Any, seat: int) -> tuple[dict[str, Any], ...]:
        """The legal moves of `seat` as the table offers them. The table sees what every seat
        chose face down, so a title may leave out a move such a choice already rules out (a
        card another seat chose); `legal_moves`, which a seat is told, must not depend on what
        that seat cannot see."""
        return self.legal_moves(state, seat)

    def apply(self, state: Any, seat: int, move: Mapping[str, Any], seq: int) -> Outcome:
        """The state after `seat` made `move` as log entry `seq`, or IllegalMove."""
        raise NotImplementedError

    def view(self, state: Any, viewer: Viewer) -> dict[str, Any]:
        """The state as `viewer` may see it: JSON-ready, holding nothing hidden from them."""
        raise NotImplementedError

    def score(self, state: Any) -> Score:
        """The score so far with provenance; final once the game is over."""
        raise NotImplementedError

    def started(self, state: Any, at: str) -> Any:
        """The dealt state once the game is created at `at` (its first entry's time): a turn
        clock starts then (`engine.table_actions`). Kept out of the deal's `Table`, which some
        states hold and every stored state would then change."""
        return state

    def status(self, state: Any) -> str:
        """"in-progress", "finished", or (at a table) "abandoned"."""
        return "finished" if self.is_over(state) else "in-progress"

    def judge(self, state: Any, submission: Mapping[str, Any], line: Any = None) -> Outcome:
        """The outcome of a submission entry (`seat`, `move`, `seq`, `at`), or IllegalMove.
        At a table (`engine.table_actions`) a takeback also needs the fold's `line`."""
        return self.apply(state, submission["seat"], submission["move"], submission["seq"])

    def encode(self, state: Any) -> Any:
        """The state as the projections keep it: a value orjson writes as its JSON (dataclasses
        as their fields in order; `codec.encode` gives the same as plain JSON)."""
        return state

    def decode(self, stored: Any) -> Any:
        return codec.decode(self.state_type, stored)

    def board(self) -> dict[str, Any] | None:
        """The game's board as data for clients to draw, or None for games without one."""
        return None

    def recorded_setup(self, state: Any) -> dict[str, Any] | None:
        """The `setup` entry a table records for `state`, a seeded deal just dealt: what its
        setup lays face up (`engine.recorded`). None: nothing to record."""
        return None

    def recorded_moves(self, seat: int | str, move: Mapping[str, Any],
                       effects: list[dict[str, Any]]) -> tuple[tuple[int | str, Any], ...]:
        """The submissions (seat or TABLE, move) a table posts to record `move`, accepted in
        a seeded game with these `effects`: the cards it brought into view named, and the
        setup of a deal it began."""
        return ((seat, move),)

    def is_secret(self, move: Mapping[str, Any]) -> bool:
        """Whether a move stays for its own seat's eyes while the game runs even once accepted
        (a simultaneous choice, a card laid face down). Every move is its seat's own until
        accepted, since a refused one may name a card in hand."""
        return False
