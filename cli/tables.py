"""The table drawn in the terminal, for every title, from the views the API serves
(`GET /v1/games/{id}/state`): what a viewer may see and nothing else, hidden values as "?".

Each title's drawing is a module of `cli/drawings/` named after it, built from the helpers here
and found by the title's name; a title with none is drawn from its view alone (`generic`): its
plain values on a line, a column for each value held seat by seat, and the rest as JSON."""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table as Grid
from rich.text import Text

from cli import table_side

View = Mapping[str, Any]
COLOURS = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "V": "violet", "P": "points"}


def shown(value: Any) -> str:
    if value is None:
        return "?"
    if isinstance(value, list):
        return " ".join(map(shown, value)) or "-"
    return str(value)


@dataclass(frozen=True)
class Setting:
    """What a drawing knows besides the view: the players' names, the seats to act, the
    board of a title played on one (`GET /v1/boards/{title}`), and the time now (in
    milliseconds since the epoch) when the view is the present's, not an earlier entry's."""

    players: Sequence[str]
    to_act: Sequence[int]
    board: Mapping[str, Any] | None = None
    now_ms: int | None = None


class Seats:
    """A row per seat, the seats to act marked with a star."""

    def __init__(self, setting: Setting, *columns: str):
        self.setting = setting
        self.grid = Grid("seat", *columns)

    def add(self, seat: int, *cells: Any) -> None:
        mark = " *" if seat in self.setting.to_act else ""
        self.grid.add_row(f"{seat} {self.setting.players[seat]}{mark}", *map(shown, cells))


def line(*parts: Any) -> Text:
    return Text(" · ".join(str(p) for p in parts if p))


def had_none(view: View, setting: Setting) -> list[Text]:
    """A recorded deal's line saying where a seat did not follow a suit (`had_none`), which a
    later card of it may show to be a revoke; nothing while there is none."""
    said = ", ".join(f"{setting.players[v['seat']]} {v['suit']} (entry {v['entry']})"
                     for v in view.get("had_none") or ())
    return [line(f"had none: {said}")] if said else []


def direction(cards: Sequence[str | None]) -> str:
    """A row runs up or down once two of its cards differ; a final card has no number."""
    values = [int(c[1:]) for c in cards if c and c[1:].isdigit()]
    for value in values[1:]:
        if value != values[0]:
            return "↑" if value > values[0] else "↓"
    return "·" if values else ""


def colour_rows(rows: Mapping[str, Sequence[str | None]]) -> str:
    return "\n".join(f"{COLOURS[c]:<6} {direction(cards)} {shown(cards)}"
                     for c, cards in rows.items() if cards) or "-"


def discard_piles(view: View) -> Text:
    piles = ", ".join(f"{COLOURS.get(p, p)} {shown(cards[-1:]) if cards else '-'}"
                      f" ({len(cards)})" for p, cards in view["discards"].items())
    return Text(f"discard piles (top card): {piles}")


def _yours(you: Mapping[str, Any] | None) -> list[RenderableType]:
    """What only the viewer's seat sees: its hand, a choice made in secret."""
    if not you:
        return []
    return [Text(f"your {name.replace('_', ' ')}: {shown(value)}")
            for name, value in you.items() if value not in (None, [], {})]


Draw = Callable[[View, Setting], list[RenderableType]]
_DRAWN_APART = ("you", "table")  # each seat's own part and the table's side: `drawing`


def generic(view: View, setting: Setting) -> list[RenderableType]:
    """A title's table from its view alone: its plain values on one line, every value held seat
    by seat (a list as long as the seats) in a column of the seats' table, the rest as JSON."""
    plain, columns, rest = [], {}, []
    for key, value in view.items():
        name = key.replace("_", " ")
        if key in _DRAWN_APART:
            continue
        if value is None or isinstance(value, str | int | float):
            plain.append(f"{name}: {shown(value)}")
        elif isinstance(value, list) and len(value) == len(setting.players):
            columns[name] = value
        else:
            rest.append(Text(f"{name}: {json.dumps(value, ensure_ascii=False)}"))
    seats = Seats(setting, *columns)
    for seat in range(len(setting.players)):
        seats.add(seat, *(_cell(held[seat]) for held in columns.values()))
    return [line(*plain), *rest, seats.grid]


def _cell(value: Any) -> str:
    """A seat's value: plain, a list of plain values as `shown` says them, else its JSON."""
    items = value if isinstance(value, list) else [value]
    if all(v is None or isinstance(v, str | int | float) for v in items):
        return shown(value)
    return json.dumps(value, ensure_ascii=False)


def drawing_of(title: str) -> Draw:
    """The title's own drawing, `cli/drawings/<title>.py` (`-` written `_`), else `generic`."""
    name = title.replace("-", "_")
    module = f"cli.drawings.{name}"
    if not name.isidentifier() or importlib.util.find_spec(module) is None:
        return generic
    return importlib.import_module(module).draw


def drawing(title: str, state: Mapping[str, Any], setting: Setting, heading: str) -> Panel:
    """The whole table: `state` is the API's state answer (`version`, `to_act`, `state`...)."""
    view = state["state"]
    body = drawing_of(title)(view, setting)
    acting = ", ".join(setting.players[s] for s in setting.to_act) or "nobody"
    footer = Text(f"* to act: {acting}")
    side = table_side.drawn(view.get("table"), setting.players, setting.now_ms)
    return Panel(Group(*body, *side, *_yours(view.get("you")), footer), title=heading,
                 title_align="left", expand=False)
