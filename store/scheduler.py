"""The work to judge, which drain judges it, and which workers live.

Every submission appended is a work item in its game's partition's stream (`keys.WORK`),
written by the append's own script (`store.log`): on a single Redis and on a Redis Cluster
alike, a move is never in a log without the item that gets it judged. The drains read the
streams as one consumer group (`keys.JUDGES`), each drain slot a consumer of its own, and
acknowledge an item in the commit that wrote its verdict, deleting it then (`queue_done`):
a stream holds only what waits. That is the one way a move gets judged, and its one recovery:
an item a drain read and did not acknowledge (it died, or found the game locked) is pending in
the group, and is taken by whichever drain looks after the lease (`reclaim`, XAUTOCLAIM).

The partitions are shared out among the drains running (`shares`), so that a game's moves go
to one drain, which holds its state between moves (`workers.judging.States`). A drain slot's
flag stands for "a drain job is queued or running in this slot", and names the worker running
it. Each worker process beats a heartbeat every second (`tend`), which also heals what dead
processes left behind and keeps one drain running for each live worker, up to `DRAINERS`: a
drain runs for as long as its worker does (handing its slot over to a fresh job now and then,
`workers.drain`), so a move never waits for a job to be queued. Everything held is a lease
that a killed process cannot keep:
- a drain slot's flag names the worker running it and lapses 1 s after its drain last
  renewed it (every 0.25 s), or is freed at the next heartbeat once that worker's own
  heartbeat has lapsed (a flag of a job still queued lapses after `_FLAG_S`);
- an item read and not acknowledged is taken by another drain after `LEASE_MS`, at once by
  the next drain of its slot (`held_by`), and at once by a drain dealt its partition once no
  flag holds its slot (`left_behind`);
- a game's lock (`store.locks`) lapses before that lease, so a game whose judge died is
  unlocked by the time its items are taken again.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, NamedTuple

import orjson
import redis
from redis.cluster import RedisCluster

from store import alive, keys
from store.batch import Batch
from store.stored import work_fields, work_of

DRAINERS = 2
# Items a drain reads from a stream at once.
AT_ONCE = 64
# An item read and not acknowledged is taken by another drain after this long.
LEASE_MS = 5_000
# A worker counts as alive this long after its last heartbeat (it beats every second).
ALIVE_S = 4.0
_FLAG_S = 5
# A running drain's flag lives this long, renewed every `WAIT_AT_ONCE_S`: a drain that died
# stops being dealt partitions this soon, and its slot is free for another job. (2.5 s,
# renewed every second, left a dead drain's moves waiting 1.7-2.3 s; tests/fault/test_chaos.py.)
_RUNNING_MS = 1_000
# A drain waiting for work reads again this often, renewing its slot's flag (`_RUNNING_MS`) and
# taking its share of the partitions: four light round trips a second for an idle drain.
WAIT_AT_ONCE_S = 0.25
# On a Redis Cluster a read cannot wait on streams of several shards: a drain finding nothing
# asks again after 10 ms, then twice as long each time up to 100 ms (an idle drain asks each
# of its partitions ten times a second, not a hundred).
_CLUSTER_POLL_S = (0.01, 0.1)
# The flag of a drain job queued but not yet started: it has no worker yet.
_QUEUED = "queued"
# A worker whose heartbeat lapsed this long ago is forgotten altogether.
FORGET_S = 3600

# A worker's heartbeat (KEYS[1]: worker -> when its heartbeat lapses): free the slots of
# drains whose worker died, then take the first free slot for a job about to be queued while
# fewer drains run or wait than workers live (at most one per slot), or answer -1.
# ARGV[1] is {"now", "worker", "alive_s", "flag_s", "forget_s"}.
_TEND = """
local a = cjson.decode(ARGV[1])
redis.call('ZADD', KEYS[1], a.now + a.alive_s, a.worker)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', a.now - a.forget_s)
local held, free = 0, -1
for k = 2, #KEYS do
  local owner = redis.call('GET', KEYS[k])
  if owner and owner ~= 'queued' then
    local lapses = redis.call('ZSCORE', KEYS[1], owner)
    if not lapses or tonumber(lapses) < a.now then
      redis.call('DEL', KEYS[k])
      owner = false
    end
  end
  if owner then held = held + 1 elseif free < 0 then free = k - 2 end
end
local live = redis.call('ZCOUNT', KEYS[1], a.now, '+inf')
if free >= 0 and held < live then
  redis.call('SET', KEYS[free + 2], 'queued', 'EX', a.flag_s)
  return free
end
return -1
"""

# A drain takes its slot's flag (KEYS[1]) for ARGV[1]'s `worker`, or renews it: unless another
# worker's drain holds it (a second job for the slot; or this drain was taken for dead and
# replaced), which it leaves to that drain, answering 0.
_TAKE = """
local a = cjson.decode(ARGV[1])
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= 'queued' and owner ~= a.worker then return 0 end
redis.call('SET', KEYS[1], a.worker, 'PX', a.flag_ms)
return 1
"""

# The slots whose flag names ARGV[1]'s `worker` are freed: its drains have ended.
_FREE_SLOTS = """
local worker = cjson.decode(ARGV[1]).worker
for k = 1, #KEYS do
  if redis.call('GET', KEYS[k]) == worker then redis.call('DEL', KEYS[k]) end
end
"""


class Item(NamedTuple):
    """A submission to judge, as its partition's stream holds it."""

    partition: int
    id: bytes  # its stream id
    game: str
    seq: int
    entry: bytes  # as appended: its canonical JSON
    request: str | None = None  # the id of the request that posted it


class Scheduler:
    def __init__(self, client: redis.Redis | RedisCluster):
        self.redis = client
        self._tend = client.register_script(_TEND)
        self._free_slots = client.register_script(_FREE_SLOTS)
        self._take = client.register_script(_TAKE)
        self._cluster = isinstance(client, RedisCluster)

    def ensure_groups(self) -> None:
        """The consumer group on every partition's stream, reading it from its start: a drain
        makes it before reading (and again should the streams be gone, a flushed Redis)."""
        pipe = self.redis.pipeline(transaction=False)
        for partition in range(keys.PARTITIONS):
            pipe.xgroup_create(keys.WORK[partition], keys.JUDGES, id="0", mkstream=True)
        for made in pipe.execute(raise_on_error=False):
            if isinstance(made, Exception) and "BUSYGROUP" not in str(made):
                raise made

    def read(self, consumer: str, partitions: Sequence[int], wait_s: float) -> list[Item]:
        """New items of these partitions for `consumer`, waiting up to `wait_s` for one."""
        return self._read_or_none(consumer, partitions, wait_s, ">")

    def held_by(self, consumer: str, partitions: Sequence[int]) -> list[Item]:
        """The items of these partitions read as `consumer` and not acknowledged: what a
        drain of the same slot left (it died, or found a game locked), taken up by its
        successor at once rather than after the lease."""
        return self._read_or_none(consumer, partitions, 0, "0")

    def _read_or_none(self, consumer: str, partitions: Sequence[int], wait_s: float,
                      after: str) -> list[Item]:
        try:
            return self._read(consumer, partitions, wait_s, after)
        except redis.ResponseError as refused:
            if "NOGROUP" not in str(refused):
                raise
            self.ensure_groups()  # the streams are gone (a flushed Redis): read from now on
            return []

    def _read(self, consumer: str, partitions: Sequence[int], wait_s: float, after: str
              ) -> list[Item]:
        streams = {keys.WORK[p]: after for p in partitions}
        if not streams:
            return []
        if not self._cluster:
            # Sent as a batch sends it, packed by hiredis: redis-py's packer looks at each of
            # its 130 arguments in Python, the larger part of an idle drain's turn.
            batch = Batch(self.redis)
            block = ("BLOCK", int(wait_s * 1000)) if wait_s else ()
            reading = batch.add("XREADGROUP", "GROUP", keys.JUDGES, consumer, "COUNT", AT_ONCE,
                                *block, "STREAMS", *streams, *streams.values())
            batch.run()
            return _items(reading.value)
        deadline, pause = time.monotonic() + wait_s, _CLUSTER_POLL_S[0]
        while True:
            pipe = self.redis.pipeline(transaction=False)
            for stream in streams:
                pipe.xreadgroup(keys.JUDGES, consumer, {stream: after}, count=AT_ONCE)
            items = _items([read for found in pipe.execute() for read in found or ()])
            if items or time.monotonic() >= deadline:
                return items
            time.sleep(pause)
            pause = min(pause * 2, _CLUSTER_POLL_S[1])

    def reclaim(self, consumer: str, partitions: Sequence[int]) -> list[Item]:
        """Items of these partitions read by a drain and not acknowledged within the lease
        (it died, or found the game locked), taken for `consumer`."""
        if not partitions:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for partition in partitions:
            pipe.xautoclaim(keys.WORK[partition], keys.JUDGES, consumer, LEASE_MS, "0-0",
                            count=AT_ONCE)
        found = pipe.execute(raise_on_error=False)
        if any(isinstance(claimed, redis.ResponseError) for claimed in found):
            self.ensure_groups()  # the streams are gone (a flushed Redis)
        return _items([(keys.WORK[p].encode(), claimed[1])
                       for p, claimed in zip(partitions, found, strict=True)
                       if not isinstance(claimed, Exception)])

    def left_behind(self, consumer: str, partitions: Sequence[int]) -> list[Item]:
        """Items of these partitions read by the drain of a slot no drain runs any more (it
        died and its flag lapsed, or it handed the slot to a job not started yet), taken for
        `consumer` at once, however recently they were read: the lease is for the items of a
        drain still running, which may be judging them. The drains running are those
        `shares` deals the partitions among, so a drain dealt a slot's partitions takes up
        what it left."""
        if not partitions:
            return []
        running = {consumer_of(slot).encode() for slot in self._running()} | {consumer.encode()}
        pipe = self.redis.pipeline(transaction=False)
        for partition in partitions:
            pipe.xpending_range(keys.WORK[partition], keys.JUDGES, "-", "+", AT_ONCE)
        left: dict[int, list[bytes]] = {}
        for partition, pending in zip(partitions, pipe.execute(raise_on_error=False),
                                      strict=True):
            ids = [] if isinstance(pending, Exception) else [
                e["message_id"] for e in pending if e["consumer"] not in running]
            if ids:
                left[partition] = ids
        if not left:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for partition, ids in left.items():
            pipe.xclaim(keys.WORK[partition], keys.JUDGES, consumer, 0, ids)
        return _items([(keys.WORK[p].encode(), claimed)
                       for p, claimed in zip(left, pipe.execute(raise_on_error=False),
                                             strict=True)
                       if not isinstance(claimed, Exception)])

    def queue_done(self, batch: Batch, items: Sequence[Item]) -> None:
        """Acknowledge items judged and delete them, queued in a commit's batch."""
        by_stream: dict[str, list[bytes]] = {}
        for item in items:
            by_stream.setdefault(keys.WORK[item.partition], []).append(item.id)
        for stream, ids in by_stream.items():
            batch.add("XACK", stream, keys.JUDGES, *ids)
            batch.add("XDEL", stream, *ids)

    def shares(self, slot: int) -> list[int]:
        """The partitions the drain of `slot` reads: dealt out among the drains running, so
        that while one runs it reads them all."""
        running = self._running()
        if slot not in running:
            running = sorted([*running, slot])
        place = running.index(slot)
        return [p for p in range(keys.PARTITIONS) if p % len(running) == place]

    def _running(self) -> list[int]:
        """The slots whose drain runs: a flag naming a worker (not a job still queued)."""
        return [s for s, owner in enumerate(self.redis.mget(_flags()))
                if owner not in (None, _QUEUED.encode())]

    def take(self, slot: int, worker: str) -> bool:
        """Take or renew the flag of a drain's slot for the `worker` running it; False when
        another worker's drain holds the slot (this one is to end)."""
        args = [orjson.dumps({"worker": worker, "flag_ms": _RUNNING_MS})]
        return bool(self._take(keys=[keys.draining(slot)], args=args))

    def hand_over(self, slot: int) -> None:
        """Leave a slot's flag as a queued job's, for the job about to be queued in its place."""
        self.redis.set(keys.draining(slot), _QUEUED, ex=_FLAG_S)

    def drain_ends(self, slot: int, worker: str) -> None:
        """Lower the flag of a drain that stops, if it is still its own."""
        self._free_slots(keys=[keys.draining(slot)], args=[orjson.dumps({"worker": worker})])

    def tend(self, worker: str) -> int | None:
        """A heartbeat of `worker`, which also heals what dead workers left: their slots are
        freed. The drain slot to queue a job for, when fewer drains run than workers live.
        While Redis is full it refuses all that (`FULL`, raised), and the worker's alive key is
        only kept alive (`store.alive`)."""
        beat = {"now": time.time(), "worker": worker, "alive_s": ALIVE_S, "flag_s": _FLAG_S,
                "forget_s": FORGET_S}
        batch = Batch(self.redis)
        tending = batch.script(self._tend, [keys.WORKERS, *_flags()], [orjson.dumps(beat)],
                               read=slot_of)
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


class Waiting(NamedTuple):
    """The submissions waiting for a verdict."""

    items: int
    games: int  # among the first `_LOOKED_AT` items of each stream
    oldest_at: float | None  # when the oldest was written (time.time())


# Items read a stream to count the games waiting: /healthz and /metrics ask on every call, and
# a backlog must not make each answer read it whole.
_LOOKED_AT = 100


def waiting(client: redis.Redis | RedisCluster) -> Waiting:
    """The work items of every stream (read or not), in one round trip (a round trip a shard,
    on a cluster)."""
    pipe = client.pipeline(transaction=False)
    for partition in range(keys.PARTITIONS):
        pipe.xlen(keys.WORK[partition])
        pipe.xrange(keys.WORK[partition], count=_LOOKED_AT)
    found = pipe.execute()
    games = {work_of(fields)[0] for read in found[1::2] for _, fields in read}
    firsts = [int(read[0][0].split(b"-")[0]) for read in found[1::2] if read]
    return Waiting(sum(found[::2]), len(games), min(firsts) / 1000 if firsts else None)


def consumer_of(slot: int) -> str:
    """The name a slot's drain reads the work streams as, in the group `keys.JUDGES`."""
    return f"slot-{slot}"


def _flags() -> list[str]:
    return [keys.draining(slot) for slot in range(DRAINERS)]


def slot_of(answer: int) -> int | None:
    """The drain slot a heartbeat opened, from its script's answer."""
    return None if answer < 0 else int(answer)


def queue_item(pipe: Any, game_id: str, seq: int, entry: bytes) -> None:
    """Queue writing a work item for submission `seq` of a game, in a pipeline, as the append
    writes one (`store.log`): for a submission written before work items were."""
    pipe.xadd(keys.WORK[keys.partition(game_id)], work_fields(game_id, seq, entry))


def _items(found: Any) -> list[Item]:
    """The items of an XREADGROUP's or XAUTOCLAIM's answer: [(stream, [(id, fields)])]."""
    items = []
    for stream, entries in found or ():
        partition = int(stream[stream.index(b"{p") + 2:stream.index(b"}")])
        for item_id, fields in entries:
            if fields:  # none: deleted while pending
                items.append(Item(partition, item_id, *work_of(fields)))
    return items
