"""The games a web process took moves for, remembered so that the next move to one is posted
in a single round trip.

A request about a game first reads its context (`service.auth.callers_game`): its meta, the caller's
role, whether it is over, and the rate limits' counts. For a move to a game this process has
seen, nothing of that needs reading again. The game's title, players and options never change
and a token's role neither; the append script refuses a game that is over, takes the counts
the request owes (`service.limits.Owed`) and, should the log have moved past the head
remembered here, names the head it is at, to chain the move onto (`store.Store.submit`). The
head is the one the last verdict this process waited for left, so a player's next move mostly
finds it right, and costs one more round trip when it does not (its players reach other
processes too): what the context read cost every move.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace

from engine.game import SPECTATOR
from service.auth import CallersGame
from service.limits import Asked, Owed
from store import VerdictRead

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
        if not asked.within(game_id):
            return None
        with self._lock:
            game = self._games.get(game_id)
            found = None if game is None else game.seen_by.get(authorization)
            if found is None:
                return None
            self._games.move_to_end(game_id)
            version, last_hash = game.head
        meta = {**found.meta, "version": version, "hash": last_hash}
        return replace(found, meta=meta, owed=Owed(asked))

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
