"""The zstd dictionaries compacted games are compressed with, trained on the project's own logs.

A finished game's record is a few hundred small entries that all look alike across games (the
same keys, moves and facts), then its final engine state: a dictionary of what they share,
shipped in the repository, saves zstd from learning it again in every record. It is trained on
the golden replays (tests/golden), each entry a sample, packed as a record holds it
(`store.packed`), and each game's final state.

Every zstd frame names the id of the dictionary it was written with: a dictionary trained again
is shipped beside the others, never in their place, for records written with each must stay
readable. Records are written with the newest (`SHIPPED`'s last). `python -m workers.dictionary
PATH` trains one into PATH and prints its id.
"""

from __future__ import annotations

import functools
from pathlib import Path

import zstandard

_HERE = Path(__file__).resolve().parent
# Oldest first: the first (32 KB, entries only) wrote the records of 2026-11-27 and 28, before
# they were kept in spans (`first_id` tells them).
SHIPPED = (_HERE / "compaction.zdict", _HERE / "compaction-2.zdict")
# 64 KB: trained with the final states too, it makes a short game's record smaller than the
# first did (docs/benchmarks.md, 2026-12-06); every process holds it.
SIZE = 64 * 1024
# zstd decompresses every level at the same speed. Writing a record at 19 takes several times
# as long as at 12, for fewer bytes (docs/benchmarks.md, 2026-12-06): a record is written once,
# by a worker at idle priority, and kept for good.
LEVEL = 19


@functools.cache
def _shipped() -> dict[int, zstandard.ZstdCompressionDict]:
    found = (zstandard.ZstdCompressionDict(path.read_bytes()) for path in SHIPPED)
    return {dictionary.dict_id(): dictionary for dictionary in found}


def first_id() -> int:
    return next(iter(_shipped()))


@functools.cache
def _newest() -> zstandard.ZstdCompressionDict:
    newest = zstandard.ZstdCompressionDict(SHIPPED[-1].read_bytes())
    # Digested once for the level records are written at, not by every compressor made.
    newest.precompute_compress(level=LEVEL)
    return newest


def compressor() -> zstandard.ZstdCompressor:
    return zstandard.ZstdCompressor(level=LEVEL, dict_data=_newest())


def named(record: bytes) -> int:
    """The id of the dictionary a record was written with (its frame's header, the first 18
    bytes at most, is enough)."""
    return zstandard.get_frame_parameters(record).dict_id


def decompress(record: bytes) -> bytes:
    """A record's text, with the dictionary its frame names."""
    if (named_id := named(record)) not in _shipped():
        raise ValueError(f"a record written with dictionary {named_id}, which is not shipped")
    return zstandard.ZstdDecompressor(dict_data=_shipped()[named_id]).decompress(record)
