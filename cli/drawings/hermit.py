"""Hermit drawn in the terminal from the view the API serves, as its package's `table.js` draws it
on the pages: `cli.tables` finds it by the title's name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import RenderableType
from rich.panel import Panel

from cli.tables import Seats, Setting, View, had_none, line, shown


def _group(group: Mapping[str, Any]) -> str:
    return f"group {group['group']}: {shown(group['cards'])}"


def draw(view: View, setting: Setting) -> list[RenderableType]:
    choosing = view.get("choosing")
    top = line(f"hand {view['deal']}" + (f" of {view['deals']}" if view.get("deals") else ""),
                view.get("target") and f"playing to {view['target']}",
                choosing and f"choosing a {choosing['move']} card, waiting for "
                + ", ".join(setting.players[s] for s in choosing["waiting"]),
                view.get("stagecoach_size") is not None
                and f"stagecoach {shown(view['stagecoach_size'])} face down",
                view.get("set_aside") and f"set aside: {shown(view['set_aside'])}",
                view.get("setup_needed") and "recorded: the table names the setup first")
    centre = [_group(g) for g in view["groups"] if g["controller"] is None]
    seats = Seats(setting, "in hand", "total", "groups held", "score pile")
    for seat, pile in enumerate(view["piles"]):
        held = [_group(g) for g in view["groups"] if g["controller"] == seat]
        seats.add(seat, view["hand_sizes"][seat], view["totals"][seat],
                  "\n".join(held) or "-", pile)
    found: list[RenderableType] = [top, *had_none(view, setting)]
    if centre:
        found.append(Panel("\n".join(centre), title="centre", expand=False))
    return [*found, seats.grid]
