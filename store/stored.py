"""How a game is stored: the format its keys hold, known here and nowhere else in the store.

The one mapper between what the store's callers hand it and read back (entries, metas, states,
typed records) and the bytes Redis holds:
- a log entry in its stream (`entry_bytes`, `entries_of`): its JSON, keys sorted at every depth,
  in field `ENTRY`, and beside a submission's the nonce of its append in field `NONCE` and
  its request's id in field `REQUEST` (`request_of`);
- a compacted record's text (`record_text`, `record_parts`): a header line, a line per span of
  entries packed (`store.packed`, this module's part for the entries of a record), the final
  state's line and the score's; and a span's entries read back as the stream held them, each
  hash recomputed (`rehashed`);
- the meta hash (`meta_fields`, `decode_meta`), the secret hash (`secret_fields`,
  `secret_of`), the `proj` hash's fields (`ProjField`), a game's status as stored (`Status`) and
  the engine state's JSON as the projections and a record hold it (`state_json`).
The modules that read and write those keys (`store.log`, `store.games`, `store.compacted`,
`store.projections`, ...) import this one and nothing of each other's format, so no circle runs
through the store; the Lua scripts name the stream's fields from here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

import orjson

from engine import codec
from engine.log import chain_hash, link
from store.packed import packed, unpacked

if TYPE_CHECKING:
    from engine.game import Game


class Status(StrEnum):
    IN_PROGRESS = "in-progress"
    FINISHED = "finished"
    ABANDONED = "abandoned"  # ended by its table, not by its rules

    @classmethod
    def of(cls, game: Game, state: Any) -> Status:
        return cls(game.status(state))

    @property
    def over(self) -> bool:
        return self is not Status.IN_PROGRESS

    @classmethod
    def read(cls, raw: bytes | None) -> Status:
        """A stored status; a game with none yet is in progress."""
        return cls(raw.decode()) if raw else cls.IN_PROGRESS


class ProjField(StrEnum):
    """The fields of the `proj` hash. (A game stored before views were computed on reading
    also has a `view:<viewer>` field per viewer, which nothing reads.)"""

    JUDGED = "judged"  # the last submission judged
    VERSION = "at"  # the log version the projections describe
    STATUS = "status"
    TO_ACT = "to_act"
    ROUND = "round"
    STATE = "state"
    SCORE = "score"  # kept by the first reader of a version's score...
    SCORE_VERSION = "score_at"  # ...and the version it describes
    RECORD = "record"  # a compacted game's record's digest (`store.compacted.seal`)


def state_json(state: Any) -> str:
    """The JSON text of `codec.encode(state)`, byte for byte, written by orjson from the
    dataclasses themselves (their fields in order, tuples as lists; anything else through
    `encode`): much quicker than encoding first, and a worker writes a game's whole state with
    every verdict (docs/benchmarks.md, "Where a verdict's time goes")."""
    return orjson.dumps(state, default=codec.encode, option=orjson.OPT_NON_STR_KEYS).decode()


# A log entry's stream fields: the entry, and beside a submission's the nonce of its append
# and the id of the request that posted it (off the chain: the worker's verdict line names it).
ENTRY, NONCE, REQUEST = "e", "n", "r"
_ENTRY, _REQUEST = ENTRY.encode(), REQUEST.encode()


# A work item's stream fields (`store.scheduler`): its game and its submission's seq, then the
# submission as appended (ENTRY) and its request's id (REQUEST), as the log's entry has them.
WORK_GAME, WORK_SEQ = "g", "s"


def work_fields(game_id: str, seq: int, entry: bytes) -> dict[str, Any]:
    """A work item's fields, for a submission written before work items were."""
    return {WORK_GAME: game_id, WORK_SEQ: seq, ENTRY: entry}


def work_of(fields: Mapping[bytes, bytes]) -> tuple[str, int, bytes, str | None]:
    """A work item's game, seq, entry and request id (if one was written), from its fields."""
    request = fields.get(_REQUEST)
    return (fields[WORK_GAME.encode()].decode(), int(fields[WORK_SEQ.encode()]), fields[_ENTRY],
            None if request is None else request.decode())


def request_of(fields: list[bytes]) -> str | None:
    """The request id beside an entry in its stream, from the flat list of its fields (as a
    script answers an XRANGE), if one was written."""
    for i in range(0, len(fields) - 1, 2):
        if fields[i] == _REQUEST:
            return fields[i + 1].decode()
    return None


def entry_bytes(entry: Mapping[str, Any], as_created: bool = False) -> bytes:
    """An entry as its stream holds it: its JSON, keys sorted at every depth (so that a record
    packs it and rebuilds it byte for byte, `store.packed`); a new game's `game-created` entry
    (`as_created`) in the order the engine made its keys, as it has always been written."""
    return orjson.dumps(entry) if as_created else orjson.dumps(entry, option=orjson.OPT_SORT_KEYS)


def entry_from(raw: bytes) -> dict[str, Any]:
    """An entry from its bytes as its stream holds them."""
    return orjson.loads(raw)


def entries_of(found: Iterable[tuple[Any, Mapping[bytes, bytes]]]) -> list[dict[str, Any]]:
    """The entries of the items an XRANGE or an XREAD of a log answered."""
    return [orjson.loads(fields[_ENTRY]) for _, fields in found]


# A record's text is lines: a header, a line per span of entries, the final state, the score.
_LINE = b"\n"


def record_text(entries: Sequence[dict[str, Any]], every: int, state: bytes, score: bytes
                ) -> bytes:
    """The text of the record of a whole log (chained, numbered from 1) kept in spans of
    `every` entries, its final state's JSON and its final score's: a header (`version`, `span`,
    and `links`, the hash of every span's last entry but the last span's), then a line per span
    of entries packed, then the state and the score."""
    spans = [entries[i:i + every] for i in range(0, len(entries), every)]
    header = {"version": len(entries), "span": every,
              "links": [span[-1]["hash"] for span in spans[:-1]]}
    return _LINE.join([
        orjson.dumps(header),
        *(orjson.dumps(packed(span, first=i * every + 1)) for i, span in enumerate(spans)),
        state, score])


@dataclass
class RecordParts:
    """A record's text split in its parts, its spans still packed (a span's line is decoded by
    the first read of it, `span_entries`)."""

    spans: list[bytes | list[dict[str, Any]]]
    every: int  # entries a span
    links: list[str]  # the hash of every span's last entry but the last span's
    version: int  # how many entries
    head: str | None  # the last entry's hash as the record holds it (None: meta's head)
    state: bytes | None  # the final state's JSON, when the record keeps one
    score: bytes | None  # the final score's JSON, when the record keeps one
    spanned: bool  # written in spans (a record written before spans is one document)


def record_parts(text: bytes) -> RecordParts:
    """A record's text read back: written in spans, or before spans as one document of every
    entry (then the final score's JSON, once kept, on a line of its own)."""
    first, _, rest = text.partition(_LINE)
    header = orjson.loads(first)
    if "entries" in header:  # written before spans, as one document
        entries = header["entries"]
        return RecordParts([entries], max(len(entries), 1), [], len(entries), header["head"],
                           header.get("state", "").encode() or None, rest or None, False)
    *spans, state, score = rest.split(_LINE)
    return RecordParts(list(spans), header["span"], header["links"], header["version"], None,
                       state, score, True)


def span_entries(parts: RecordParts, i: int) -> list[dict[str, Any]]:
    """Span `i`'s entries, unpacked (`store.packed.unpacked`): their hashes left for the reader
    to recompute (`rehashed`)."""
    span = parts.spans[i]
    if isinstance(span, bytes):
        parts.spans[i] = span = orjson.loads(span)
    return unpacked(span, first=i * parts.every + 1)


_NO_HASH = b'"hash":""'


def rehashed(previous: str, entry: dict[str, Any]) -> tuple[str, bytes]:
    """An entry as unpacked (`span_entries`): its hash, and its bytes as its stream held them.

    One kept whole holds an empty hash in its place, and is written in its keys' order. Any
    other is written sorted, once, with an empty hash: the bytes hashed are those without that
    member, the bytes stored those with the hash in its place (writing the entry twice, once
    to hash it and once to store it, was a large part of reading a record: docs/benchmarks.md,
    2026-12-06). One holding `"hash":""`
    anywhere else is written twice."""
    if "hash" in entry:
        entry["hash"] = digest = chain_hash(previous, entry)
        return digest, orjson.dumps(entry)
    entry["hash"] = ""
    blank = entry_bytes(entry)
    start = blank.find(_NO_HASH)
    end = start + len(_NO_HASH)
    if blank.find(_NO_HASH, end) >= 0:
        digest = chain_hash(previous, entry)
        return digest, entry_bytes({**entry, "hash": digest})
    # Its keys are sorted and `seq` comes after `hash`: a comma follows the member.
    digest = link(previous, blank[:start] + blank[end + 1:])
    return digest, b"".join((blank[:start], b'"hash":"', digest.encode(), b'"', blank[end:]))


# The secret hash's fields, read together (`secret_of`).
SECRET_FIELDS = ("seed", "decks")


def secret_fields(seed: str, decks: Sequence[Sequence[str]]) -> dict[str, str]:
    """The secret hash of a game dealt from `seed` and `decks`."""
    return {"seed": seed, "decks": orjson.dumps(decks).decode()}


def secret_of(raw: Sequence[bytes]) -> tuple[str, list[list[str]]]:
    """The seed and decks of a secret hash's `SECRET_FIELDS` as read."""
    seed, decks = raw
    return seed.decode(), orjson.loads(decks)


def meta_fields(created: Mapping[str, Any], version: int, last_hash: str, submitted: int
                ) -> dict[str, Any]:
    """The meta hash of a game whose first entry is `created`, at log version `version`."""
    keys = created.get("public_keys")
    return {
        **({"public_keys": orjson.dumps(keys), "keyed": len(keys)} if keys else {}),
        "game": created["game"],
        "players": orjson.dumps(created["players"]),
        "options": orjson.dumps(created["options"]),
        "created_at": created["at"],
        # A recorded game has no seed, so no commitment: "" here, null in answers.
        "seed_commitment": created.get("seed_commitment") or "",
        **({"deal": created["deal"]} if "deal" in created else {}),
        "rules_version": created["rules_version"],
        "version": version,
        "hash": last_hash,
        "submitted": submitted,
    }


def decode_meta(raw: dict[bytes, bytes]) -> dict[str, Any]:
    """A meta hash as read, its fields decoded."""
    meta = {k.decode(): v.decode() for k, v in raw.items()}
    meta["players"] = orjson.loads(meta["players"])
    meta["options"] = orjson.loads(meta["options"])
    meta["seed_commitment"] = meta.get("seed_commitment") or None
    # The seats' public keys, by seat; `keyed` counts them (the append checks it, store.log).
    meta["public_keys"] = orjson.loads(meta["public_keys"]) if "public_keys" in meta else {}
    meta["keyed"] = int(meta.get("keyed", 0))
    return meta
