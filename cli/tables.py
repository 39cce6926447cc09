"""The table drawn in the terminal, for every title, from the views the API serves
(`GET /v1/games/{id}/state`): what a viewer may see and nothing else, hidden values as "?".

Each title's drawing is `terminal.py` in its package (`engine/games/<title>/`), as `table.js`
is its drawing for the pages: code of the command line's, which the engine never imports, built
from the helpers here. A title this client does not hold is shown as its view's JSON rather
than not at all."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cli import table_side
from engine.games import PACKAGES

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

    def __init__(self, at: Setting, *columns: str):
        self.at = at
        self.table = Table("seat", *columns)

    def add(self, seat: int, *cells: Any) -> None:
        mark = " *" if seat in self.at.to_act else ""
        self.table.add_row(f"{seat} {self.at.players[seat]}{mark}", *map(shown, cells))


def line(*parts: Any) -> Text:
    return Text(" · ".join(str(p) for p in parts if p))


def had_none(view: View, at: Setting) -> list[Text]:
    """A recorded deal's line saying where a seat did not follow a suit (`had_none`), which a
    later card of it may show to be a revoke; nothing while there is none."""
    said = ", ".join(f"{at.players[v['seat']]} {v['suit']} (entry {v['entry']})"
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


def _drawing_of(title: str) -> Callable[[View, Setting], list[RenderableType]] | None:
    """The title's own drawing (`terminal.py` in its package), None for a title this client
    does not hold."""
    package = PACKAGES.get(title)
    return None if package is None else importlib.import_module(f"{package}.terminal").draw


def drawing(title: str, state: Mapping[str, Any], at: Setting, heading: str) -> Panel:
    """The whole table: `state` is the API's state answer (`version`, `to_act`, `state`...)."""
    view, draw = state["state"], _drawing_of(title)
    body = draw(view, at) if draw else [Text(json.dumps(view, indent=2, ensure_ascii=False))]
    acting = ", ".join(at.players[s] for s in at.to_act) or "nobody"
    footer = Text(f"* to act: {acting}")
    side = table_side.drawn(view.get("table"), at.players, at.now_ms)
    return Panel(Group(*body, *side, *_yours(view.get("you")), footer), title=heading,
                 title_align="left", expand=False)
