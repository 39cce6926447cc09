"""Score breakdowns with provenance (docs/api.md, Score breakdowns), shared by every game.

Every point lives in exactly one `Component`; a seat's total is the sum of its components;
`events` names the log entries that produced the points, so a dispute can be settled by
pointing at the log. What a breakdown answers adds to each component the rule that scores it,
from the title's spec (`explained`); the breakdown stored, kept and compared by audits is
`Score.to_json`'s alone.
"""

from __future__ import annotations

from typing import Any

from engine.frozen import frozen
from engine.spec import Spec, rule_of


@frozen
class Component:
    label: str
    detail: str
    points: int
    round: int
    events: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "detail": self.detail,
            "points": self.points,
            "round": self.round,
            "events": sorted(set(self.events)),
        }


@frozen
class SeatScore:
    seat: int
    components: tuple[Component, ...]

    @property
    def total(self) -> int:
        return sum(c.points for c in self.components)


@frozen
class Score:
    final: bool
    rounds: int
    seats: tuple[SeatScore, ...]
    lowest_wins: bool = False
    # At a table (engine.table_actions): seats that conceded, in order; an abandoned game;
    # each seat's thinking time under a turn clock.
    conceded: tuple[int, ...] = ()
    abandoned: bool = False
    thinking_ms: tuple[int, ...] | None = None

    def ranks(self) -> tuple[int, ...]:
        """Competition ranking (1, 1, 3): tied seats share the place. Seats that conceded
        come after every other, the latest concession first, whatever their points."""
        totals = [s.total for s in self.seats]
        better = (lambda a, b: a < b) if self.lowest_wins else (lambda a, b: a > b)
        playing = [t for s, t in zip(self.seats, totals, strict=True)
                   if s.seat not in self.conceded]
        last = list(reversed(self.conceded))
        return tuple(
            len(playing) + 1 + last.index(s.seat) if s.seat in self.conceded
            else 1 + sum(better(o, t) for o in playing)
            for s, t in zip(self.seats, totals, strict=True))

    def to_json(self, names: list[str] | tuple[str, ...] | None = None) -> dict[str, Any]:
        ranks = self.ranks()
        players = []
        for s, rank in zip(self.seats, ranks, strict=True):
            player: dict[str, Any] = {"seat": s.seat}
            if names is not None:
                player["name"] = names[s.seat]
            player.update(
                total=s.total,
                rank=rank,
                components=[c.to_json() for c in s.components],
            )
            if s.seat in self.conceded:
                player["conceded"] = True
            if self.thinking_ms is not None:
                player["extras"] = {"thinking_ms": self.thinking_ms[s.seat]}
            players.append(player)
        out = {"final": self.final, "rounds": self.rounds, "players": players}
        if self.abandoned:
            out["abandoned"] = True
        return out


def by_seat(seats: int, components: list[Component] | tuple[Component, ...], owners) -> tuple:
    """Group `components` into SeatScores; `owners[i]` is the seat of `components[i]`."""
    grouped: list[list[Component]] = [[] for _ in range(seats)]
    for owner, component in zip(owners, components, strict=True):
        grouped[owner].append(component)
    return tuple(SeatScore(seat, tuple(cs)) for seat, cs in enumerate(grouped))


def explained(breakdown: dict[str, Any], spec: Spec) -> dict[str, Any]:
    """`breakdown` (a `Score.to_json`) with each component's `rule`, a sentence of the spec's
    `scoring` ("" for a component it names no rule for)."""
    return {**breakdown, "players": [
        {**player, "components": [{**c, "rule": rule_of(spec.scoring, c["label"])}
                                  for c in player["components"]]}
        for player in breakdown["players"]]}
