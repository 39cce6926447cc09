"""Submissions written but never marked: found by the workers' heartbeat, so that they are judged.

A move's append and its game's mark go in one round trip, but not in one script: on a Redis
Cluster the game's keys and the scheduler's live on different shards. Should the append land
and the mark fail (a full Redis refuses the mark once the append took the last of its memory;
a process dies between the two on a cluster), nothing would judge the move, and a client that
never reads it back would never remind the scheduler (`service.handlers.lookup`). So each
judging worker's heartbeat looks at a slice of the games, newest first, and marks those whose
last submission is past their last judged one while neither marked nor claimed
(`workers.presence.tend`). A slice is two round trips: the index, then each game's progress
read beside the marks, which cost the moves themselves nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import redis

from store import keys
from store.stored import ProjField

# Games looked at per heartbeat: with two workers beating every second, 4,000 games are all
# looked at within the 10 s an unmarked submission may wait; more games take a proportionally
# longer pass.
AT_ONCE = 200


def pending(client: redis.Redis, game_ids: Sequence[str]) -> list[tuple[str, int, int]]:
    """Each of these games with submissions waiting: (game, last submission, last judged)."""
    pipe = client.pipeline(transaction=False)
    for game_id in game_ids:
        k = keys.game(game_id)
        pipe.hget(k.meta, "submitted")
        pipe.hget(k.proj, ProjField.JUDGED)
    progress = pipe.execute()
    found = zip(game_ids, progress[::2], progress[1::2], strict=True)
    return [(g, int(s or 0), int(j or 0)) for g, s, j in found if int(s or 0) > int(j or 0)]


def unmarked(client: redis.Redis, game_ids: Sequence[str]) -> list[str]:
    """Those of these games with submissions waiting that no mark or claim names."""
    waiting = [game for game, _, _ in pending(client, game_ids)]
    if not waiting:
        return []
    pipe = client.pipeline(transaction=False)
    pipe.zmscore(keys.DIRTY, waiting)
    pipe.zmscore(keys.CLAIMED, waiting)
    dirty, claimed = pipe.execute()
    return [g for g, d, c in zip(waiting, dirty, claimed, strict=True) if d is None and c is None]


class UnmarkedSweep:
    """One worker's pass over the games, a slice a heartbeat."""

    def __init__(self, client: redis.Redis):
        self.redis = client
        self._from = 0  # the rank, newest first, of the next slice's first game

    def look(self, at_once: int = AT_ONCE) -> list[str]:
        """The games of the next slice with submissions that nothing will judge as things are.
        A game created or dropped meanwhile shifts the ranks: it is looked at next pass."""
        found = [g.decode() for g in self.redis.zrevrange(keys.GAMES, self._from,
                                                          self._from + at_once - 1)]
        self._from = 0 if len(found) < at_once else self._from + at_once
        return unmarked(self.redis, found)
