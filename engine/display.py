"""Colour rows of the Keltis games (the card game and the board game): what may follow what.

A row is a plain tuple of card codes in the order they were laid, oldest first (the last one is
on top). Callers keep their rows however they like and pass the codes in; every function here
is pure and derives everything from the cards, so removing the top card of a row (the board
game's discard tile: `without_top`) simply re-derives the direction from the cards that remain.

Card codes (docs/api.md, Titles, cards and moves): colours `R Y G B V`; numbered cards
`X0`..`X10`; final cards `XF` (the card game); point cards `P0`..`P10` (the card game; their
colour is none, their value the grey corner number). Games without finals or point cards simply
never pass them.

API:
- `colour_of(card)` -> colour letter or None (point cards); `value_of(card)` -> int or None
  (finals); `is_final(card)`, `is_point(card)`, `is_numbered(card)`; `COLOUR_NAMES`.
- `direction(row)` -> `OPEN`, `ASCENDING` or `DESCENDING`: open while every numbered card has
  the same value; the first numbered card of a different value fixes it (higher: ascending,
  lower: descending). Equal values are always allowed, so a row begun with 0 can only rise and
  one begun with 10 only fall.
- `last_value(row)` -> value of the last numbered card, or None.
- `finals(row)` -> number of final cards; `has_final(row)`; `is_closed(row)` -> True once two
  finals lie in it.
- `check_follow(row, colour, card)` -> None, or raises `IllegalMove` naming the rule;
  `may_follow(...)` -> bool. Codes: `wrong-row` (a coloured card of another colour),
  `row-direction`, `after-final` (only the second final may follow a final), `row-closed`,
  `point-card-value` (a point card needs a last numbered card of its value).
- `without_top(row)` -> the row with its top card removed.
"""

from __future__ import annotations

from engine.game import IllegalMove

COLOURS = ("R", "Y", "G", "B", "V")
COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "V": "violet"}
POINT = "P"
FINAL = "F"
OPEN = "open"
ASCENDING = "ascending"
DESCENDING = "descending"

Row = tuple[str, ...]
_FINAL_CARDS = frozenset(f"{c}{FINAL}" for c in COLOURS)


def colour_of(card: str) -> str | None:
    return card[0] if card[:1] in COLOURS else None


def is_final(card: str) -> bool:
    return card in _FINAL_CARDS


def is_point(card: str) -> bool:
    return card[:1] == POINT and card[1:].isdigit()


def is_numbered(card: str) -> bool:
    return colour_of(card) is not None and card[1:].isdigit()


def value_of(card: str) -> int | None:
    """The number of a numbered card or the grey corner number of a point card; None else."""
    return int(card[1:]) if (is_numbered(card) or is_point(card)) else None


def numbered_values(row: Row) -> tuple[int, ...]:
    return tuple(int(c[1:]) for c in row if is_numbered(c))


def direction(row: Row) -> str:
    return _direction(numbered_values(row))


def _direction(values: tuple[int, ...]) -> str:
    for value in values[1:]:
        if value != values[0]:
            return ASCENDING if value > values[0] else DESCENDING
    return OPEN


def last_value(row: Row) -> int | None:
    values = numbered_values(row)
    return values[-1] if values else None


def finals(row: Row) -> int:
    return sum(map(_FINAL_CARDS.__contains__, row))


def has_final(row: Row) -> bool:
    # Asked of every row on the table after every card used (the card game's end check), so
    # answered by one set operation rather than a look at each card.
    return not _FINAL_CARDS.isdisjoint(row)


def is_closed(row: Row) -> bool:
    return finals(row) >= 2


def without_top(row: Row) -> Row:
    return row[:-1]


def may_follow(row: Row, colour: str, card: str) -> bool:
    try:
        check_follow(row, colour, card)
    except IllegalMove:
        return False
    return True


def check_follow(row: Row, colour: str, card: str) -> None:
    """Raise IllegalMove unless `card` may be laid on the `colour` row `row`."""
    name = COLOUR_NAMES[colour]
    own = colour_of(card)
    if own is not None and own != colour:
        raise IllegalMove(
            "wrong-row",
            f"a coloured card goes only into the row of its own colour: {card} is"
            f" {COLOUR_NAMES[own]}, not {name}",
        )
    # Most rows hold no final: one set operation tells, before the finals are counted.
    if has_final(row):
        if is_closed(row):
            raise IllegalMove(
                "row-closed", f"the {name} row is closed: its second final card ended it for good"
            )
        if not is_final(card):
            raise IllegalMove(
                "after-final",
                f"the {name} row has a final card: only the second {name} final card may"
                " follow it",
            )
        return
    if is_final(card):
        return
    if is_point(card):
        _check_point(row, name, card)
        return
    _check_numbered(row, name, int(card[1:]))


def _check_point(row: Row, name: str, card: str) -> None:
    last = last_value(row)
    if last is None:
        raise IllegalMove(
            "point-card-value",
            f"a point card joins a colour row only on a numbered card of its value: the {name}"
            " row has no numbered card",
        )
    if last != value_of(card):
        raise IllegalMove(
            "point-card-value",
            f"a point card joins a colour row only on a numbered card of its value: the last"
            f" numbered card of the {name} row is {last}, not {value_of(card)}",
        )


def _check_numbered(row: Row, name: str, value: int) -> None:
    values = numbered_values(row)
    way = _direction(values)
    if way == ASCENDING and value < max(values):
        raise IllegalMove(
            "row-direction",
            f"the {name} row is ascending: {value} is below its highest card {max(values)}",
        )
    if way == DESCENDING and value > min(values):
        raise IllegalMove(
            "row-direction",
            f"the {name} row is descending: {value} is above its lowest card {min(values)}",
        )
