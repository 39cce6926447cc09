"""Who is asking and about which game: one round trip per request, before any handler runs."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Any

from engine.game import SPECTATOR, TABLE, Game, Viewer
from engine.log import rules
from engine.visibility import shown_to
from service.limits import UNLIMITED, Asked, Owed
from service.problems import Problem
from store import Store


@dataclass(frozen=True)
class Caller:
    viewer: Viewer

    @property
    def is_table(self) -> bool:
        return self.viewer == TABLE

    @property
    def seat(self) -> int | None:
        return self.viewer if isinstance(self.viewer, int) else None

    def acting_seat(self, requested: int | None, seats: int, for_none: bool = False
                    ) -> int | str:
        """The seat a move is made for: the caller's own, or any seat for the table, or the
        table itself (`TABLE`) for a table action it may make `for_none` (a takeback)."""
        if self.is_table:
            if requested is None and for_none:
                return TABLE
            if requested is None:
                raise Problem(
                    400, "seat-required", "the table token must name the seat it acts for"
                )
            if requested >= seats:
                raise Problem(400, "no-such-seat", f"this game has seats 0 to {seats - 1}")
            return requested
        if self.seat is None:
            raise Problem(401, "token-required", "posting a move needs a seat or table token")
        if requested is not None and requested != self.seat:
            raise Problem(
                403, "not-your-seat", f"your token is seat {self.seat}'s, not seat {requested}'s"
            )
        return self.seat


@dataclass(frozen=True)
class CallersGame:
    """A game as one request sees it: its meta, its rules, the caller, whether it is over."""

    id: str
    meta: dict[str, Any]
    game: Game
    caller: Caller
    finished: bool
    # Its rate limits' counts, when the request did not take them with the game's context.
    owed: Owed | None = None

    @property
    def viewer(self) -> Viewer:
        """Whose view the caller gets of this game."""
        return shown_to(self.caller.viewer, self.finished)


def bearer(authorization: str) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, None when there is no header."""
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Problem(401, "bad-token", "use 'Authorization: Bearer <token>'")
    return token


def operator(configured: str | None, authorization: str) -> None:
    """Only the operator may import games, with the token the service is configured with
    (TABLELOG_IMPORT_TOKEN); without one configured, importing is off. A request with no
    token is a 401 either way (RFC 9110: it lacks credentials, whatever the server takes);
    a token on a server that takes none is a 403."""
    token = bearer(authorization)
    if token is None:
        raise Problem(401, "token-required", "importing a game needs the operator's import token")
    if not configured:
        raise Problem(
            403, "import-disabled", "this server takes no imports (TABLELOG_IMPORT_TOKEN is unset)"
        )
    # from_prefixed_env reads a token of digits as a number.
    if not hmac.compare_digest(token.encode(), str(configured).encode()):
        raise Problem(401, "bad-token", "this is not the operator's import token")


def callers_game(store: Store, game_id: str, authorization: str,
                 limited: Asked = UNLIMITED) -> CallersGame:
    """A missing token makes a spectator; a token this game does not know is a 401. The rate
    limits' counts `limited` asks for are taken in the same round trip, and refuse first."""
    token = bearer(authorization)
    context = store.games.context(game_id, token, limited.counts)
    limited.refuse_past(context.counts)
    meta, role, finished = context.meta, context.role, context.finished
    if meta is None:
        raise Problem(404, "game-not-found", f"there is no game {game_id!r}")
    if token and role is None:
        raise Problem(401, "bad-token", "this token is not valid for this game")
    caller = Caller(SPECTATOR if role is None else TABLE if role == TABLE else int(role))
    return CallersGame(game_id, meta, rules(meta), caller, finished)
