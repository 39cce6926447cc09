"""Compacted records as tests write them in place of those compaction wrote: changed, or as
compaction wrote them before spans (`store.compacted`)."""

import orjson
import zstandard

from store import Store, compacted, dictionary, keys
from store.packed import packed
from store.stored import ProjField


def rewritten(store: Store, game_id: str, text: bytes, sealed: bool, first: bool = False
              ) -> None:
    """The record's text replaced by `text` (`first`: compressed with the first dictionary
    shipped, as the first records were), its digest kept as it was or (`sealed`) made that of
    the new record, as someone rewriting both would."""
    shipped = zstandard.ZstdCompressionDict(dictionary.SHIPPED[0].read_bytes())
    record = (zstandard.ZstdCompressor(level=12, dict_data=shipped) if first
              else dictionary.compressor()).compress(text)
    store.redis.set(keys.game(game_id).compact, record)
    if sealed:
        store.redis.hset(keys.game(game_id).proj, ProjField.RECORD, compacted.seal(record))


def before_spans(entries: list[dict], score: bytes | None) -> bytes:
    """A record's text as compaction wrote it before spans: one document of every entry, then
    the final score's JSON (once it was kept) on a line of its own."""
    document = orjson.dumps({"version": len(entries), "head": entries[-1]["hash"],
                             "entries": packed(entries)})
    return document if score is None else document + b"\n" + score
