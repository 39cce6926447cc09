"""The table drawn in the terminal, for every title, from the views the API serves
(`GET /v1/games/{id}/state`): what a viewer may see and nothing else, hidden values as "?".

One drawing per title, registered by its name; a title this client does not know yet is shown
as its view's JSON rather than not at all. This is the one place outside the game packages
that still names the titles (issue 27): the drawings are code, and moving them into
`engine/games/<title>/` would have the pure engine import rich and these helpers, so they wait
for a terminal table described as data in the spec, as the pages' would be if they could.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

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
    """What a drawing knows besides the view: the players' names, the seats to act, and the
    board of a title played on one (`GET /v1/boards/{title}`)."""

    players: Sequence[str]
    to_act: Sequence[int]
    board: Mapping[str, Any] | None = None


class _Seats:
    """A row per seat, the seats to act marked with a star."""

    def __init__(self, at: Setting, *columns: str):
        self.at = at
        self.table = Table("seat", *columns)

    def add(self, seat: int, *cells: Any) -> None:
        mark = " *" if seat in self.at.to_act else ""
        self.table.add_row(f"{seat} {self.at.players[seat]}{mark}", *map(shown, cells))


def _line(*parts: Any) -> Text:
    return Text(" · ".join(str(p) for p in parts if p))


# -- coloretto ---------------------------------------------------------------------------------


def _coloretto(view: View, at: Setting) -> list[RenderableType]:
    top = _line(f"deal {view['deal']} of {view['deals']}", f"deck {shown(view['deck_size'])}",
                "last-round card drawn" if view["last_round"] else "last-round card not yet",
                view.get("removed_color") and f"left out: {view['removed_color']}",
                view.get("drawn") and f"drawn: {view['drawn']}")
    rows = Table("row", "cards", "taken by", title="rows")
    for row in view["rows"]:
        taken = row["taken_by"]
        rows.add_row(str(row["row"]), shown(row["cards"]),
                     "" if taken is None else at.players[taken])
    seats = _Seats(at, "collected")
    for seat, collected in enumerate(view["collected"]):
        seats.add(seat, ", ".join(f"{c} ×{shown(n)}" for c, n in collected.items()))
    return [top, rows, seats.table]


# -- hermit ------------------------------------------------------------------------------------


def _group(group: Mapping[str, Any]) -> str:
    return f"group {group['group']}: {shown(group['cards'])}"


def _hermit(view: View, at: Setting) -> list[RenderableType]:
    choosing = view.get("choosing")
    top = _line(f"hand {view['deal']}" + (f" of {view['deals']}" if view.get("deals") else ""),
                view.get("target") and f"playing to {view['target']}",
                choosing and f"choosing a {choosing['move']} card, waiting for "
                + ", ".join(at.players[s] for s in choosing["waiting"]),
                view.get("stagecoach_size") is not None
                and f"stagecoach {shown(view['stagecoach_size'])} face down",
                view.get("set_aside") and f"set aside: {shown(view['set_aside'])}")
    centre = [_group(g) for g in view["groups"] if g["controller"] is None]
    seats = _Seats(at, "in hand", "total", "groups held", "score pile")
    for seat, pile in enumerate(view["piles"]):
        held = [_group(g) for g in view["groups"] if g["controller"] == seat]
        seats.add(seat, view["hand_sizes"][seat], view["totals"][seat],
                  "\n".join(held) or "-", pile)
    found: list[RenderableType] = [top]
    if centre:
        found.append(Panel("\n".join(centre), title="centre", expand=False))
    return [*found, seats.table]


# -- keltis-card -------------------------------------------------------------------------------


def direction(cards: Sequence[str | None]) -> str:
    """A row runs up or down once two of its cards differ; a final card has no number."""
    values = [int(c[1:]) for c in cards if c and c[1:].isdigit()]
    for value in values[1:]:
        if value != values[0]:
            return "↑" if value > values[0] else "↓"
    return "·" if values else ""


def _rows(rows: Mapping[str, Sequence[str | None]]) -> str:
    return "\n".join(f"{COLOURS[c]:<6} {direction(cards)} {shown(cards)}"
                     for c, cards in rows.items() if cards) or "-"


def _discards(view: View) -> Text:
    piles = ", ".join(f"{COLOURS.get(p, p)} {shown(cards[-1:]) if cards else '-'}"
                      f" ({len(cards)})" for p, cards in view["discards"].items())
    return Text(f"discard piles (top card): {piles}")


def _keltis_card(view: View, at: Setting) -> list[RenderableType]:
    top = _line(f"phase: {view['phase']}", f"deck {shown(view['deck_size'])}",
                f"set aside {shown(view['set_aside_size'])}",
                view["to_draw"] and f"cards to draw: {view['to_draw']}",
                f"wish stones in the supply: {shown(view['wish_stones'])}")
    seats = _Seats(at, "in hand", "rows", "point cards", "wish stones")
    for seat, held in enumerate(view["seats"]):
        seats.add(seat, view["hand_sizes"][seat], _rows(held["rows"]),
                  held["point_row"], held["wish_stones"])
    return [top, _discards(view), seats.table]


# -- keltis-nwnz -------------------------------------------------------------------------------


def _tile(tile: str | None) -> str:
    return shown(tile).replace("points-", "+").replace("wish-", "W")


def _cell(cell: str | None, board: Mapping[str, Any] | None) -> str:
    """A cell by its id, with its colour and value when the board is known."""
    found = next((c for c in (board or {}).get("cells", []) if c["id"] == cell), None)
    if found is None:
        return shown(cell)
    return f"{cell} ({COLOURS.get(found['colour'], found['colour'])} {found['value']:+d})"


def _keltis_nwnz(view: View, at: Setting) -> list[RenderableType]:
    top = _line(f"phase: {view['phase']}", f"deck {shown(view['deck_size'])}",
                f"pawns in the goal rows: {view['goal_pawns']}",
                view["blocked_piles"]
                and f"piles just discarded on: {shown(view['blocked_piles'])}")
    tiles = ", ".join(f"{t['cell']} {_tile(t['tile'])}" for t in view["tiles"]
                      if t["taken_by"] is None)
    stacks = ", ".join(f"{COLOURS[c]} on {s['cell']} ({s['left']} left)"
                       for c, s in view["stacks"].items())
    seats = _Seats(at, "in hand", "pawns", "display", "tile points",
                        "wish stones")
    for held in view["players"]:
        pawns = "\n".join(f"{pawn} {_cell(cell, at.board)}" for pawn, cell in held["pawns"].items())
        seats.add(held["seat"], held["hand_size"], pawns, _rows(held["rows"]),
                  held["tile_points"], held["wish_stones"])
    return [top, Text(f"tiles on the board: {tiles or '-'}"), Text(f"stacks: {stacks}"),
            _discards(view), seats.table]


# -- sieben-siegel -----------------------------------------------------------------------------


def _counts(counts: Mapping[str, Any]) -> str:
    return ", ".join(f"{seal} ×{shown(n)}" for seal, n in counts.items() if n != 0) or "-"


def _trick(played: Sequence[Mapping[str, Any]], players: Sequence[str]) -> str:
    return ", ".join(f"{shown(p['card'])} ({players[p['seat']]})" for p in played) or "-"


def _sieben_siegel(view: View, at: Setting) -> list[RenderableType]:
    saboteur = view.get("saboteur")
    top = _line(f"round {view['round']} of {view['rounds']}", f"phase: {view['phase']}",
                f"saboteur: {'nobody' if saboteur is None else at.players[saboteur]}",
                f"supply: {_counts(view['supply'])}")
    trick = _line(f"current trick: {_trick(view['trick'], at.players)}",
                  view.get("led") and f"led: {view['led']}",
                  f"last trick: {_trick(view['last_trick'], at.players)}")
    seats = _Seats(at, "in hand", "tricks won", "seals held", "total")
    for seat, held in enumerate(view["seals"]):
        seats.add(seat, view["hand_sizes"][seat], view["tricks_won"][seat],
                  _counts(held), view["totals"][seat])
    return [top, trick, seats.table]


DRAWINGS: dict[str, Callable[[View, Setting], list[RenderableType]]] = {
    "coloretto": _coloretto,
    "hermit": _hermit,
    "keltis-card": _keltis_card,
    "keltis-nwnz": _keltis_nwnz,
    "sieben-siegel": _sieben_siegel,
}


def _yours(you: Mapping[str, Any] | None) -> list[RenderableType]:
    """What only the viewer's seat sees: its hand, a choice made in secret."""
    if not you:
        return []
    return [Text(f"your {name.replace('_', ' ')}: {shown(value)}")
            for name, value in you.items() if value not in (None, [], {})]


def drawing(title: str, state: Mapping[str, Any], at: Setting, heading: str) -> Panel:
    """The whole table: `state` is the API's state answer (`version`, `to_act`, `state`...)."""
    view, draw = state["state"], DRAWINGS.get(title)
    body = draw(view, at) if draw else [Text(json.dumps(view, indent=2, ensure_ascii=False))]
    acting = ", ".join(at.players[s] for s in at.to_act) or "nobody"
    footer = Text(f"* to act: {acting}")
    return Panel(Group(*body, *_yours(view.get("you")), footer), title=heading,
                 title_align="left", expand=False)
