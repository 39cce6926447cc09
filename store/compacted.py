"""Compacted games: a game that has ended, kept as one record instead of its live keys.

A finished or abandoned game changes no more, and its live keys are mostly what no reader of
an ended game needs: the log's hashes (64 random hex characters an entry, the one part that does
not compress, and recomputable from the entries), the engine state in the projections, the
verdict index, the idempotency keys. Compaction (`workers.compaction`) writes the game as one
record under `tl:{id}:compact` and removes those keys in one script (`_COMPACT`), so a reader
finds either the live keys or the record, never neither.

The record is a zstd frame, compressed with the dictionary shipped in the repository
(`store.dictionary`), of lines of JSON: a header (`version`, the span size, and the `links`: the
hash of each span's last entry but the last span's, whose last is meta's head), the entries a
span (`span_of`) a line, each without its hash and what else the others of its span tell
(`store.packed`), the final engine state as the projections held it, and the final score as a
score read answers it (computing it again from the state was most of a first score read of a
Coloretto game). As the record is written, its digest (`seal`) goes into the proj hash.

A read of entries decodes only the spans it covers, recomputes each of their hashes from the
link before the span and checks they reach the link after it (meta's head after the last): a
record that does not is `Broken`, a loud failure, never an answer. The links and the state are
taken as written, and only from a record whose digest is the one kept (a record changed since
it was written is not read at all, `Broken` too): a first read of the
current state, a page of events or a verdict costs about as much as the same read of a live
game (docs/design.md, "Ended games, compacted"). What reading recomputes is kept for the next
reader in a small cache of the process (`KEPT` games): a record never changes once written.
Records written before spans (one document, then the final score) read as they did.

A game that ends is listed among the ended ones (`ended`), and compacted a while later
(`workers.compaction`): an auditing worker's beat takes the games whose while is over
(`take`), leasing each for a time, so that a game whose compaction died with its worker is
taken again, and lets it go once compacted (`done`).
"""

from __future__ import annotations

import collections
import hashlib
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import orjson
import redis

from engine.log import GENESIS
from store import dictionary, keys
from store.gc_paused import uncollected
from store.stored import (
    SECRET_FIELDS,
    ProjField,
    Status,
    entry_from,
    record_parts,
    record_text,
    rehashed,
    secret_of,
    span_entries,
)

# KEYS: the game's meta, proj, record, then every key a compacted game no longer has. ARGV[1]
# is {version, hash, kept, seal} (the head the record was made of, the proj fields kept, the
# record's digest), ARGV[2] the record. It writes the record only for an ended game whose head
# is still the record's.
_COMPACT = (f"local STATUS, FINISHED, ABANDONED = '{ProjField.STATUS}', '{Status.FINISHED}',"
            f" '{Status.ABANDONED}'\nlocal SEAL = '{ProjField.RECORD}'\n") + """
local meta, proj, record = KEYS[1], KEYS[2], KEYS[3]
local a = cjson.decode(ARGV[1])
if redis.call('EXISTS', record) == 1 then return 'compacted' end
local head = redis.call('HMGET', meta, 'version', 'hash')
if tonumber(head[1]) ~= a.version or head[2] ~= a.hash then return 'moved' end
local status = redis.call('HGET', proj, STATUS)
if status ~= FINISHED and status ~= ABANDONED then return 'running' end
local kept = redis.call('HMGET', proj, unpack(a.kept))
redis.call('SET', record, ARGV[2])
redis.call('DEL', proj, unpack(KEYS, 4))
local fields = {SEAL, a.seal}
for i, name in ipairs(a.kept) do
  if kept[i] then
    fields[#fields + 1] = name
    fields[#fields + 1] = kept[i]
  end
end
redis.call('HSET', proj, unpack(fields))
return 'written'
"""

# Entries a span holds: a read of a page of events decodes, and chains, every entry of the
# spans it covers, from the hash before the first (a link, kept in the header). A span more
# costs a record a link and the span's first entry written whole: a long log's record, far
# smaller than the live game, affords spans of 64 (a page decodes fewer entries); a short one's,
# nearer the live game's size and the next allocator size class, keeps 128 (docs/benchmarks.md,
# 2026-12-06, figures moved out of the code).
SPAN, LONG_SPAN, LONG = 128, 64, 512


def span_of(count: int) -> int:
    """The span of a record of `count` entries."""
    return LONG_SPAN if count > LONG else SPAN


# What an ended game's proj hash keeps: where it stands, read by listings, a game's summary,
# the append that refuses moves to an ended game, and a drain that looks at it (a few dozen
# bytes). The engine state moves into the record; a kept score goes (`Projections.keep_score`).
KEPT_FIELDS = (ProjField.JUDGED, ProjField.VERSION, ProjField.STATUS, ProjField.TO_ACT,
               ProjField.ROUND)

# The most bytes a zstd frame's header takes, the dictionary's id among them.
_FRAME_HEADER = 18

# Compacted games a process keeps read (their entries' JSON, hashes recomputed), a few dozen
# long games' worth of memory (docs/benchmarks.md, 2026-12-06, figures moved out of the code).
KEPT = 32


# KEYS: the game's proj, record. ARGV: the record as read, the record to write in its place, its
# digest. It writes only while the record is still the one read.
_REWRITE = f"local SEAL = '{ProjField.RECORD}'\n" + """
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 'moved' end
redis.call('SET', KEYS[2], ARGV[2])
redis.call('HSET', KEYS[1], SEAL, ARGV[3])
return 'written'
"""

# Take the games of the sorted set KEYS[1] scored at most ARGV[1]'s `due` (at most `most`),
# scoring each `until` instead: one beat takes each, and takes it again once that lapses.
_TAKE = """
local a = cjson.decode(ARGV[1])
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', a.due, 'LIMIT', 0, a.most)
for _, game in ipairs(due) do redis.call('ZADD', KEYS[1], a['until'], game) end
return due
"""


class Broken(Exception):
    """A compacted game's record whose entries do not chain to the head stored with them (or
    whose bytes are not those written): its entries, their hashes as recomputed, and the head
    they should have reached."""

    def __init__(self, game_id: str, entries: list[dict[str, Any]], head: str, why: str):
        super().__init__(f"game {game_id}: the compacted log is broken: {why}")
        self.game_id, self.entries, self.head = game_id, entries, head


class Record:
    """A compacted game as read: its entries' JSON (as a live log's stream holds them), read a
    span at a time as readers need them, its secret, and its final engine state's and score's
    JSON.

    A span's entries are decoded on the first read that needs them, every hash recomputed
    from the link before the span and checked to reach the link after it (the head, after the
    last): `Broken` otherwise. The links, the state and the score are taken as written, so a
    record whose bytes are not those compaction wrote (not `sealed`) is not read at all:
    `Broken` too.

    A record written before spans (one document of every entry, then the final score's JSON
    on a line of its own) reads as one span, chained from the first entry whatever its digest
    (records were first written without one), its state left for the reader to fold from its
    entries (the store folds nothing), and its score served only once sealed."""

    def __init__(self, game_id: str, text: bytes, meta_head: str | None,
                 secret: tuple[str, list[list[str]]], sealed: bool):
        self.game_id, self.meta_head, self.secret, self.sealed = game_id, meta_head, secret, sealed
        self._parts = parts = record_parts(text)
        self._every, self._links, self.version = parts.every, parts.links, parts.version
        self._head = meta_head if parts.spanned else parts.head
        self._stored_state, self.written_score = parts.state, parts.score
        self._spanned = parts.spanned
        self._decoded: dict[int, tuple[bytes, ...]] = {}
        self.state: bytes | None = None
        self.score: bytes | None = None

    def final_state(self) -> bytes | None:
        """The engine state's JSON, as the projections held it: as written, from a sealed
        record, or as a reader kept it (`Projections.keep_state`). None from a record that
        keeps none to trust (written before spans): the reader folds its entries (`read`)."""
        if self.state is None:
            self._refuse_changed()
            if self.sealed and self._stored_state is not None:
                self.state = self._stored_state
        return self.state

    def kept_score(self) -> bytes | None:
        """The score's JSON at the last version: as written with a record that kept it (refused
        unless the record is sealed) or as a reader kept it."""
        if self.score is None and self.written_score is not None:
            if not self.sealed:
                self._refused()
            self.score = self.written_score
        return self.score

    def read(self, after: int = 0, upto: int | None = None, limit: int | None = None
             ) -> list[dict[str, Any]]:
        """Entries `after` < seq <= `upto`, at most `limit`, as `Log.entries` reads them."""
        self._refuse_changed()
        stop = self.version if upto is None else min(upto, self.version)
        if limit is not None:
            stop = min(stop, after + limit)
        if stop <= after:
            return []
        found: list[bytes] = []
        for i in range(after // self._every, -(-stop // self._every)):
            base = i * self._every
            found += self._span(i)[max(after - base, 0):stop - base]
        with uncollected():
            return [entry_from(e) for e in found]

    def past(self, after: int) -> Iterator[dict[str, Any]]:
        """The entries past seq `after`, each read only when reached: a verdict is found a few
        entries past its submission, and the rest of a long log is never decoded."""
        for i in range(after // self._every, len(self._parts.spans)):
            base = i * self._every
            yield from (entry_from(e) for e in self._span(i)[max(after - base, 0):])

    def check(self) -> bool:
        """Decode every span, checking the whole chain (`Broken` if it breaks)."""
        for i in range(len(self._parts.spans)):
            self._span(i)
        return True

    def _span(self, i: int) -> tuple[bytes, ...]:
        if (found := self._decoded.get(i)) is None:
            self._refuse_changed()
            with uncollected():
                found, _ = self._chained(i, self._links[i - 1] if i else GENESIS)
            self._decoded[i] = found
        return found

    def _refuse_changed(self) -> None:
        if self._spanned and not self.sealed:
            self._refused()

    def _refused(self) -> None:
        raise Broken(self.game_id, self._unchecked(), self.meta_head or "",
                     "its bytes are not those compaction wrote (their digest differs)")

    def _chained(self, i: int, previous: str) -> tuple[tuple[bytes, ...], str]:
        """Span `i`'s entries as stored, each hash recomputed from `previous`, checked to
        reach the link after it (or the head); and the hash they reach."""
        first = i * self._every + 1
        out = []
        for seq, entry in enumerate(self._unpacked(i), start=first):
            if entry.get("seq") != seq:
                raise Broken(self.game_id, self._unchecked(), self._end(),
                             f"entry {seq} is numbered {entry.get('seq')}")
            previous, stored = rehashed(previous, entry)
            out.append(stored)
        end = self._links[i] if i < len(self._links) else self._end()
        if previous != end:
            raise Broken(self.game_id, self._unchecked(), self._end(),
                         f"its entries {first} to {first + len(out) - 1} chain to {previous},"
                         f" not to {end}")
        return tuple(out), previous

    def _end(self) -> str:
        """The head the last entry's hash must be: the record's and meta's, which must agree."""
        if self._head is None or (self.meta_head is not None and self._head != self.meta_head):
            raise Broken(self.game_id, self._unchecked(), self.meta_head or "",
                         f"its head is {self._head}, its game's {self.meta_head}")
        return self._head

    def _unpacked(self, i: int) -> list[dict[str, Any]]:
        return span_entries(self._parts, i)

    def _unchecked(self) -> list[dict[str, Any]]:
        """Every entry, hashes recomputed from the first without a check: what an audit of a
        broken record reads, to name where it breaks."""
        out, previous = [], GENESIS
        for i in range(len(self._parts.spans)):
            for entry in self._unpacked(i):
                previous, stored = rehashed(previous, entry)
                out.append(entry_from(stored))
        return out


def encode(entries: Sequence[dict[str, Any]], state: bytes, score: bytes) -> bytes:
    """The record of an ended game: its whole log (chained, numbered from 1), its final state's
    JSON (as the projections hold it) and its final score's (as a score read answers it)."""
    text = record_text(entries, span_of(len(entries)), state, score)
    return dictionary.compressor().compress(text)


def seal(record: bytes) -> str:
    """The digest of a record's bytes, kept in its game's proj hash as it is written."""
    return hashlib.blake2b(record, digest_size=16).hexdigest()


def decode(game_id: str, raw: bytes, meta_head: str | None,
           secret: tuple[str, list[list[str]]], sealed: str | None = None) -> Record:
    """A record read back (`sealed`: the digest its game keeps), every hash recomputed and
    checked (`Broken`)."""
    record = opened(game_id, raw, meta_head, secret, sealed)
    record.check()
    return record


def opened(game_id: str, raw: bytes, meta_head: str | None,
           secret: tuple[str, list[list[str]]], sealed: str | None) -> Record:
    """A record decompressed only: its entries are decoded, and checked, by the first read of
    them."""
    return Record(game_id, dictionary.decompress(raw), meta_head, secret,
                  sealed is not None and sealed == seal(raw))


class Compacted:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._compact = client.register_script(_COMPACT)
        self._rewrite = client.register_script(_REWRITE)
        self._take = client.register_script(_TAKE)
        self._kept: collections.OrderedDict[str, Record] = collections.OrderedDict()
        self._lock = threading.Lock()

    def write(self, game_id: str, head: tuple[int, str], record: bytes) -> str:
        """Replace an ended game's live keys with its record, in one step. What it came to:
        `written`, `compacted` (already), `moved` (its head is no longer `head`) or `running`."""
        k = keys.game(game_id)
        args = {"version": head[0], "hash": head[1], "kept": [str(f) for f in KEPT_FIELDS],
                "seal": seal(record)}
        gone = [k.log, k.idem, k.verdict, k.lock, k.ack, k.steps]
        return self._compact(keys=[k.meta, k.proj, keys.game(game_id).compact, *gone],
                             args=[orjson.dumps(args), record]).decode()

    def fetched(self, game_id: str) -> tuple[bytes, Record] | None:
        """The game's record as stored and as opened (with its game's head, secret and the
        digest kept), in one round trip and not kept; None if the game is not compacted."""
        k = keys.game(game_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(k.compact)
        pipe.hget(k.meta, "hash")
        pipe.hmget(k.secret, *SECRET_FIELDS)
        pipe.hget(k.proj, ProjField.RECORD)
        raw, meta_head, secret, sealed = pipe.execute()
        if raw is None:
            return None
        return raw, opened(game_id, raw, meta_head.decode() if meta_head else None,
                           secret_of(secret), sealed and sealed.decode())

    def rewrite(self, game_id: str, read: bytes, record: bytes) -> str:
        """Write a compacted game's record again, in one step: `written`, or `moved` if it is
        no longer the record `read`."""
        k = keys.game(game_id)
        return self._rewrite(keys=[k.proj, k.compact], args=[read, record, seal(record)]).decode()

    def before_spans(self, game_ids: Sequence[str]) -> list[bool]:
        """Which of `game_ids` are compacted in records written before spans, in one round
        trip: those the first dictionary compressed (a frame's header names it)."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.getrange(keys.game(game_id).compact, 0, _FRAME_HEADER - 1)
        return [bool(head) and dictionary.named(head) == dictionary.first_id()
                for head in pipe.execute()]

    def ended(self, game_id: str) -> None:
        """List a game that just ended, to be compacted."""
        self.redis.zadd(keys.ENDED, {game_id: time.time()}, nx=True)

    def backlog(self) -> int:
        """The ended games listed for compaction and not compacted yet."""
        return self.redis.zcard(keys.ENDED)

    def take(self, most: int, after_s: float, lease_s: float) -> list[str]:
        """Up to `most` games that ended at least `after_s` ago (or whose lease lapsed), each
        leased for `lease_s`."""
        now = time.time()
        args = {"due": now - after_s, "until": now + lease_s - after_s, "most": most}
        return [g.decode() for g in self._take(keys=[keys.ENDED], args=[orjson.dumps(args)])]

    def done(self, game_id: str) -> None:
        """A game is no longer to be compacted: it is, or cannot be."""
        self.redis.zrem(keys.ENDED, game_id)

    def cached(self, game_id: str) -> Record | None:
        """The game's record if this process read it lately."""
        with self._lock:
            found = self._kept.get(game_id)
            if found is not None:
                self._kept.move_to_end(game_id)
            return found

    def read(self, game_id: str) -> Record | None:
        """The game's record, None if the game is not compacted (or does not exist)."""
        if (found := self.cached(game_id)) is not None:
            return found
        if (fetched := self.fetched(game_id)) is None:
            return None
        _, record = fetched
        with self._lock:
            self._kept[game_id] = record
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return record

    def forget(self) -> None:
        """Empty this process's cache: the next read of each record is a cold one."""
        with self._lock:
            self._kept.clear()

    def compacted(self, game_ids: Sequence[str]) -> list[bool]:
        """Which of `game_ids` are compacted, in one round trip."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.exists(keys.game(game_id).compact)
        return [bool(found) for found in pipe.execute()]

