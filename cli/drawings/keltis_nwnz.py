"""Keltis "Neue Wege, neue Ziele" drawn in the terminal from the view the API serves, as its
package's `table.js` draws it on the pages: `cli.tables` finds it by the title's name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.text import Text

from cli.tables import COLOURS, Seats, Setting, View, colour_rows, discard_piles, line, shown


def _tile(tile: str | None) -> str:
    return shown(tile).replace("points-", "+").replace("wish-", "W")


def _cell(cell: str | None, board: Mapping[str, Any] | None) -> str:
    """A cell by its id, with its colour and value when the board is known."""
    found = next((c for c in (board or {}).get("cells", []) if c["id"] == cell), None)
    if found is None:
        return shown(cell)
    return f"{cell} ({COLOURS.get(found['colour'], found['colour'])} {found['value']:+d})"


def draw(view: View, setting: Setting) -> list[RenderableType]:
    top = line(f"phase: {view['phase']}", f"deck {shown(view['deck_size'])}",
                f"pawns in the goal rows: {view['goal_pawns']}",
                view["blocked_piles"]
                and f"piles just discarded on: {shown(view['blocked_piles'])}",
                view.get("setup_needed")
                and "recorded: the table lays the tiles and deals (its setup) first")
    tiles = ", ".join(f"{t['cell']} {_tile(t['tile'])}" for t in view["tiles"]
                      if t["taken_by"] is None)
    stacks = ", ".join(f"{COLOURS[c]} on {s['cell']} ({s['left']} left)"
                       for c, s in view["stacks"].items())
    seats = Seats(setting, "in hand", "pawns", "display", "tile points",
                        "wish stones")
    for held in view["players"]:
        pawns = "\n".join(f"{pawn} {_cell(cell, setting.board)}"
                           for pawn, cell in held["pawns"].items())
        seats.add(held["seat"], held["hand_size"], pawns, colour_rows(held["rows"]),
                  held["tile_points"], held["wish_stones"])
    return [top, Text(f"tiles on the board: {tiles or '-'}"), Text(f"stacks: {stacks}"),
            discard_piles(view), seats.grid]
