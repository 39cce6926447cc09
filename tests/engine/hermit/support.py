"""Building exact Hermit situations: explicit decks, states laid out by hand, and a move driver."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

from engine.game import Table
from engine.games.hermit import GAME, State
from engine.games.hermit.cards import CANONICAL
from engine.games.hermit.game import Group
from engine.games.hermit.scoring import Card
from engine.scoring import Component
from tests.engine.refusals import refused as refused_by

EACH = {2: 16, 3: 12, 4: 9, 5: 7}


def deck(seats: int, *hands: list[str] | tuple[str, ...], rest: tuple[str, ...] = ()) -> tuple:
    """A deck dealing `hands` to seats 0, 1, ... (the others and the leftover from what is
    left, in canonical order); `rest` are the cards after the hands (stagecoach, centre)."""
    used = [c for h in hands for c in h] + list(rest)
    assert len(set(used)) == len(used)
    spare = [c for c in CANONICAL if c not in used]
    dealt: list[str] = []
    for seat in range(seats):
        own = list(hands[seat]) if seat < len(hands) else []
        while len(own) < EACH[seats]:
            own.append(spare.pop(0))
        assert len(own) == EACH[seats]
        dealt += own
    out = (*dealt, *rest, *spare)
    assert sorted(out) == sorted(CANONICAL)
    return out


def table(seats: int, *decks: tuple[str, ...], seed: str = "test", **options) -> Table:
    return Table(seats, GAME.options(seats, options), seed, tuple(decks))


def dealt(seats: int, *decks: tuple[str, ...], **options) -> State:
    return GAME.deal(table(seats, *decks, **options))


def laid_out(
    seats: int,
    hands: list[list[str]],
    groups: list[tuple[list[str], int | None]] = (),
    turn: int = 0,
    **options,
) -> State:
    """A state in the play phase: exactly these hands and groups (numbered 0, 1, ...)."""
    state = dealt(seats, **options)
    built = tuple(
        Group(n, tuple(Card(c, (1,)) for c in cards), controller)
        for n, (cards, controller) in enumerate(groups)
    )
    return replace(
        state,
        hands=tuple(tuple(h) for h in hands),
        groups=built,
        next_group=len(built),
        choosing=None,
        turn=turn,
    )


def with_totals(state: State, *totals: int) -> State:
    """`state` with earlier hands worth `totals`, seat by seat."""
    return replace(state, scored=tuple(
        (Component("earlier", "earlier hands", t, 1),) for t in totals
    ))


class Driver:
    """Applies moves with log-like seqs (2, 4, 6, ...), keeping every fact."""

    def __init__(self, state: State, seq: int = 2):
        self.state, self.seq, self.facts = state, seq, []

    def __call__(self, seat: int, kind: str, card: str, group: int | None = None) -> tuple:
        move: dict[str, Any] = {"type": kind, "card": card}
        if group is not None:
            move["group"] = group
        outcome = GAME.apply(self.state, seat, move, self.seq)
        self.state, self.seq = outcome.state, self.seq + 2
        self.facts += outcome.facts
        return outcome.facts

    def group(self, number: int) -> Group:
        return next(g for g in self.state.groups if g.number == number)


refused = partial(refused_by, GAME)


def facts_of(facts, kind: str) -> list:
    return [f for f in facts if f.kind == kind]
