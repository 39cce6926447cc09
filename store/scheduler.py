"""Which games have submissions to judge, and which drain job judges them.

Marking a game adds it to the dirty set and rings a bell for a drain waiting for work; a drain
claims games oldest first, each claim lapsing after a while so that a job that dies loses
nothing; a drain slot's flag stands for "a drain job is queued or running in this slot".
"""

from __future__ import annotations

import time

import orjson
import redis

from store import keys

DRAINERS = 2
_DRAIN_FLAG_S = 10
_CLAIM_S = 30

# Mark a game dirty and ring the bell (KEYS[2]) for a drain waiting for work; one token is
# enough to wake a waiter, so the bell never holds more. ARGV[1] is {"now", "game", "flag_s"};
# without a game it only opens a slot for the games already waiting.
_MARK_DIRTY = """
local a = cjson.decode(ARGV[1])
if a.game then
  redis.call('ZADD', KEYS[1], 'NX', a.now, a.game)
  redis.call('LPUSH', KEYS[2], 1)
  redis.call('LTRIM', KEYS[2], 0, 0)
end
local backlog = redis.call('ZCARD', KEYS[1])
for slot = 0, #KEYS - 3 do
  if slot < backlog and redis.call('SET', KEYS[slot + 3], 1, 'NX', 'EX', a.flag_s) then
    return slot
  end
end
return -1
"""

# Take the oldest dirty game and claim it until ARGV[1]'s `until`; keep the drain slot's flag
# (KEYS[3]) alive for `flag_s` while its job works, so a flag outlives its job by at most that.
_CLAIM = """
local a = cjson.decode(ARGV[1])
redis.call('EXPIRE', KEYS[3], a.flag_s)
local found = redis.call('ZPOPMIN', KEYS[1])
if #found == 0 then return false end
redis.call('ZADD', KEYS[2], a['until'], found[1])
return found[1]
"""

# Claims that lapsed by ARGV[1]'s `now` (their job died between claiming a game and judging
# it) go back to dirty.
_RECLAIM = """
local now = cjson.decode(ARGV[1]).now
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
for _, game in ipairs(lapsed) do
  redis.call('ZREM', KEYS[2], game)
  redis.call('ZADD', KEYS[1], 'NX', now, game)
end
return #lapsed
"""


class Scheduler:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._mark_dirty = client.register_script(_MARK_DIRTY)
        self._claim = client.register_script(_CLAIM)
        self._reclaim = client.register_script(_RECLAIM)

    def mark_dirty(self, game_id: str | None = None) -> int | None:
        """Note that `game_id` has submissions to judge; the drain slot to queue a job for, if any.

        While a slot's flag is set, submissions only join the dirty set, so under load one job
        judges the moves of many games. A second slot opens only while more than one game
        waits, so that two workers overlap their waits on Redis under load and a quiet service
        runs one job at a time. Without a game it only opens a slot for games already waiting
        (a worker starting up).
        """
        flags = [keys.draining(slot) for slot in range(DRAINERS)]
        marked = {"now": time.time(), "flag_s": _DRAIN_FLAG_S}
        if game_id is not None:
            marked["game"] = game_id
        slot = self._mark_dirty(keys=[keys.DIRTY, keys.BELL, *flags], args=[orjson.dumps(marked)])
        return None if slot < 0 else int(slot)

    def next_dirty(self, slot: int, linger_s: float) -> str | None:
        """Claim the game marked dirty longest ago, waiting up to `linger_s` for one to appear.

        The claim lapses after a while, so a game whose job died before judging it is not lost:
        `reclaim_lapsed` puts it back. Call `judged` once the game is judged. Claiming is one
        script, so it cannot block; waiting blocks on the bell that marking a game rings.
        """
        deadline = time.monotonic() + linger_s
        while True:
            claimed = self._claim(
                keys=[keys.DIRTY, keys.CLAIMED, keys.draining(slot)],
                args=[orjson.dumps({"until": time.time() + _CLAIM_S, "flag_s": _DRAIN_FLAG_S})],
            )
            left = deadline - time.monotonic()
            if claimed is not None or left <= 0:
                return claimed.decode() if claimed is not None else None
            self.redis.blpop([keys.BELL], timeout=left)

    def judged(self, game_id: str) -> None:
        self.redis.zrem(keys.CLAIMED, game_id)

    def reclaim_lapsed(self) -> int:
        """Put games whose claim lapsed back among the dirty ones; how many there were."""
        return self._reclaim(
            keys=[keys.DIRTY, keys.CLAIMED], args=[orjson.dumps({"now": time.time()})]
        )

    def drain_may_stop(self, slot: int) -> bool:
        """Lower the slot's flag; False if a game was marked dirty meanwhile and this drain took
        the flag back, so the caller must go on draining instead of stopping."""
        flag = keys.draining(slot)
        pipe = self.redis.pipeline(transaction=False)
        pipe.delete(flag)
        pipe.zcard(keys.DIRTY)
        if not pipe.execute()[1]:
            return True
        return not self.redis.set(flag, 1, nx=True, ex=_DRAIN_FLAG_S)
