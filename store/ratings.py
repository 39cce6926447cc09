"""The rated games of each title, in the order their ends were recorded: what
`engine.ratings` folds into ratings.

A game is listed once it finishes, if its creation named handles for some seats: by the drain
that judged its last move, or else by its compaction (`workers.compaction`), whichever comes
first; a script lists it at most once. The list is a stream per title (`store.keys.rated`),
read from where a reader left it.
"""

from __future__ import annotations

from collections.abc import Sequence

import orjson
import redis

from engine.ratings import RatedGame
from store import keys

# KEYS: the title's stream and its set of ids; ARGV[1] the game's id, ARGV[2] its rated game.
_LIST_ONCE = """
if redis.call('SADD', KEYS[2], ARGV[1]) == 1 then
  redis.call('XADD', KEYS[1], '*', 'g', ARGV[2])
end
"""


class Ratings:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._list_once = client.register_script(_LIST_ONCE)

    def ended(self, game_id: str, title: str, seq: int, ranks: Sequence[int]) -> bool:
        """List a game that finished at entry `seq` with final places `ranks`, if its creation
        named handles; whether it is listed (now or before)."""
        raw = self.redis.hget(keys.game(game_id).meta, "handles")
        if raw is None:
            return False
        handles = {int(seat): handle for seat, handle in orjson.loads(raw).items()}
        game = RatedGame(game_id, title, seq, handles, tuple(ranks))
        self._list_once(keys=[keys.rated(title), keys.rated_ids(title)],
                        args=[game_id, orjson.dumps(game.to_json())])
        return True

    def since(self, title: str, after: str = "0") -> tuple[list[RatedGame], str]:
        """The title's rated games listed after stream id `after`, and the id to read on from."""
        found = self.redis.xrange(keys.rated(title), f"({after}" if after != "0" else "-")
        games = [RatedGame.from_json(orjson.loads(fields[b"g"])) for _, fields in found]
        return games, (found[-1][0].decode() if found else after)
