"""Who is asking and about which game: one round trip per request, before any handler runs,
or none for a move to a game this process remembers (`RememberedGames`).

A request about a game first reads its context (`callers_game`): its meta, the caller's role,
whether it is over, and the rate limits' counts. For a move to a game this process has seen,
nothing of that needs reading again. The game's title, players and options never change and a
token's role neither; the append script refuses a game that is over, takes the counts the
request owes (`service.limits.Asked.take`) and, should the log have moved past the head
remembered here, names the head it is at, to chain the move onto (`store.log.Log.submit`). The
head is the one the last verdict this process waited for left, so a player's next move mostly
finds it right, and costs one more round trip when it does not (its players reach other
processes too): what the context read cost every move.
"""

from __future__ import annotations

import hmac
import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any

from engine.game import SPECTATOR, TABLE, Game, Viewer
from engine.log import rules
from engine.visibility import shown_to
from service.limits import UNLIMITED, Asked
from service.problems import Problem
from store import Store
from store.log import VerdictRead


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
    owed: Asked | None = None

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


# Games remembered, the least recently posted to forgotten first.
_GAMES = 4096


@dataclass
class _Game:
    head: tuple[int, str]  # the log's version and last hash, as last seen
    seen_by: dict[str, CallersGame] = field(default_factory=dict)  # by Authorization header


class RememberedGames:
    def __init__(self, most: int = _GAMES):
        self.most = most
        self._games: OrderedDict[str, _Game] = OrderedDict()
        self._lock = threading.Lock()  # gunicorn's threads share it

    def recall(self, game_id: str, authorization: str, asked: Asked) -> CallersGame | None:
        """The game as this caller saw it last, at the head last seen, owing `asked`'s counts;
        None unless this process remembers both, and the counts can go with the append."""
        if not asked.with_append:
            return None
        with self._lock:
            game = self._games.get(game_id)
            found = None if game is None else game.seen_by.get(authorization)
            if found is None:
                return None
            self._games.move_to_end(game_id)
            version, last_hash = game.head
        meta = {**found.meta, "version": version, "hash": last_hash}
        return replace(found, meta=meta, owed=asked)

    def learn(self, seen: CallersGame, authorization: str) -> None:
        """Remember a game in progress as a seat or the table sees it (read just now)."""
        if seen.finished or seen.caller.viewer == SPECTATOR:
            return
        head = (seen.meta["version"], seen.meta["hash"])
        with self._lock:
            game = self._games.setdefault(seen.id, _Game(head))
            game.seen_by[authorization] = seen
            self._advance(game, head)
            self._games.move_to_end(seen.id)
            while len(self._games) > self.most:
                self._games.popitem(last=False)

    def saw(self, game_id: str, read: VerdictRead) -> None:
        """What a wait for a verdict saw: the head, when the verdict was the log's last entry."""
        last, verdict = read
        if verdict is None or verdict["seq"] != last:
            return
        with self._lock:
            if (game := self._games.get(game_id)) is not None:
                self._advance(game, (last, verdict["hash"]))

    def forget(self, game_id: str) -> None:
        """A game that is over, or gone."""
        with self._lock:
            self._games.pop(game_id, None)

    @staticmethod
    def _advance(game: _Game, head: tuple[int, str]) -> None:
        # Waits end in any order: a head is never taken back to an earlier version.
        if head[0] >= game.head[0]:
            game.head = head
