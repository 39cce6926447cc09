"""What happened at the table, drawn under any title's own drawing: the `table` key of a view
(`engine.table_actions.Side`), there only once something did: seats that conceded, a takeback
proposed, votes to abandon, why the game was abandoned, and the turn clock."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from rich.console import RenderableType
from rich.table import Table as Grid
from rich.text import Text

NOT_WAITED = -1  # a clock's `since` for a seat nobody waits for


def duration(ms: int) -> str:
    """A length of time as people say it at a table: seconds, minutes, hours."""
    seconds = ms // 1000
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def drawn(side: Mapping[str, Any] | None, players: Sequence[str],
          now_ms: int | None) -> list[RenderableType]:
    """The table's side of a view; `now_ms` (the present, when the view is) says how long
    the seats to act have waited."""
    if not side:
        return []

    def who(seats: Sequence[int]) -> str:
        return ", ".join(players[s] for s in seats)

    said: list[RenderableType] = []
    if side.get("abandoned") is not None:
        said.append(Text(f"abandoned: {side['abandoned'] or 'no reason given'}"))
    if side.get("conceded"):
        said.append(Text(f"conceded (the service plays their turns): {who(side['conceded'])}"))
    proposal = side.get("proposal")
    if proposal:
        said.append(Text(f"takeback to entry {proposal['to']} proposed by "
                         f"{players[proposal['seat']]} as entry {proposal['seq']}; accepted by "
                         f"{who(proposal['accepted']) or 'nobody yet'}"))
    if side.get("votes"):
        said.append(Text(f"votes to abandon: {who(side['votes'])}"))
    if side.get("clock"):
        said.append(_clock(side["clock"], players, now_ms))
    return said


def _clock(clock: Mapping[str, Any], players: Sequence[str], now_ms: int | None) -> Grid:
    limit_ms = clock["limit_s"] * 1000
    drawn_clock = Grid("seat", "thinking", "waiting", title_justify="left",
                       title=f"turn clock: {duration(limit_ms)} a turn")
    for seat, (since, thinking) in enumerate(zip(clock["since"], clock["thinking"],
                                                 strict=True)):
        drawn_clock.add_row(f"{seat} {players[seat]}", duration(thinking),
                            _waiting(since, limit_ms, now_ms))
    return drawn_clock


def _waiting(since: int, limit_ms: int, now_ms: int | None) -> str:
    if since == NOT_WAITED:
        return "-"
    began = datetime.fromtimestamp(since / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    if now_ms is None:
        return f"since {began}"
    waited = max(now_ms - since, 0)
    late = ", past the limit: a timeout may be claimed" if waited >= limit_ms else ""
    return f"for {duration(waited)} (since {began}){late}"
