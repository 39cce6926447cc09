"""Which games have submissions to judge, which drain job judges them, and which workers live.

Marking a game adds it to the dirty set and rings a bell for a drain waiting for work; a drain
claims games oldest first; a drain slot's flag stands for "a drain job is queued or running in
this slot". These are plain operations (`ring`, `queue_claim`, `drain_may_stop`): the drain
(`workers.drain.Drain`) decides when to wait and what to claim, and holds its claims. The bell
carries the submission a game was marked for, which a drain may judge without claiming the
game; it then unmarks the game (`Settling.unmark`) only if its commit wrote and no later
submission marked the game since, which the marks hash says: a game's latest mark names its
submission. Unmarking cannot go with the commit (on a cluster the game's keys and these live on
different shards), and a game left marked is only claimed once more for nothing.

Each worker process beats a heartbeat every second (`tend`), which also heals what dead
processes left behind. Everything held is a lease that a killed process cannot keep:
- a claim lapses after `CLAIM_S` and goes back among the dirty games, at the next claim or
  heartbeat of any worker;
- a drain slot's flag names the worker running it and is freed at the next heartbeat once that
  worker's own heartbeat has lapsed (a flag of a job still queued lapses after `_FLAG_S`);
- a game's lock (`store.locks`) lapses before the claim taken with it, so a game whose judge
  died is unlocked by the time it is claimed again; a drain that finds a game locked keeps its
  own claim only until that lock lapses.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson
import redis

from store import alive, keys
from store.batch import Answer, Batch

DRAINERS = 2
# Games a drain claims at once: judged in three round trips (claim, read, commit) whatever
# their number (`workers.drain`).
AT_ONCE = 64
CLAIM_S = 5.0
# A worker counts as alive this long after its last heartbeat (it beats every second).
ALIVE_S = 4.0
_FLAG_S = 5
# A drain waiting for work claims again this often, renewing its slot's flag (`_FLAG_S`).
WAIT_AT_ONCE_S = 1.0
# The flag of a drain job queued but not yet started: it has no worker yet.
_QUEUED = "queued"
# A worker whose heartbeat lapsed this long ago is forgotten altogether.
FORGET_S = 3600
# Lapsed claims put back per call: healing stays a bounded amount of work.
_RECLAIM_AT_ONCE = 100

# Shared by the scripts below. Lapsed claims go back among the dirty games, first in line
# (scored by when they lapsed).
_RECLAIM = f"""
local function reclaim(dirty, claimed, now)
  local lapsed = redis.call('ZRANGEBYSCORE', claimed, '-inf', now, 'WITHSCORES',
                            'LIMIT', 0, {_RECLAIM_AT_ONCE})
  for i = 1, #lapsed, 2 do
    redis.call('ZREM', claimed, lapsed[i])
    redis.call('ZADD', dirty, 'NX', lapsed[i + 1], lapsed[i])
  end
  return #lapsed / 2
end
"""

# The first free drain slot among KEYS[first..], taken for a job about to be queued, or -1. A
# second slot opens only while more games wait than one drain claims at once.
_OPEN_SLOT = f"""
local function open_slot(dirty, first, ttl)
  local backlog = redis.call('ZCARD', dirty)
  for slot = 0, #KEYS - first do
    local opens = slot * {AT_ONCE} < backlog
    if opens and redis.call('SET', KEYS[slot + first], 'queued', 'NX', 'EX', ttl) then
      return slot
    end
  end
  return -1
end
"""

# Mark a game dirty and ring the bell for a drain waiting for work: the bell names the game, so
# that the drain it wakes reads that game along with its claim, and carries the submission it
# was marked for (ARGV[2]), so that a drain holding the game's state judges it without reading
# (`Marked`), and the id of the request that posted it (ARGV[3], when there is one), for the
# verdict's log line. One token is enough to wake a waiter, so the bell never holds more.
# ARGV[1] is
# {"now", "game", "flag_s", "unless_claimed", "seq", "mark"}: with `unless_claimed`, a game
# that a drain has claimed is left to it (a reader reminding the scheduler of a pending move);
# `seq` and `mark` name the submission (the marks hash KEYS[4] keeps the latest one's); without
# a game it only opens a slot for the games already waiting.
_MARK_DIRTY = _OPEN_SLOT + """
local a = cjson.decode(ARGV[1])
if a.game and not (a.unless_claimed and redis.call('ZSCORE', KEYS[2], a.game)) then
  redis.call('ZADD', KEYS[1], 'NX', a.now, a.game)
  local rung = a.game
  if a.mark then
    local held = redis.call('HGET', KEYS[4], a.game)
    if not held or tonumber(string.match(held, '^%d+')) < a.seq then
      redis.call('HSET', KEYS[4], a.game, a.mark)
    end
    rung = a.game .. '\\n' .. ARGV[2]
    if ARGV[3] then rung = rung .. '\\n' .. ARGV[3] end
  end
  redis.call('LPUSH', KEYS[3], rung)
  redis.call('LTRIM', KEYS[3], 0, 0)
end
return open_slot(KEYS[1], 5, a.flag_s)
"""

# Settle the claims this drain is done with (`settled`, each only if still its own: the same
# lapse time, since a slow drain whose claim lapsed and was taken by another must not release
# that other's claim): release those of the games it judged ([game, until]), and make those of
# the games it found locked lapse with the lock ([game, until, when the lock lapses]). Unmark
# the games it judged unclaimed (`unmarked`, [game, mark]) unless marked for another
# submission since (KEYS[4], the marks). Then take back lapsed claims, take the `count` oldest
# dirty games and claim them `until`; the drain slot's flag (KEYS[3]) names its `worker` and
# lives `flag_s` while the job works. ARGV[1] is {"now", "until", "flag_s", "worker", "count",
# "settled", "unmarked"}.
_CLAIM = _RECLAIM + """
local a = cjson.decode(ARGV[1])
for _, claim in ipairs(a.settled) do
  if tonumber(redis.call('ZSCORE', KEYS[2], claim[1])) == tonumber(claim[2]) then
    if claim[3] then
      redis.call('ZADD', KEYS[2], 'XX', claim[3], claim[1])
    else
      redis.call('ZREM', KEYS[2], claim[1])
    end
  end
end
for _, marked in ipairs(a.unmarked) do
  if redis.call('HGET', KEYS[4], marked[1]) == marked[2] then
    redis.call('ZREM', KEYS[1], marked[1])
    redis.call('HDEL', KEYS[4], marked[1])
  end
end
reclaim(KEYS[1], KEYS[2], a.now)
redis.call('SET', KEYS[3], a.worker, 'EX', a.flag_s)
local found = redis.call('ZPOPMIN', KEYS[1], a.count)
local games = {}
for i = 1, #found, 2 do
  redis.call('ZADD', KEYS[2], a['until'], found[i])
  redis.call('HDEL', KEYS[4], found[i])
  games[#games + 1] = found[i]
end
return games
"""

# A worker's heartbeat (KEYS[1]: worker -> when its heartbeat lapses): free the slots of
# drains whose worker died, take back lapsed claims, and open a slot for games left waiting.
# ARGV[1] is {"now", "worker", "alive_s", "flag_s", "forget_s"}.
_TEND = _RECLAIM + _OPEN_SLOT + """
local a = cjson.decode(ARGV[1])
redis.call('ZADD', KEYS[1], a.now + a.alive_s, a.worker)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', a.now - a.forget_s)
for k = 4, #KEYS do
  local owner = redis.call('GET', KEYS[k])
  if owner and owner ~= 'queued' then
    local lapses = redis.call('ZSCORE', KEYS[1], owner)
    if not lapses or tonumber(lapses) < a.now then redis.call('DEL', KEYS[k]) end
  end
end
reclaim(KEYS[2], KEYS[3], a.now)
return open_slot(KEYS[2], 4, a.flag_s)
"""

# The slots whose flag names ARGV[1]'s `worker` are freed: its drains have ended.
_FREE_SLOTS = """
local worker = cjson.decode(ARGV[1]).worker
for k = 1, #KEYS do
  if redis.call('GET', KEYS[k]) == worker then redis.call('DEL', KEYS[k]) end
end
"""


class Marked(NamedTuple):
    """The submission a game is marked for, carried by the bell to a drain waiting for work."""

    seq: int
    hash: str
    entry: bytes  # as appended: its canonical JSON
    request: str | None = None  # the id of the request that posted it

    @property
    def mark(self) -> str:
        return f"{self.seq}:{self.hash}"


class Ring(NamedTuple):
    """What the bell carried: the game marked, and the submission it was marked for, if any."""

    game: str
    submission: bytes | None
    request: str | None = None  # the id of the request that posted the submission


class Claim(NamedTuple):
    """A game a drain claimed, and when that claim lapses: a string, since a Lua number would
    reach Redis rounded, and settling the claim compares it."""

    game: str
    until: str


@dataclass
class Settling:
    """What a drain is done with, settled by its next claim without a round trip of its own."""

    # Claims to settle: [game, until] released (a judged game), or [game, until, when to lapse
    # instead] (a game found locked).
    claims: list[list[str]] = field(default_factory=list)
    # Games judged unclaimed, to unmark: [game, its `Marked.mark`].
    marks: list[list[str]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.claims or self.marks)

    def release(self, claim: Claim) -> None:
        """Release a claim on a game judged (a claim since taken by another drain stays with
        it)."""
        self.claims.append([claim.game, claim.until])

    def lapse(self, claim: Claim, in_s: float) -> None:
        """Make a claim lapse in `in_s` (when the lock of the game it found locked lapses)."""
        self.claims.append([claim.game, claim.until, repr(time.time() + in_s)])

    def unmark(self, game_id: str, marked: Marked) -> None:
        """Unmark a game judged without claiming it, up to the submission `marked`: unless the
        game was marked for a later submission since (then it waits for that one, claimed as
        any other)."""
        self.marks.append([game_id, marked.mark])


class Scheduler:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._mark_dirty = client.register_script(_MARK_DIRTY)
        self._claim = client.register_script(_CLAIM)
        self._tend = client.register_script(_TEND)
        self._free_slots = client.register_script(_FREE_SLOTS)

    def mark_dirty(self, game_id: str | None = None, unless_claimed: bool = False) -> int | None:
        """Note that `game_id` has submissions to judge; the drain slot to queue a job for, if any.

        While a slot's flag is set, submissions only join the dirty set, so under load one job
        judges the moves of many games. A second slot opens only while more games wait than
        one drain claims at once (`AT_ONCE`): while one drain can take them all, a second only
        splits each game's moves between two processes, each then decoding the state the other
        left instead of judging on from its own (measured: docs/benchmarks.md). Without a game
        it only opens a slot for games already waiting (a worker starting up). `unless_claimed`
        leaves a game a drain is judging to it.
        """
        return slot_of(self._mark_dirty(*_marking(game_id, unless_claimed)))

    def queue_mark(self, batch: Batch, game_id: str, marked: Marked | None = None
                   ) -> Answer[int | None]:
        """`mark_dirty` in a batch, for the submission `marked`."""
        keys_, args = _marking(game_id, False, marked)
        return batch.script(self._mark_dirty, keys_, args, read=slot_of)

    def ring(self, timeout_s: float) -> Ring | None:
        """What the bell carries, waiting up to `timeout_s` for a marked game to ring it.
        Claiming is a script and cannot block: a drain waiting for work blocks here."""
        rang = self.redis.blpop([keys.BELL], timeout=timeout_s)
        if rang is None:
            return None
        # The entry is canonical JSON: no newline in it.
        game, _, carried = rang[1].partition(b"\n")
        submission, _, request = carried.partition(b"\n")
        return Ring(game.decode(), submission or None, request.decode() or None)

    def queue_claim(self, batch: Batch, slot: int, worker: str = _QUEUED, count: int = 1,
                    settling: Settling | None = None) -> Answer[list[Claim]]:
        """Claim up to `count` games, marked dirty longest ago first, settling first what the
        drain is done with; each claim lapses after `CLAIM_S`, so a game whose job died before
        judging it is not lost: the next claim or heartbeat puts it back. The claim renews the
        slot's flag, which names the `worker` running the drain."""
        now = time.time()
        until = repr(now + CLAIM_S)
        settling = settling or Settling()
        return batch.script(
            self._claim,
            [keys.DIRTY, keys.CLAIMED, keys.draining(slot), keys.MARKS],
            [orjson.dumps({
                "now": now, "until": until, "flag_s": _FLAG_S, "worker": worker,
                "count": count, "settled": settling.claims, "unmarked": settling.marks,
            })],
            read=lambda found: [Claim(game.decode(), until) for game in found],
        )

    def claim(self, slot: int, worker: str = _QUEUED, count: int = 1,
              settling: Settling | None = None) -> list[Claim]:
        """`queue_claim` in a round trip of its own."""
        batch = Batch(self.redis)
        claiming = self.queue_claim(batch, slot, worker, count, settling)
        batch.run()
        return claiming.value

    def hand_over(self, slot: int, settling: Settling) -> None:
        """Settle what a drain is done with and leave its slot's flag as a queued job's, for
        the job about to be queued in its place."""
        self.claim(slot, _QUEUED, 0, settling)

    def queue_waiting(self, batch: Batch) -> Answer[int]:
        """Queue counting the games marked dirty and claimed by no drain."""
        return batch.add("ZCARD", keys.DIRTY)

    def drain_may_stop(self, slot: int, worker: str = _QUEUED,
                       settling: Settling | None = None) -> bool:
        """Settle what the drain is done with and lower the slot's flag; False if a game was
        marked dirty meanwhile and this drain took the flag back, so the caller must go on
        draining instead of stopping."""
        if settling:
            self.claim(slot, worker, 0, settling)
        flag = keys.draining(slot)
        pipe = self.redis.pipeline(transaction=False)
        pipe.delete(flag)
        pipe.zcard(keys.DIRTY)
        if not pipe.execute()[1]:
            return True
        return not self.redis.set(flag, worker, nx=True, ex=_FLAG_S)

    def tend(self, worker: str) -> int | None:
        """A heartbeat of `worker`, which also heals what dead workers left: their slots are
        freed and their lapsed claims taken back. The drain slot to queue a job for, if games
        wait with no drain to judge them. While Redis is full it refuses all that (`FULL`,
        raised), and the worker's alive key is only kept alive (`store.alive`)."""
        beat = {"now": time.time(), "worker": worker, "alive_s": ALIVE_S, "flag_s": _FLAG_S,
                "forget_s": FORGET_S}
        batch = Batch(self.redis)
        tending = batch.script(self._tend, [keys.WORKERS, keys.DIRTY, keys.CLAIMED, *_flags()],
                               [orjson.dumps(beat)], read=slot_of)
        beating = batch.add(*alive.beat(keys.alive(worker)))
        batch.run()
        if alive.refused(beating.raw):
            alive.hold_on(self.redis, keys.alive(worker))
        return tending.value

    def free_slots(self, worker: str) -> None:
        """Free the drain slots `worker` holds: none of its drains runs any more."""
        self._free_slots(keys=_flags(), args=[orjson.dumps({"worker": worker})])

    def live_workers(self) -> int:
        """Judging workers beating, by their alive keys: counted right while Redis is full."""
        named = self.redis.zrange(keys.WORKERS, 0, -1)
        return alive.counted(self.redis, [keys.alive(w.decode()) for w in named],
                             ALIVE_S)


def _flags() -> list[str]:
    return [keys.draining(slot) for slot in range(DRAINERS)]


def slot_of(answer: int) -> int | None:
    """The drain slot a mark opened, from the marking script's answer."""
    return None if answer < 0 else int(answer)


def _marking(game_id: str | None, unless_claimed: bool, marked: Marked | None = None
             ) -> tuple[list[str], list[bytes]]:
    args: dict[str, Any] = {"now": time.time(), "flag_s": _FLAG_S,
                            "unless_claimed": unless_claimed}
    if game_id:
        args["game"] = game_id
    if marked is not None:
        args.update(seq=marked.seq, mark=marked.mark)
    carried = [orjson.dumps(args)] + ([] if marked is None else [marked.entry])
    if marked is not None and marked.request:
        carried.append(marked.request.encode())
    return [keys.DIRTY, keys.CLAIMED, keys.BELL, keys.MARKS, *_flags()], carried
