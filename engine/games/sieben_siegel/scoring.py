"""Die sieben Siegel: the penalty points of one round, with the log entries behind them.

Each coloured seal left is 2, each black seal 3, each white seal 4. The saboteur scores his
base (4, or the option `saboteur_max`) less one per black seal the other seats hold, never
below 0. Lowest total wins.
"""

from __future__ import annotations

from engine.games.sieben_siegel.state import BLACK, SABOTEUR_BASE, SEALS, WHITE, Seal, State
from engine.scoring import Component

_POINTS = {**{kind: 2 for kind in SEALS}, BLACK: 3, WHITE: 4}


# The rule of each component, as the spec declares it (`engine.spec.Spec.scoring`).
RULES = {
    "*": f"Each seal left at a round's end is penalty points: a coloured seal {_POINTS[SEALS[0]]},"
         f" a black seal {_POINTS[BLACK]}, a white seal {_POINTS[WHITE]}; the lowest total wins.",
    "no seals": "A seat with no seal left at a round's end scores 0.",
    "saboteur": f"The saboteur scores {SABOTEUR_BASE} (or the option saboteur_max) less one for"
                " each black seal the other seats hold, never below 0.",
}


def round_components(state: State) -> tuple[tuple[Component, ...], ...]:
    """Per seat, the components of the round `state` is in (as things stand)."""
    out = []
    for seat, seals in enumerate(state.seals):
        if seat == state.saboteur:
            out.append((_saboteur(state, seat),))
            continue
        by_kind: dict[str, list[Seal]] = {}
        for seal in seals:
            by_kind.setdefault(seal.kind, []).append(seal)
        parts = []
        for kind in SEALS:
            mine = by_kind.get(kind)
            if mine:
                each = _POINTS[kind]
                parts.append(
                    Component(
                        label=kind,
                        detail=f"{len(mine)} {kind} seal{'s' * (len(mine) != 1)} left,"
                        f" {each} each: {each * len(mine)}",
                        points=each * len(mine),
                        round=state.round,
                        events=tuple(e for s in mine for e in s.events),
                    )
                )
        if not parts:
            parts.append(Component("no seals", "no seals left: 0", 0, state.round))
        out.append(tuple(parts))
    return tuple(out)


def _saboteur(state: State, seat: int) -> Component:
    base = state.table.options.get("saboteur_max", SABOTEUR_BASE)
    blacks = [
        s
        for other, seals in enumerate(state.seals)
        if other != seat
        for s in seals
        if s.kind == BLACK
    ]
    points = max(0, base - len(blacks))
    return Component(
        label="saboteur",
        detail=f"saboteur: {base} less {len(blacks)} black seal{'s' * (len(blacks) != 1)}"
        f" held by the others, never below 0: {points}",
        points=points,
        round=state.round,
        events=(
            *((state.saboteur_event,) if state.saboteur_event is not None else ()),
            *(e for s in blacks for e in s.events),
        ),
    )
