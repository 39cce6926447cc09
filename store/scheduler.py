"""Which games have submissions to judge, which drain job judges them, and which workers live.

Marking a game adds it to the dirty set and rings a bell for a drain waiting for work; a drain
claims games oldest first; a drain slot's flag stands for "a drain job is queued or running in
this slot". The bell carries the submission a game was marked for, which a drain may judge
without claiming the game (`next_dirty`'s `handed`); it then unmarks the game (`unmark`) only
if its commit wrote and no later submission marked the game since, which the marks hash says:
a game's latest mark names its submission. Unmarking cannot go with the commit (on a cluster
the game's keys and these live on different shards), and a game left marked is only claimed
once more for nothing.

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

import threading
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import orjson
import redis

from store import alive, keys
from store.batch import Batch, checked

DRAINERS = 2
# Games a drain claims at once: judged in three round trips (claim, read, commit) whatever
# their number.
AT_ONCE = 64
CLAIM_S = 5.0
# A worker counts as alive this long after its last heartbeat (it beats every second).
ALIVE_S = 4.0
_FLAG_S = 5
# A drain waiting for work claims again this often, renewing its slot's flag (`_FLAG_S`).
_WAIT_AT_ONCE_S = 1.0
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
# (`Marked`). One token is enough to wake a waiter, so the bell never holds more. ARGV[1] is
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
  end
  redis.call('LPUSH', KEYS[3], rung)
  redis.call('LTRIM', KEYS[3], 0, 0)
end
return open_slot(KEYS[1], 5, a.flag_s)
"""

# Settle the claims this drain is done with (`settled`, each only if still its own): release
# those of the games it judged ([game, until]), and make those of the games it found locked
# lapse with the lock ([game, until, when the lock lapses]). Unmark the games it judged
# unclaimed (`unmarked`, [game, mark]) unless marked for another submission since (KEYS[4],
# the marks). Then take back lapsed claims, take the `count` oldest dirty games and claim them
# `until`; the drain slot's flag (KEYS[3]) names its `worker` and lives `flag_s` while the job
# works. ARGV[1] is {"now", "until", "flag_s", "worker", "count", "settled", "unmarked"}.
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

    @property
    def mark(self) -> str:
        return f"{self.seq}:{self.hash}"


class Ring(NamedTuple):
    """What the bell carried: the game marked, and the submission it was marked for, if any."""

    game: str
    submission: bytes | None


# Commands about one game sent with a claim (`Scheduler.next_dirty`): they are queued in the
# claim's batch, and the function they return is given its answers.
Along = Callable[[Batch, str], Callable[[list[Any]], None]]
# Offered what the bell carried before a claim: True when the caller judges that submission
# itself, claiming nothing.
Takes = Callable[[Ring], bool]


class Scheduler:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._mark_dirty = client.register_script(_MARK_DIRTY)
        self._claim = client.register_script(_CLAIM)
        self._tend = client.register_script(_TEND)
        self._free_slots = client.register_script(_FREE_SLOTS)
        # The claims this object took and has not released: game -> when the claim lapses.
        self._claims: dict[str, str] = {}
        # Claims settled by the next claim: [game, when it lapses], released (a judged game),
        # or with when to lapse instead (a game found locked).
        self._settled: list[list[str]] = []
        # Games judged unclaimed, unmarked by the next claim: [game, its `Marked.mark`].
        self._unmarked: list[list[str]] = []

    def mark_dirty(self, game_id: str | None = None, unless_claimed: bool = False) -> int | None:
        """Note that `game_id` has submissions to judge; the drain slot to queue a job for, if any.

        While a slot's flag is set, submissions only join the dirty set, so under load one job
        judges the moves of many games. A second slot opens only while more games wait than
        one drain claims at once (`AT_ONCE`): while one drain can take them all, a second only
        splits each game's moves between two processes, each then decoding the state the other
        left instead of judging on from its own (with 32 clients posting, 0.28-0.30 ms of the
        workers' CPU a verdict against 0.15-0.19, and 0.41-0.42x the ceiling's verdicts a
        second against 0.48-0.51x). Without a game it only opens a slot for games already waiting
        (a worker starting up). `unless_claimed` leaves a game a drain is judging to it.
        """
        return slot_of(self._mark_dirty(*_marking(game_id, unless_claimed)))

    def queue_mark(self, batch: Batch, game_id: str, marked: Marked | None = None) -> int:
        """`mark_dirty` in a batch, for the submission `marked`; `slot_of` reads its answer."""
        keys_, args = _marking(game_id, False, marked)
        return batch.script(self._mark_dirty, keys_, args)

    def next_dirty(
        self, slot: int, linger_s: float, worker: str = _QUEUED, at_most: int = 1,
        give_up: threading.Event | None = None, along: Along | None = None,
        bell_first: bool = False, handed: Takes | None = None,
    ) -> list[str]:
        """Claim up to `at_most` games, marked dirty longest ago first, waiting up to `linger_s`
        for one to appear.

        A claim lapses after `CLAIM_S`, so a game whose job died before judging it is not
        lost: the next claim or heartbeat puts it back. Release a claim once its game is judged
        (`judged`: the next claim does it without a round trip of its own). Claiming is one
        script, so it cannot block; waiting blocks on the bell that marking a game rings, a
        second at a time: each claim renews the slot's flag, and `give_up` (set) ends the wait.
        `worker` names the process running the drain, for its slot's flag. The claim that
        follows a ring carries `along`'s commands about the game the bell named, in its round
        trip, and returns whatever it claimed, nothing included. `bell_first` waits for the
        bell before the first claim: the caller knows that no game waited a moment ago (a
        drain right after its commit), and a game marked since rang it. What the bell carried
        is offered to `handed` first: when it takes it, nothing is claimed (none is returned).
        """
        deadline = time.monotonic() + linger_s
        rung = self._rung(min(linger_s, _WAIT_AT_ONCE_S)) if bell_first and linger_s else None
        while True:
            if rung is not None and handed is not None and handed(rung):
                return []
            now = time.time()
            # A string: a Lua number would reach Redis rounded, and the release compares it.
            until = repr(now + CLAIM_S)
            settled, self._settled = self._settled, []
            unmarked, self._unmarked = self._unmarked, []
            batch = Batch(self.redis)
            claiming = batch.script(
                self._claim,
                [keys.DIRTY, keys.CLAIMED, keys.draining(slot), keys.MARKS],
                [orjson.dumps({
                    "now": now, "until": until, "flag_s": _FLAG_S, "worker": worker,
                    "count": at_most, "settled": settled, "unmarked": unmarked,
                })],
            )
            answered = (along(batch, rung.game) if along is not None and rung is not None
                        else None)
            answers = batch.run()
            if answered is not None:
                answered(answers)
            claimed = checked(answers[claiming])
            left = deadline - time.monotonic()
            stop = left <= 0 or (give_up is not None and give_up.is_set())
            # What was sent along is the caller's to finish (a lock it took, say), at once.
            if claimed or answered is not None or stop:
                games = [game.decode() for game in claimed]
                self._claims.update(dict.fromkeys(games, until))
                return games
            rung = self._rung(min(left, _WAIT_AT_ONCE_S))

    def _rung(self, timeout_s: float) -> Ring | None:
        """What the bell carries, waiting up to `timeout_s` for it to ring."""
        rang = self.redis.blpop([keys.BELL], timeout=timeout_s)
        if rang is None:
            return None
        game, _, submission = rang[1].partition(b"\n")
        return Ring(game.decode(), submission or None)

    def queue_waiting(self, batch: Batch) -> int:
        """Queue counting the games marked dirty and claimed by no drain."""
        return batch.add("ZCARD", keys.DIRTY)

    def judged(self, game_id: str) -> None:
        """Release this drain's claim on a game it judged, with its next claim (a claim since
        taken by another drain stays with it)."""
        until = self._claims.pop(game_id, None)
        if until is not None:
            self._settled.append([game_id, until])

    def unmark(self, game_id: str, marked: Marked) -> None:
        """Unmark a game this drain judged without claiming it, up to the submission `marked`,
        with its next claim: unless the game was marked for a later submission since (then it
        waits for that one, claimed as any other)."""
        self._unmarked.append([game_id, marked.mark])

    def leave(self, game_id: str, lock_lapses_in_s: float | None = None) -> None:
        """Leave this drain's claim on a game it could not judge to lapse, and another drain to
        judge the game then. A game another worker holds locked (`lock_lapses_in_s`) is left
        only until that lock lapses (with the next claim): a live holder judges what it finds
        before releasing the lock, and a dead one's game is taken back as soon as its lock
        lapses, not a whole claim later."""
        until = self._claims.pop(game_id, None)
        if until is not None and lock_lapses_in_s is not None:
            self._settled.append([game_id, until, repr(time.time() + lock_lapses_in_s)])

    def drain_may_stop(self, slot: int, worker: str = _QUEUED) -> bool:
        """Settle this drain's claims (`judged`, `leave`) and lower the slot's flag; False if a
        game was marked dirty meanwhile and this drain took the flag back, so the caller must go
        on draining instead of stopping."""
        if self._settled or self._unmarked:
            self.next_dirty(slot, 0, worker, at_most=0)
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
                               [orjson.dumps(beat)])
        beating = batch.add(*alive.beat(keys.alive(worker)))
        answers = batch.run()
        if alive.refused(answers[beating]):
            alive.hold_on(self.redis, keys.alive(worker))
        slot = checked(answers[tending])
        return None if slot < 0 else int(slot)

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
    return [keys.DIRTY, keys.CLAIMED, keys.BELL, keys.MARKS, *_flags()], carried
