"""Simultaneous hidden choices: one card per seat, revealed together once every seat has chosen.

A game opens a `Simultaneous` for the seats that must choose and the move type they choose
with. Each choice is recorded with the log entry that made it and reported by a `Chose` fact
whose card only its seat may see (`engine.visibility`); the game marks the move itself secret
with `is_secret`. Only when `complete` does the game read `revealed()` and act on the cards, so
nothing a seat chose reaches another seat, a spectator or an error message before that.
"""

from __future__ import annotations

from typing import Any

from engine.frozen import frozen
from engine.game import Fact, IllegalMove


@frozen
class Choice:
    seat: int
    card: str
    seq: int


@frozen
class Chose(Fact):
    """A seat chose a card face down: the card is for that seat's eyes until the game says."""

    kind = "chose"
    hidden = ("card",)
    seat: int
    move: str
    card: str


@frozen
class Simultaneous:
    """The seats that must choose with `move`, and the choices made so far (in log order)."""

    move: str
    seats: tuple[int, ...]
    choices: tuple[Choice, ...] = ()

    @property
    def waiting(self) -> tuple[int, ...]:
        chosen = {c.seat for c in self.choices}
        return tuple(s for s in self.seats if s not in chosen)

    @property
    def complete(self) -> bool:
        # `choose` takes one choice from each seat asked and from no other seat.
        return len(self.choices) == len(self.seats)

    def choice_of(self, seat: int) -> Choice | None:
        for choice in self.choices:
            if choice.seat == seat:
                return choice
        return None

    def choose(self, seat: int, card: str, seq: int) -> tuple[Simultaneous, Chose]:
        """Record `seat`'s choice; IllegalMove when it is not asked to choose or already has."""
        if self.choice_of(seat) is not None:
            raise IllegalMove(
                "already-chosen",
                f"each seat makes one {self.move} choice: yours is made; {self._still()}",
            )
        if seat not in self.seats:
            raise IllegalMove(
                "not-choosing", f"seat {seat} has no {self.move} choice to make this time"
            )
        chosen = Simultaneous(self.move, self.seats, (*self.choices, Choice(seat, card, seq)))
        return chosen, Chose(seat, self.move, card)

    def revealed(self) -> tuple[Choice, ...]:
        """Every choice in seat order; only to be read once `complete`.

        A real check, not an `assert`: it guards hidden information and must hold under -O.
        """
        if not self.complete:
            raise RuntimeError("choices are revealed only once every seat has chosen")
        return tuple(sorted(self.choices, key=lambda c: c.seat))

    def _still(self) -> str:
        waiting = self.waiting
        if not waiting:
            return "every seat has chosen"
        return f"waiting for seat{'s' * (len(waiting) > 1)} {', '.join(map(str, waiting))}"

    def public(self) -> dict[str, Any]:
        """What everybody may know: who still has to choose, not what anyone chose."""
        return {"move": self.move, "waiting": list(self.waiting)}

    def private(self, seat: int) -> str | None:
        """`seat`'s own unrevealed card, for its private part of a view."""
        mine = self.choice_of(seat)
        return mine.card if mine else None
