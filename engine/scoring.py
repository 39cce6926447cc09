"""Score breakdowns with provenance (docs/api.md, Score breakdowns), shared by every game.

Every point lives in exactly one `Component`; a seat's total is the sum of its components;
`events` names the log entries that produced the points, so a dispute can be settled by
pointing at the log.
"""

from __future__ import annotations

from typing import Any

from engine.frozen import frozen


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

    def ranks(self) -> tuple[int, ...]:
        """Competition ranking (1, 1, 3): tied seats share the place."""
        totals = [s.total for s in self.seats]
        better = (lambda a, b: a < b) if self.lowest_wins else (lambda a, b: a > b)
        return tuple(1 + sum(better(o, t) for o in totals) for t in totals)

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
            players.append(player)
        return {"final": self.final, "rounds": self.rounds, "players": players}


def by_seat(seats: int, components: list[Component] | tuple[Component, ...], owners) -> tuple:
    """Group `components` into SeatScores; `owners[i]` is the seat of `components[i]`."""
    grouped: list[list[Component]] = [[] for _ in range(seats)]
    for owner, component in zip(owners, components, strict=True):
        grouped[owner].append(component)
    return tuple(SeatScore(seat, tuple(cs)) for seat, cs in enumerate(grouped))
