"""The Keltis card game drawn in the terminal from the view the API serves, as its package's
`table.js` draws it on the pages: `cli.tables` finds it by the title's name."""

from __future__ import annotations

from rich.console import RenderableType

from cli.tables import Seats, Setting, View, colour_rows, discard_piles, line, shown


def draw(view: View, setting: Setting) -> list[RenderableType]:
    top = line(f"phase: {view['phase']}", f"deck {shown(view['deck_size'])}",
                f"set aside {shown(view['set_aside_size'])}",
                view["to_draw"] and f"cards to draw: {view['to_draw']}",
                f"wish stones in the supply: {shown(view['wish_stones'])}",
                view.get("setup_needed") and "recorded: the table deals (its setup) first")
    seats = Seats(setting, "in hand", "rows", "point cards", "wish stones")
    for seat, held in enumerate(view["seats"]):
        seats.add(seat, view["hand_sizes"][seat], colour_rows(held["rows"]),
                  held["point_row"], held["wish_stones"])
    return [top, discard_piles(view), seats.grid]
