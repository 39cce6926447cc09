"""The key layout: every Redis key tablelog uses, spelled here and nowhere else.

Games live in `PARTITIONS` partitions: every key of a game starts `tl:{p<k>}/<id>:`, its
partition's hash tag `{p<k>}` (k = `partition(id)`), so that a game lives on one Redis Cluster
shard and one script may write a game's keys together with its partition's (issue #40: the
work item written with the append). `tl:layout` names the layout the store is in
(`PARTITIONED`), written with every game's and event's listing; a store with games and no such
key was written before games had partitions: its keys are `tl:{<id>}:log` and so on
(`unpartitioned`), and `tablelog migrate` (`store.layout`) moves them. Below, `tl:{id}` stands
for a game's prefix, `tl:{p<k>}/<id>`.
Per game:
- `tl:{id}:log`       stream; entry `seq` has the stream id `seq-0` and one field `e`, the
                      entry's canonical JSON with its `hash` (docs/api.md, The log);
- `tl:{id}:meta`      hash: game, players, options, created_at, seed_commitment,
                      rules_version, version (last seq), hash (last entry's hash), submitted
                      (last submission's seq), audits;
- `tl:{id}:secret`    hash: seed and explicit decks, read only by workers and replays;
- `tl:{id}:auth`      hash: sha256(token) -> "table" or a seat number;
- `tl:{id}:idem`      hash: idempotency key -> "<body hash> <seq>";
- `tl:{id}:verdict`   hash: submission seq -> seq of its verdict entry;
- `tl:{id}:proj`      hash: the projections a worker keeps (`store.projections` knows its fields);
- `tl:{id}:lock`      the token of the worker judging the game (`<worker>/<random>`);
- `tl:{id}:ack`       a short-lived marker the web writes before waiting for replicas
                      (`store.replicas`);
- `tl:{id}:audit:<n>` the report of audit n, and `...:done` a token pushed when it is done;
- `tl:{id}:audit-of:<digest>` the number of the audit a request (version and claim) made;
- `tl:{id}:steps`     a finished game's views at every step, as answered, kept for a while;
- `tl:{id}:compact`   an ended game as one record, in place of its log, idempotency keys,
                      verdict index, lock and engine state (`store.compacted`);
- `tl:{id}:nudge:<n>` a stream an append of nonce n refused writes to, read by the verdict wait
                      sent with it (`store.log`), gone after a second.
A token's rate-limit count (`store.counts`, `rate_count`) names its game's partition's tag too,
so that the append of a move can take it.
An event (`store.events`) keeps a game's layout under the id `ev:<id>` (no game id holds a
colon): its `log`, `meta` (version and hash alone, so no game route reads it as a
game), `secret` (its seed) and `auth` (sha256(organiser token) -> "organiser"); `tl:events`
lists the events by creation, and `tl:games:rated` the games created with their seats'
handles (rated: `engine.events.ratings`).
Global keys: `tl:games` (sorted set of ids by creation: an imported game's is the `at` of its
`game-created` entry), the same per title
(`tl:games:title:<game>`) and for games that finished or were about to (`tl:games:finished`:
written before the entry that finishes the game, so it holds every finished game, and a
listing checks each one's status), `tl:games:ended` (games that ended and are not compacted
yet, scored by when they ended or their compaction's lease lapses: `store.compacted`),
`tl:games:by-creation` (hash: the hash of a game's `game-created` entry -> its id, so that an
import finds the same game under another id; `tl:games:by-creation:filled` says every game
stored before it existed was entered). Per partition, `tl:{p<k>}:work`: a stream of the
submissions appended to its games and not judged yet (fields `g` the game, `s` its seq, `e` the
entry, `r` the request's id), written by the append itself and read by the drains as the
consumer group `judges` (`store.scheduler`). The scheduler's keys share the hash tag `{sched}`:
`tl:{sched}:drain:<slot>` (a drain job is queued or running in that slot: "queued", or the
worker running it), `tl:{sched}:workers` (judging workers, scored by when their heartbeat
lapses), and `tl:{sched}:alive:<worker>` (a judging worker's key, whose time to live tells
when it last beat, even while Redis is full: `store.alive`). `tl:auditors` holds the auditing
workers' heartbeats the same way, and `tl:{auditors}:alive:<worker>` their keys. `tl:health` is
/healthz's probe of whether Redis takes writes. On the standalone Redis that holds RQ's
queues, `tl:audits:queuing` (sorted set: a place taken among the audits that may wait for an
auditor, by a web about to queue one, scored by when it lapses; `store.audits.Places`). No
script or transaction spans two hash tags.
"""

from __future__ import annotations

import functools
import re
import zlib
from dataclasses import dataclass

PARTITIONS = 64
# Each partition's work stream, by partition: the submissions appended to its games and not
# judged yet.
WORK = tuple(f"tl:{{p{number}}}:work" for number in range(PARTITIONS))
LAYOUT = "tl:layout"
PARTITIONED = f"partitioned/{PARTITIONS}"
UNPARTITIONED = "unpartitioned"
GAMES = "tl:games"
EVENTS = "tl:events"
RATED = "tl:games:rated"
FINISHED = "tl:games:finished"
ENDED = "tl:games:ended"
BY_CREATION = "tl:games:by-creation"
BY_CREATION_FILLED = "tl:games:by-creation:filled"


def titled(game: str) -> str:
    return f"tl:games:title:{game}"


def rate_count(scope: str, counted: str, most: int, window_s: int,
               game_id: str | None = None) -> str:
    """The count of the requests of `counted` (a token's digest, never the token; an address)
    against one rate of the limit `scope` (`most` a window of `window_s`). A token's requests
    about a game are counted under its hash tag (a token is good for one game only), so that
    the append of a move can take the count, on a Redis Cluster too (`store.log`)."""
    tag = "" if game_id is None else f"{{p{partition(game_id)}}}/{game_id}/"
    return f"LIMITS:tl/{scope}/{tag}{counted}/{most}/{window_s}"


JUDGES = "judges"
# The scheduler's keys before work items (the dirty set, claims, bell and marks): a store moved
# into this layout has them deleted (`store.layout`).
RETIRED = ("tl:{sched}:dirty", "tl:{sched}:claimed", "tl:{sched}:bell", "tl:{sched}:marks")
WORKERS = "tl:{sched}:workers"
AUDITORS = "tl:auditors"
QUEUING_AUDITS = "tl:audits:queuing"
HEALTH = "tl:health"


def alive(worker: str) -> str:
    return f"tl:{{sched}}:alive:{worker}"


def auditor_alive(worker: str) -> str:
    return f"tl:{{auditors}}:alive:{worker}"


def draining(slot: int) -> str:
    return f"tl:{{sched}}:drain:{slot}"


@dataclass(frozen=True)
class GameKeys:
    """The keys of one game, all under its hash tag."""

    tag: str
    log: str
    meta: str
    secret: str
    auth: str
    idem: str
    verdict: str
    proj: str
    lock: str
    ack: str

    def audit(self, number: int) -> str:
        return f"{self.audits}{number}"

    @property
    def audits(self) -> str:
        """What the key of each audit's record starts with (numbered by a script, which
        spells the key of the number it gives: it shares the game's hash tag)."""
        return f"{self.tag}:audit:"

    def audit_done(self, number: int) -> str:
        return f"{self.audit(number)}:done"

    def audit_of(self, request: str) -> str:
        return f"{self.tag}:audit-of:{request}"

    def nudge(self, nonce: str) -> str:
        return f"{self.tag}:nudge:{nonce}"

    @property
    def steps(self) -> str:
        return f"{self.tag}:steps"

    @property
    def compact(self) -> str:
        return f"{self.tag}:compact"


def partition(game_id: str) -> int:
    """The partition a game lives in: a pure function of its id."""
    return zlib.crc32(game_id.encode()) % PARTITIONS


# A verdict spells a game's keys a dozen times between the web and the worker.
@functools.lru_cache(maxsize=4096)
def game(game_id: str) -> GameKeys:
    return _spelled(f"tl:{{p{partition(game_id)}}}/{game_id}")


def unpartitioned(game_id: str) -> GameKeys:
    """A game's keys as a store written before games had partitions holds them."""
    return _spelled(f"tl:{{{game_id}}}")


def _spelled(tag: str) -> GameKeys:
    return GameKeys(tag, *(f"{tag}:{name}" for name in _PER_GAME))


# The hash tags of keys that belong to no game.
_NO_GAME = {b"sched", b"auditors"}
_UNPARTITIONED_KEY = re.compile(rb"tl:\{([^}]+)\}:(.+)", re.DOTALL)
_PARTITION = re.compile(rb"tl:\{p[0-9]+\}:work")
_PARTITIONED_KEY = re.compile(rb"tl:\{p([0-9]+)\}/((?:ev:)?[A-Za-z0-9_-]+):(.+)", re.DOTALL)


def moved(key: bytes) -> bytes | None:
    """What a game's key is called in this layout, when it is called otherwise (written before
    games had partitions, or in a partition of another count); None for a key already in place,
    or no game's."""
    if found := _PARTITIONED_KEY.fullmatch(key):
        number, game_id, name = found.groups()
        if int(number) == partition(game_id.decode()):
            return None
    elif ((found := _UNPARTITIONED_KEY.fullmatch(key)) and found.group(1) not in _NO_GAME
          and not _PARTITION.fullmatch(key)):
        game_id, name = found.groups()
    else:
        return None
    return game(game_id.decode()).tag.encode() + b":" + name


def event(event_id: str) -> GameKeys:
    """An event's keys: a game's layout under the tag `{ev:<id>}` (`event_log`)."""
    return game(event_log(event_id))


def event_log(event_id: str) -> str:
    """The id an event's log is appended and read under, as a game's (`store.log`)."""
    return f"ev:{event_id}"


_PER_GAME = ("log", "meta", "secret", "auth", "idem", "verdict", "proj", "lock", "ack")
