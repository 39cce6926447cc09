"""Coloretto drawn in the terminal from the view the API serves, as its package's `table.js` draws
it on the pages: `cli.tables` finds it by the title's name."""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table as Grid

from cli.tables import Seats, Setting, View, line, shown


def draw(view: View, setting: Setting) -> list[RenderableType]:
    top = line(f"deal {view['deal']} of {view['deals']}", f"deck {shown(view['deck_size'])}",
                "last-round card drawn" if view["last_round"] else "last-round card not yet",
                view.get("removed_color") and f"left out: {view['removed_color']}",
                view.get("drawn") and f"drawn: {view['drawn']}",
                view.get("setup_needed") and "recorded: the table names the setup first")
    rows = Grid("row", "cards", "taken by", title="rows")
    for row in view["rows"]:
        taken = row["taken_by"]
        rows.add_row(str(row["row"]), shown(row["cards"]),
                     "" if taken is None else setting.players[taken])
    seats = Seats(setting, "collected")
    for seat, collected in enumerate(view["collected"]):
        seats.add(seat, ", ".join(f"{c} ×{shown(n)}" for c, n in collected.items()))
    return [top, rows, seats.grid]
