"""Building exact Coloretto situations: explicit decks, states, and a move driver."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import partial
from typing import Any

from engine.game import Table
from engine.games.coloretto import GAME, LAST_ROUND, Card, DealEnded, RoundEnded, State
from tests.engine.refusals import refused

CANONICAL = GAME.canonical_deck(4, {})


def stack(*top: str) -> tuple[str, ...]:
    """A permutation of the canonical deck with `top` first, the rest in canonical order."""
    assert not Counter(top) - Counter(CANONICAL), "more copies than the deck holds"
    rest = list(CANONICAL)
    for card in top:
        rest.remove(card)
    return (*top, *rest)


def table(seats: int = 4, *decks: tuple[str, ...], seed: str = "test", **options) -> Table:
    return Table(seats, GAME.options(seats, options), seed, tuple(decks))


def dealt(seats: int = 4, *decks: tuple[str, ...], seed: str = "test", **options) -> State:
    return GAME.deal(table(seats, *decks, seed=seed, **options))


def with_rows(state: State, *rows: tuple[str, ...], seq: int = 50) -> State:
    """`state` with the given cards lying in its rows (each tagged with entry `seq`)."""
    return replace(state, rows=tuple(tuple(Card(c, (seq,)) for c in row) for row in rows))


def with_deck(state: State, *cards: str) -> State:
    return replace(state, deck=tuple(cards))


def last_round_next(state: State) -> State:
    """`state` with the last-round card on top and the 15 cards it lies on beneath it."""
    return replace(state, deck=(LAST_ROUND, *state.deck[-15:]))


class Driver:
    """Applies moves one after another with log-like seqs (2, 4, 6, ...), keeping the facts."""

    def __init__(self, state: State, seq: int = 2):
        self.state, self.seq, self.facts = state, seq, []

    def __call__(self, seat: int, kind: str, row: int | None = None) -> tuple:
        move: dict[str, Any] = {"type": kind} if row is None else {"type": kind, "row": row}
        outcome = GAME.apply(self.state, seat, move, self.seq)
        self.state, self.seq = outcome.state, self.seq + 2
        self.facts += outcome.facts
        return outcome.facts

    def turn(self, row: int) -> None:
        """The seat to act draws and places on `row`."""
        seat = self.state.turn
        self(seat, "draw")
        self(seat, "place", row)

    def finish_round(self) -> None:
        """Play on, each seat taking a row as soon as it may, until the round or deal ends."""
        while True:
            seat = self.state.turn
            moves = GAME.legal_moves(self.state, seat)
            take = next((m for m in moves if m["type"] == "take"), None)
            if take:
                facts = self(seat, "take", take["row"])
            else:
                self(seat, "draw")
                facts = self(seat, "place", GAME.legal_moves(self.state, seat)[0]["row"])
            if any(isinstance(f, RoundEnded | DealEnded) for f in facts):
                return


illegal = partial(refused, GAME)
