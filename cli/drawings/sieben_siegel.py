"""Die sieben Siegel drawn in the terminal from the view the API serves, as its package's
`table.js` draws it on the pages: `cli.tables` finds it by the title's name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import RenderableType

from cli.tables import Seats, Setting, View, had_none, line, shown


def _counts(counts: Mapping[str, Any]) -> str:
    return ", ".join(f"{seal} ×{shown(n)}" for seal, n in counts.items() if n != 0) or "-"


def _trick(played: Sequence[Mapping[str, Any]], players: Sequence[str]) -> str:
    return ", ".join(f"{shown(p['card'])} ({players[p['seat']]})" for p in played) or "-"


def draw(view: View, setting: Setting) -> list[RenderableType]:
    saboteur = view.get("saboteur")
    top = line(f"round {view['round']} of {view['rounds']}", f"phase: {view['phase']}",
                f"saboteur: {'nobody' if saboteur is None else setting.players[saboteur]}",
                f"supply: {_counts(view['supply'])}",
                view.get("setup_needed") and "recorded: the table names the setup first")
    trick = line(f"current trick: {_trick(view['trick'], setting.players)}",
                  view.get("led") and f"led: {view['led']}",
                  f"last trick: {_trick(view['last_trick'], setting.players)}")
    seats = Seats(setting, "in hand", "tricks won", "seals held", "total")
    for seat, held in enumerate(view["seals"]):
        seats.add(seat, view["hand_sizes"][seat], view["tricks_won"][seat],
                  _counts(held), view["totals"][seat])
    return [top, trick, *had_none(view, setting), seats.grid]
