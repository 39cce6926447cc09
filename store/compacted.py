"""Compacted games: a game that has ended, kept as one record instead of its live keys.

A finished or abandoned game changes no more, and its live keys are mostly what no reader of
an ended game needs: the log's hashes (64 random hex characters an entry, the one part that does
not compress, and recomputable from the entries), the engine state in the projections, the
verdict index, the idempotency keys. Compaction (`workers.compaction`) writes the game as one
record under `tl:{id}:compact` and removes those keys in one script (`_COMPACT`), so a reader
finds either the live keys or the record, never neither.

The record is a zstd frame, compressed with the dictionary shipped in the repository
(`store.dictionary`), of one JSON object: `version` and `head` (the last entry's hash, as meta
holds it too), `entries`, each without its hash and what else the others tell
(`store.packed`), and `state`, the projections' engine state text, only when folding the log
does not give it back byte for byte (it always has: an audit checks as much); then, on a line
of its own, the final score's JSON as a score read answers it (records written before it was
kept have none). As the record is written, its digest (`seal`) goes into the proj hash.

Reading entries recomputes every hash and checks the chain ends at the stored head and at
meta's: a record that does not is `Broken`, a loud failure, never an answer. A score read
serves the score written beside them without recomputing the chain (that was most of it), only
from a record whose digest is the one kept: a record changed since it was written, score or
entries, is `Broken` too (docs/design.md, "Compacted games"). What reading recomputes (and the
state folded again) is kept for the next reader in a small cache of the process (`KEPT`
games): a record never changes once written.

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

from engine import log
from engine.log import GENESIS, chain_hash, link
from store import dictionary, keys
from store.packed import packed, unpacked, whole
from store.projections import Field, Status, state_json

# KEYS: the game's meta, proj, record, then every key a compacted game no longer has. ARGV[1]
# is {version, hash, kept, seal} (the head the record was made of, the proj fields kept, the
# record's digest), ARGV[2] the record. It writes the record only for an ended game whose head
# is still the record's.
_COMPACT = (f"local STATUS, FINISHED, ABANDONED = '{Field.STATUS}', '{Status.FINISHED}',"
            f" '{Status.ABANDONED}'\nlocal SEAL = '{Field.RECORD}'\n") + """
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

# A record's text: its document's JSON, then (if written with it) a line of its score's JSON.
_SCORE_LINE = b"\n"

# What an ended game's proj hash keeps: where it stands, read by listings, a game's summary,
# the append that refuses moves to an ended game, and a drain that looks at it (a few dozen
# bytes). The engine state moves into the record; a kept score goes (`Projections.keep_score`).
KEPT_FIELDS = (Field.JUDGED, Field.AT, Field.STATUS, Field.TO_ACT, Field.ROUND)

# Compacted games a process keeps read (their entries' JSON, hashes recomputed): a Coloretto
# game of four is some 300 KB of it.
KEPT = 32


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
    """A compacted game as read: its document, its entries' JSON (as a live log's stream holds
    them) once a reader needed them, its secret, and its final engine state's and score's.

    Its entries are decoded on the first read that needs them, every hash recomputed and the
    chain checked (`Broken`): a score read needs none of them, and is served the score written
    beside them, once the record's bytes are found to be those compaction wrote (`sealed`)."""

    def __init__(self, game_id: str, text: bytes, meta_head: str | None,
                 secret: tuple[str, list[list[str]]], sealed: bool):
        self.game_id, self.meta_head, self.secret, self.sealed = game_id, meta_head, secret, sealed
        document, _, score = text.partition(_SCORE_LINE)
        self._document, self.written_score = document, score or None
        self._entries: tuple[bytes, ...] | None = None
        self.state: bytes | None = None
        self.score: bytes | None = None

    @property
    def entries(self) -> tuple[bytes, ...]:
        if self._entries is None:
            document = orjson.loads(self._document)
            self._entries = _chained(self.game_id, document, self.meta_head)
            if (state := document.get("state")) is not None:
                self.state = state.encode()
        return self._entries

    def final_state(self) -> bytes:
        """The engine state's JSON, as the projections held it (folded again unless the record
        holds it)."""
        if self.state is None:
            entries = self.read()
            self.state = self.state or final_state(entries, *self.secret).encode()
        return self.state

    def kept_score(self) -> bytes | None:
        """The score's JSON at the last version: as written with the record (refused unless
        the record is sealed) or, for a record written without it, as a reader kept it."""
        if self.score is None and self.written_score is not None:
            if not self.sealed:
                raise Broken(self.game_id, self.read(), self.meta_head or "",
                             "its bytes are not those compaction wrote (their digest differs)")
            self.score = self.written_score
        return self.score

    def read(self, after: int = 0, upto: int | None = None, limit: int | None = None
             ) -> list[dict[str, Any]]:
        """Entries `after` < seq <= `upto`, at most `limit`, as `Log.entries` reads them."""
        found = self.entries[after:upto]
        return [orjson.loads(e) for e in (found if limit is None else found[:limit])]

    def past(self, after: int) -> Iterator[dict[str, Any]]:
        """The entries past seq `after`, each read only when reached: a verdict is found a few
        entries past its submission, and the rest of a long log is never parsed."""
        return (orjson.loads(e) for e in self.entries[after:])


def final_state(entries: Sequence[dict[str, Any]], seed: str, decks: Sequence[Sequence[str]]
                ) -> str:
    """The JSON of the state a whole log folds to, as the projections write it."""
    created = entries[0]
    game = log.rules(created)
    return state_json(game.encode(log.state_at(game, log.table_of(created, seed, decks), entries)))


def encode(entries: Sequence[dict[str, Any]], state: bytes | str | None,
           score: bytes | None = None) -> bytes:
    """The record of an ended game: its whole log (chained, numbered from 1), unless None
    (folding the log gives it back) its final state's JSON, and its final score's JSON (None:
    as records were written before scores were kept in them)."""
    document: dict[str, Any] = {"version": len(entries), "head": entries[-1]["hash"],
                                "entries": packed(entries)}
    if state is not None:
        document["state"] = state.decode() if isinstance(state, bytes) else state
    text = orjson.dumps(document)
    if score is not None:
        text += _SCORE_LINE + score
    return dictionary.compressor().compress(text)


def seal(record: bytes) -> str:
    """The digest of a record's bytes, kept in its game's proj hash as it is written."""
    return hashlib.blake2b(record, digest_size=16).hexdigest()


def decode(game_id: str, raw: bytes, meta_head: str | None,
           secret: tuple[str, list[list[str]]], sealed: str | None = None) -> Record:
    """A record read back (`sealed`: the digest its game keeps), every hash recomputed and
    checked (`Broken`)."""
    record = opened(game_id, raw, meta_head, secret, sealed)
    record.read(upto=0)  # reading any entry decodes them all, and checks the chain, now
    return record


def opened(game_id: str, raw: bytes, meta_head: str | None,
           secret: tuple[str, list[list[str]]], sealed: str | None) -> Record:
    """A record decompressed only: its entries are decoded, and checked, by the first read of
    them."""
    return Record(game_id, dictionary.decompressor().decompress(raw), meta_head, secret,
                  sealed is not None and sealed == seal(raw))


_NO_HASH = b'"hash":""'


def _hashed(previous: str, entry: dict[str, Any]) -> tuple[str, bytes]:
    """An entry stored sorted, without its hash: its hash, and its bytes as stored.

    Written once with an empty hash: the bytes hashed are those without that member, the bytes
    stored those with the hash in its place (writing the entry twice, once to hash it and once
    to store it, was a third of reading a record). An entry holding `"hash":""` anywhere else
    is written twice."""
    entry["hash"] = ""
    blank = orjson.dumps(entry, option=orjson.OPT_SORT_KEYS)
    at = blank.find(_NO_HASH)
    if blank.count(_NO_HASH) != 1:
        entry["hash"] = digest = chain_hash(previous, entry)
        return digest, orjson.dumps(entry, option=orjson.OPT_SORT_KEYS)
    end = at + len(_NO_HASH)
    # Its keys are sorted and `seq` comes after `hash`: a comma follows the member.
    digest = link(previous, blank[:at] + blank[end + 1:])
    entry["hash"] = digest
    return digest, b"".join((blank[:at], b'"hash":"', digest.encode(), b'"', blank[end:]))


def _chained(game_id: str, document: dict[str, Any], meta_head: str | None
             ) -> tuple[bytes, ...]:
    """A document's entries as stored, each hash recomputed, checked to chain to the head."""
    kept, head, previous = document["entries"], document["head"], GENESIS
    entries, out = unpacked(kept), []
    for seq, (entry, packed_entry) in enumerate(zip(entries, kept, strict=True), start=1):
        if entry.get("seq") != seq:
            raise Broken(game_id, entries, head, f"entry {seq} is numbered {entry.get('seq')}")
        if whole(packed_entry):
            entry["hash"] = previous = chain_hash(previous, entry)
            out.append(orjson.dumps(entry))
        else:
            previous, stored = _hashed(previous, entry)
            out.append(stored)
    if previous != head or (meta_head is not None and head != meta_head):
        raise Broken(game_id, entries, meta_head or head,
                     f"its entries chain to {previous}, its head is {meta_head or head}")
    return tuple(out)


class Compacted:
    def __init__(self, client: redis.Redis):
        self.redis = client
        self._compact = client.register_script(_COMPACT)
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

    def ended(self, game_id: str) -> None:
        """List a game that just ended, to be compacted."""
        self.redis.zadd(keys.ENDED, {game_id: time.time()}, nx=True)

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
        k = keys.game(game_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.get(k.compact)
        pipe.hget(k.meta, "hash")
        pipe.hmget(k.secret, "seed", "decks")
        pipe.hget(k.proj, Field.RECORD)
        raw, meta_head, (seed, decks), sealed = pipe.execute()
        if raw is None:
            return None
        record = opened(game_id, raw, meta_head.decode() if meta_head else None,
                        (seed.decode(), orjson.loads(decks)), sealed and sealed.decode())
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

