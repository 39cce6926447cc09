"""Ratings: each title's players rated over its finished games, by openskill's Plackett-Luce
model (Weng and Lin's, made for free-for-all games of several players).

A game is rated when it finishes by its rules (not abandoned) and at least two of its seats
gave a player handle at its creation: those seats are rated among themselves, by the places
the game's final score gives them (ties share a place; a seat that conceded ranks as the score
ranks it). Seats without a handle are not rated, and do not count as opponents. Every rating
starts at the model's defaults (mu 25, sigma 25/3); a player's conservative display rating is
`mu - 3 sigma` (openskill's `ordinal`). Games are folded in the order the server recorded their
ends in (`store.ratings`), so a player's history is reproduced exactly from that list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from openskill.models import PlackettLuce

from engine.frozen import frozen

MODEL = PlackettLuce()


@frozen
class RatedGame:
    """A finished game as rated: its id, title, final entry's seq, the handles of its rated
    seats (by seat) and every seat's final place."""

    game: str
    title: str
    seq: int
    handles: Mapping[int, str]
    ranks: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "title": self.title, "seq": self.seq,
                "handles": {str(seat): h for seat, h in self.handles.items()},
                "ranks": list(self.ranks)}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> RatedGame:
        return cls(raw["game"], raw["title"], raw["seq"],
                   {int(seat): h for seat, h in raw["handles"].items()}, tuple(raw["ranks"]))


@frozen
class Rating:
    mu: float
    sigma: float

    @property
    def display(self) -> float:
        """The conservative rating shown: the model's ordinal, mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma, "display": self.display}


START = Rating(MODEL.mu, MODEL.sigma)


@frozen
class Change:
    """What one rated game did to one player's rating, citing the game."""

    handle: str
    game: RatedGame
    seat: int
    before: Rating
    after: Rating

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game.game, "title": self.game.title, "seq": self.game.seq,
                "seat": self.seat, "rank": self.game.ranks[self.seat],
                "opponents": sorted(h for s, h in self.game.handles.items() if s != self.seat),
                "before": self.before.to_json(), "after": self.after.to_json()}


def rated(game: RatedGame, ratings: Mapping[str, Rating]) -> list[Change]:
    """The changes one game makes to its rated seats' ratings (`ratings`, START for a player
    not rated yet); none unless two seats or more are rated."""
    seats = sorted(game.handles)
    if len(seats) < 2:
        return []
    before = [ratings.get(game.handles[s], START) for s in seats]
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in before]
    after = MODEL.rate(teams, ranks=[game.ranks[s] for s in seats])
    return [Change(game.handles[s], game, s, b, Rating(a[0].mu, a[0].sigma))
            for s, b, a in zip(seats, before, after, strict=True)]


class Ladder:
    """One title's ratings, folded game by game: each player's rating and history."""

    def __init__(self) -> None:
        self.ratings: dict[str, Rating] = {}
        self.history: dict[str, list[Change]] = {}

    def fold(self, games: Iterable[RatedGame]) -> None:
        for game in games:
            for change in rated(game, self.ratings):
                self.ratings[change.handle] = change.after
                self.history.setdefault(change.handle, []).append(change)
