"""What a game declares about itself, once, as data: its spec.

As OpenSpiel's `GameType` does, each game states here its name, how many seats it takes, its
options with their defaults and bounds, the shape of every move a client may post, how a move
and each fact read as a sentence, and whether it is played on a board. Everything outside the
game's package is derived from the spec: the move schemas and the option checks of the web, the
API document, the title lists and sentences of the command line and of the pages (which read it
from `GET /v1/titles`). So no file outside `engine/games/<title>/` names a title.

Sentences are templates, rendered by one small rule written twice (`engine.sentences` for the
command line, `service/static/js/sentences.js` for the pages; a test holds them to the same
text):
- `{name}` is the field `name` of the move or fact, said plainly (a list as "a, b", a map as
  "k v, k v", a flag as "yes"/"no", null as "(hidden)"); `{name:how}` says it in one of a few
  ways: `seat` (the player at that seat, "nobody" for null, "the table" for a seat that is no
  number), `seats` (a list of seats as "ann, bob"), `each` (a list by seat as "ann 23, bob
  31"), `card` ("a hidden card" for null), `pile` ("the deck", or "the R pile"), `plus` (a list
  as "a + b"), `counts` (a map as "2 red, 1 blue"), `sources` (a map of seat lists as "red from
  bob, cy; blue from ann"), `words` ("deck-exhausted" as "deck exhausted"). `{?name}` says
  nothing: it only makes the section it stands in depend on `name`.
- `[...]` is said only when every field it names is there (not null, false, "" or empty);
  `[...|...]` says its second part otherwise.
- Every fact kind a game records has a template (a test holds every golden replay to it). A
  template whose fields outside any section are missing is not used: the fact reads
  generically (its seat, its kind, the fields that hold something), and a move as its type
  and fields in words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, field
from typing import Any

from engine.frozen import frozen


@frozen
class Option:
    """A game option: its default, and the values it may take.

    `kind` is "int" (a whole number from `low` to `high`), "bool", or "choice" (one of
    `choices`, of their exact type). An option with `seats` applies only to those seat counts:
    given for another it is refused with `not_for`, and its value is null. `nullable` lets a
    client send null for the default; `defaults` are defaults by seat count.
    """

    name: str
    about: str
    default: Any = None
    kind: str = "int"
    low: int | None = None
    high: int | None = None
    choices: tuple[Any, ...] = ()
    nullable: bool = False
    seats: tuple[int, ...] = ()
    not_for: str = ""
    defaults: Mapping[int, Any] = field(default_factory=dict)

    def default_for(self, seats: int) -> Any:
        if self.seats and seats not in self.seats:
            return None
        return self.defaults.get(seats, self.default)


@frozen
class Field:
    """One field of a posted move: "int" (strict, from `low` to `high`), "str" (of
    `shortest`..`longest` characters, or one of `choices`), "list" (of `items`, `shortest` to
    `longest` long) or "map" (`keys` to `items`)."""

    kind: str
    required: bool = True
    low: int | None = None
    high: int | None = None
    shortest: int | None = None
    longest: int | None = None
    choices: tuple[str, ...] = ()
    items: Field | None = None
    keys: Field | None = None


@frozen
class Move:
    """The shape of one move type: its fields by the names a client posts them under."""

    type: str
    fields: Mapping[str, Field] = field(default_factory=dict)


@frozen
class Spec:
    """A game's declaration: see the module's docstring. `seats` is (fewest, most); `says`
    holds a sentence template per move type and `facts` one per fact kind; `board` says the
    game is drawn on a board served at `GET /v1/boards/{name}`; `cards` says, by card code, what
    a card face shows when its code does not say it (a Decktet card's rank and suits), so the
    pages draw faces from the rules' own data. `scoring` says, by component label, the rule
    that scores such a component, a sentence a breakdown shows beside it (`rule_of` finds it: a
    label itself, else the longest pattern `prefix*` it starts with); `dealt` says what the
    setup (entry 1) brings a component that cites it, a template of its `seat` and `label`;
    `recorded` says its games may be dealt at a real table (`engine.recorded`), the shape of
    their `setup` entry being among `moves`."""

    name: str
    seats: tuple[int, int]
    moves: tuple[Move, ...]
    says: Mapping[str, str]
    facts: Mapping[str, str]
    options: tuple[Option, ...] = ()
    board: bool = False
    cards: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    scoring: Mapping[str, str] = field(default_factory=dict)
    dealt: str = ""
    recorded: bool = False

    @property
    def seat_counts(self) -> tuple[int, ...]:
        return tuple(range(self.seats[0], self.seats[1] + 1))

    def to_json(self) -> dict[str, Any]:
        """The spec as `GET /v1/titles` serves it (moves by type, defaults by seat count)."""
        out = asdict(self)
        out["moves"] = {m.type: _fields_json(m.fields) for m in self.moves}
        for option in out["options"]:
            option["defaults"] = {str(n): v for n, v in option["defaults"].items()}
        return out


def rule_of(scoring: Mapping[str, str], label: str) -> str:
    """The sentence of `scoring` (a spec's, or its served form) for a component labelled
    `label`: the label's own, else the longest `prefix*` pattern it starts with ("" if none)."""
    if label in scoring:
        return scoring[label]
    fitting = [p for p in scoring if p.endswith("*") and label.startswith(p[:-1])]
    return scoring[max(fitting, key=len)] if fitting else ""


def _fields_json(fields: Mapping[str, Field]) -> dict[str, Any]:
    return {name: asdict(f) for name, f in fields.items()}


# -- the usual fields ----------------------------------------------------------------------------

INDEX = Field("int", low=0)  # a row, group or seat number
CARD = Field("str", shortest=2, longest=3)  # a card code: "R7", "XF", "P10"


def one_of(*choices: str, required: bool = True) -> Field:
    return Field("str", required=required, choices=choices)


# -- options -------------------------------------------------------------------------------------


class BadSetup(ValueError):
    """Options, player count or explicit decks that no game of this kind can be dealt from."""


class BadPlayerCount(BadSetup):
    """A seat count the game is not played by."""


def check_seats(spec: Spec, seats: int) -> None:
    if seats not in spec.seat_counts:
        low, high = spec.seats
        raise BadPlayerCount(f"{spec.name} is for {low} to {high} players")


def filled_options(spec: Spec, seats: int, given: Mapping[str, Any]) -> dict[str, Any]:
    """`given` checked against the spec's options, with defaults filled in, in declared order;
    BadSetup names the first option at fault."""
    known = {o.name for o in spec.options}
    unknown = sorted(set(given) - known)
    if unknown:
        raise BadSetup(f"{spec.name} has no option {unknown[0]!r}")
    return {o.name: _option_value(o, seats, given) for o in spec.options}


def _option_value(option: Option, seats: int, given: Mapping[str, Any]) -> Any:
    value = given.get(option.name)
    if option.name not in given or (value is None and option.nullable):
        return option.default_for(seats)
    if option.seats and seats not in option.seats:
        raise BadSetup(option.not_for)
    if not _fits(option, value):
        raise BadSetup(f"{option.name} must be {_allowed(option)}")
    return value


def _fits(option: Option, value: Any) -> bool:
    if option.kind == "bool":
        return type(value) is bool
    if option.kind == "choice":
        return any(type(value) is type(c) and value == c for c in option.choices)
    return type(value) is int and option.low <= value <= option.high


def _allowed(option: Option) -> str:
    if option.kind == "bool":
        return "true or false"
    if option.kind == "int":
        return f"a whole number from {option.low} to {option.high}"
    said = [str(c) for c in option.choices]
    listed = f"{', '.join(said[:-1])} or {said[-1]}"
    return f"one of {listed}" if len(said) > 2 else listed
