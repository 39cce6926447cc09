"""Die sieben Siegel: taking seals for a prediction, and which seals fit a trick won.

A prediction takes its seals from the supply; only what the supply lacks is taken from other
seats named in `from`, each of which gets a white seal from the supply in exchange. With no
white seal left such a seal cannot be taken (docs/rules-notes.md, question 4).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Mapping
from typing import Any

from engine.game import IllegalMove
from engine.games.sieben_siegel.state import (
    BLACK,
    COLOUR_SEALS,
    SEAL_COUNTS,
    SEAL_OF,
    SEALS,
    TRUMP,
    WHITE,
    Predicted,
    Seal,
    SealTakenFrom,
    State,
    colour_of,
)


def supply(state: State) -> dict[str, int]:
    """The seals in the middle: all 27 less those in front of the seats."""
    held = [seal.kind for seals in state.seals for seal in seals]
    return {kind: SEAL_COUNTS[kind] - held.count(kind) for kind in SEALS}


def counts(seals: tuple[Seal, ...]) -> dict[str, int]:
    kinds = [seal.kind for seal in seals]
    return {kind: kinds.count(kind) for kind in SEALS if kind in kinds}


def without(seals: tuple[Seal, ...], kind: str) -> tuple[Seal, ...]:
    """`seals` less the earliest seal of `kind`."""
    i = next(i for i, seal in enumerate(seals) if seal.kind == kind)
    return (*seals[:i], *seals[i + 1 :])


# -- a prediction --------------------------------------------------------------------------


def read_prediction(move: Mapping[str, Any]) -> tuple[dict[str, int], dict[str, list[int]]]:
    """The seals asked for and the seats named to take missing ones from, checked for shape."""
    asked = move.get("seals")
    if not isinstance(asked, Mapping):
        raise IllegalMove(
            "malformed-move",
            'a prediction names its seals, e.g. {"type": "predict", "seals": {"red": 1}};'
            " an empty object predicts no trick",
        )
    wanted: dict[str, int] = {}
    for kind, number in asked.items():
        if kind in (WHITE, BLACK):
            raise IllegalMove(
                "seal-not-predictable",
                f"{kind} seals are never taken for a prediction: predict tricks in red,"
                " yellow, green, blue or violet",
            )
        if kind not in COLOUR_SEALS:
            raise IllegalMove(
                "no-such-seal", f"the seal colours are {', '.join(COLOUR_SEALS)}: not {kind!r}"
            )
        if not isinstance(number, int) or isinstance(number, bool) or number < 0:
            raise IllegalMove(
                "bad-seal-count",
                f"a prediction takes a whole number of seals, 0 or more: {number!r} {kind}"
                " is not one",
            )
        wanted[kind] = number
    sources = move.get("from", {})
    if not isinstance(sources, Mapping) or not all(
        isinstance(seats, list | tuple) and all(isinstance(s, int) for s in seats)
        for seats in sources.values()
    ):
        raise IllegalMove(
            "malformed-move",
            '"from" maps a seal colour to the seats to take it from, e.g. {"blue": [2]}',
        )
    return wanted, {kind: list(seats) for kind, seats in sources.items()}


def take_prediction(
    state: State, seat: int, wanted: dict[str, int], sources: dict[str, list[int]], seq: int
) -> tuple[tuple[tuple[Seal, ...], ...], tuple]:
    """Every seat's seals after `seat` took `wanted`, and the facts; IllegalMove if it can't."""
    for kind in sources:
        if kind not in COLOUR_SEALS:
            raise IllegalMove(
                "no-such-seal", f"the seal colours are {', '.join(COLOUR_SEALS)}: not {kind!r}"
            )
    middle = supply(state)
    whites = middle[WHITE]
    seals = [list(s) for s in state.seals]
    taken: list[str] = []
    exchanges: list[SealTakenFrom] = []
    for kind in COLOUR_SEALS:
        number, named = wanted.get(kind, 0), sources.get(kind, [])
        missing = max(0, number - middle[kind])
        _check_sources(state, seat, kind, middle[kind], missing, named)
        for victim in named:
            if not any(s.kind == kind for s in seals[victim]):
                raise IllegalMove(
                    "seat-lacks-seal",
                    f"seat {victim} holds no {kind} seal{' left' * (named.count(victim) > 1)}"
                    f" to take: the seal must come from a seat that holds it",
                )
            if not whites:
                raise IllegalMove(
                    "no-white-seal",
                    f"no white seal is left in the supply to give seat {victim} in exchange,"
                    f" so its {kind} seal cannot be taken: predict fewer {kind} tricks",
                )
            whites -= 1
            seals[victim] = [*without(tuple(seals[victim]), kind), Seal(WHITE, (seq,))]
            exchanges.append(SealTakenFrom(seat, kind, victim))
        seals[seat] += [Seal(kind, (seq,))] * number
        taken += [kind] * number
    return tuple(tuple(s) for s in seals), (Predicted(seat, tuple(taken)), *exchanges)


def _check_sources(
    state: State, seat: int, kind: str, in_supply: int, missing: int, named: list[int]
) -> None:
    if not missing and named:
        raise IllegalMove(
            "from-not-needed",
            f"the supply holds {in_supply} {kind} seal{'s' * (in_supply != 1)}: a seal is taken"
            " from another seat only when the supply lacks it",
        )
    if len(named) != missing:
        raise IllegalMove(
            "from-count",
            f"the supply holds only {in_supply} {kind} seal{'s' * (in_supply != 1)}: each of"
            f" the {missing} more you predict comes from another seat, so name {missing}"
            f' seat{"s" * (missing != 1)} in "from", not {len(named)}',
        )
    for victim in named:
        if isinstance(victim, bool) or not 0 <= victim < state.table.seats:
            raise IllegalMove(
                "no-such-seat", f"seats are 0 to {state.table.seats - 1}: {victim!r} is not one"
            )
        if victim == seat:
            raise IllegalMove(
                "take-from-self",
                f"the {kind} seal the supply lacks must come from another seat, not your own",
            )


def predictions(state: State, seat: int) -> Iterator[dict[str, Any]]:
    """Every prediction `seat` may post: per colour, the supply first, then other seats."""
    middle = supply(state)
    per_colour = [list(_colour_choices(state, seat, kind, middle[kind])) for kind in COLOUR_SEALS]
    for combo in _within_budget(per_colour, middle[WHITE]):
        move: dict[str, Any] = {"type": "predict", "seals": {}}
        for kind, (number, victims) in zip(COLOUR_SEALS, combo, strict=True):
            if number:
                move["seals"][kind] = number
            if victims:
                move.setdefault("from", {})[kind] = list(victims)
        yield move


def _colour_choices(
    state: State, seat: int, kind: str, in_supply: int
) -> Iterator[tuple[int, tuple[int, ...]]]:
    for number in range(in_supply + 1):
        yield number, ()
    holders = [
        v for v in range(state.table.seats) if v != seat for s in state.seals[v] if s.kind == kind
    ]
    for extra in range(1, len(holders) + 1):
        for victims in sorted(set(itertools.combinations(holders, extra))):
            yield in_supply + extra, victims


def _within_budget(per_colour: list, whites: int) -> Iterator[tuple]:
    """The combinations of colour choices whose exchanges need no more white seals than left."""
    if not per_colour:
        yield ()
        return
    for choice in per_colour[0]:
        if len(choice[1]) <= whites:
            for rest in _within_budget(per_colour[1:], whites - len(choice[1])):
                yield (choice, *rest)


# -- the seal a trick's winner returns -----------------------------------------------------


def fitting(led: str, winning_card: str) -> tuple[str, ...]:
    """The seals that may be returned for a trick: white always; the led colour; red when red
    was led or the winner trumped."""
    return _fitting(led, colour_of(winning_card) == TRUMP)


@functools.cache
def _fitting(led: str, trumped: bool) -> tuple[str, ...]:
    # Asked at every trick won, and only ten answers exist.
    kinds = {SEAL_OF[led], WHITE}
    if trumped:
        kinds.add(SEAL_OF[TRUMP])
    return tuple(kind for kind in SEALS if kind in kinds)


def describe_fitting(led: str, winning_card: str) -> str:
    kinds = fitting(led, winning_card)
    listed = f"{', '.join(kinds[:-1])} or {kinds[-1]}"
    if led == TRUMP:
        return f"a trick led in red takes back a {listed} seal"
    if colour_of(winning_card) == TRUMP:
        return f"a {SEAL_OF[led]} trick won by trumping with red takes back a {listed} seal"
    return f"a {SEAL_OF[led]} trick takes back a {listed} seal"
