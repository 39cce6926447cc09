"""Who is asking: a seat, the table (scorekeeper) or a spectator, from the bearer token."""

from __future__ import annotations

from dataclasses import dataclass

from flask import request

from engine.game import SPECTATOR, TABLE, Viewer
from service.problems import Problem
from workers.store import Store


@dataclass(frozen=True)
class Caller:
    viewer: Viewer

    @property
    def is_table(self) -> bool:
        return self.viewer == TABLE

    @property
    def seat(self) -> int | None:
        return self.viewer if isinstance(self.viewer, int) else None

    def acting_seat(self, requested: int | None, seats: int) -> int:
        """The seat a move is made for: the caller's own, or any seat for the table."""
        if self.is_table:
            if requested is None:
                raise Problem(400, "seat-required", "the table token must name the seat it acts for")
            if requested >= seats:
                raise Problem(400, "no-such-seat", f"this game has seats 0 to {seats - 1}")
            return requested
        if self.seat is None:
            raise Problem(401, "token-required", "posting a move needs a seat or table token")
        if requested is not None and requested != self.seat:
            raise Problem(403, "not-your-seat", f"your token is seat {self.seat}'s, not seat {requested}'s")
        return self.seat


def caller(store: Store, game_id: str) -> Caller:
    """A missing token makes a spectator; a token this game does not know is a 401."""
    header = request.headers.get("Authorization", "")
    if not header:
        return Caller(SPECTATOR)
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(401, "bad-token", "use 'Authorization: Bearer <token>'")
    role = store.role(game_id, token.strip())
    if role is None:
        raise Problem(401, "bad-token", "this token is not valid for this game")
    return Caller(TABLE if role == TABLE else int(role))
