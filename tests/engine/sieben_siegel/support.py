"""Building exact Die sieben Siegel situations: explicit decks, states, and a move driver."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

from engine.game import Table
from engine.games.sieben_siegel import GAME
from engine.games.sieben_siegel.state import TRICK, Seal, State, canonical
from tests.engine.refusals import refused

# The published rule book's 27 seals, as the issue gives them.
ALL_SEALS = {"red": 5, "yellow": 3, "green": 3, "blue": 3, "violet": 3, "white": 4, "black": 6}

# Example 2 and 3 of the rule book: four seats in this order.
FRANK, SABINE, KATRIN, PETER = 0, 1, 2, 3


def table(seats: int = 4, *decks: tuple[str, ...], seed: str = "test", **options) -> Table:
    return Table(seats, GAME.options(seats, options), seed, tuple(decks))


def dealt(seats: int = 4, *decks: tuple[str, ...], seed: str = "test", **options) -> State:
    return GAME.deal(table(seats, *decks, seed=seed, **options))


def deck_for(seats: int, *hands: tuple[str, ...]) -> tuple[str, ...]:
    """A deck dealing each seat the cards given for it, the rest filled in canonical order."""
    rest = [c for c in canonical(seats) if not any(c in h for h in hands)]
    deck: list[str] = []
    for seat in range(seats):
        own = list(hands[seat]) if seat < len(hands) else []
        while len(own) < 15:
            own.append(rest.pop(0))
        deck += own
    assert sorted(deck) == sorted(canonical(seats))
    return tuple(deck)


def seals(*kinds: str, seq: int = 1) -> tuple[Seal, ...]:
    return tuple(Seal(kind, (seq,)) for kind in kinds)


def at_tricks(
    hands: tuple[tuple[str, ...], ...],
    held: tuple[tuple[Seal, ...], ...] | None = None,
    saboteur: int | None = None,
    turn: int = 0,
    **options: Any,
) -> State:
    """A state in the trick phase with exactly these hands and seals (predictions all made)."""
    seats = len(hands)
    state = dealt(seats, **options)
    return replace(
        state,
        phase=TRICK,
        turn=turn,
        hands=tuple(tuple(h) for h in hands),
        acted=tuple(range(seats)),
        saboteur=saboteur,
        saboteur_event=None if saboteur is None else 1,
        seals=held if held is not None else ((),) * seats,
    )


class Driver:
    """Applies moves one after another with log-like seqs (2, 4, 6, ...), keeping the facts."""

    def __init__(self, state: State, seq: int = 2):
        self.state, self.seq, self.facts = state, seq, []

    def __call__(self, seat: int, move: dict[str, Any]) -> tuple:
        outcome = GAME.apply(self.state, seat, move, self.seq)
        self.state, self.seq = outcome.state, self.seq + 2
        self.facts += outcome.facts
        return outcome.facts

    def play(self, seat: int, card: str) -> tuple:
        return self(seat, {"type": "play", "card": card})

    def trick(self, *cards: str) -> tuple:
        """The seat to act leads the first card, the others follow clockwise."""
        facts: list = []
        for card in cards:
            facts += self.play(self.state.turn, card)
        return tuple(facts)


def finish_round(state: State) -> State:
    """Every seat predicts nothing; then the first legal card is played until the round ends."""
    play = Driver(state)
    number = state.round
    while not GAME.is_over(play.state) and play.state.round == number:
        seat = GAME.to_act(play.state)[0]
        move = GAME.legal_moves(play.state, seat)[0]
        if move["type"] == "predict":
            move = {"type": "predict", "seals": {}}
        play(seat, move)
    return play.state


illegal = partial(refused, GAME)


def held(state: State, seat: int) -> dict[str, int]:
    kinds = [s.kind for s in state.seals[seat]]
    return {k: kinds.count(k) for k in dict.fromkeys(kinds)}
