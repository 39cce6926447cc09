"""The zstd dictionary compacted games are compressed with, trained on the project's own logs.

A finished game's log is a few hundred small entries that all look alike across games (the same
keys, moves and facts): a dictionary of what they share, shipped in the repository
(`compaction.zdict`), saves zstd from learning it again in every record. It is trained on the
golden replays (tests/golden), each entry a sample, packed as a record holds it
(`store.packed`).

Every zstd frame names the id of the dictionary it was written with: a dictionary trained again
later is shipped beside this one, never in its place, for records written with this one must
stay readable. `python -m store.dictionary` trains it
again into a new file and prints its id.
"""

from __future__ import annotations

import functools
import gzip
import sys
from pathlib import Path

import orjson
import zstandard

from store.packed import packed

_HERE = Path(__file__).resolve().parent
SHIPPED = _HERE / "compaction.zdict"
# 32 KB: 64 KB saved 3% more of a record, and every process holds the dictionary.
_SIZE = 32 * 1024
# zstd decompresses every level at the same speed; writing a record of a Coloretto game of
# three took 6 ms at level 12 and 59 ms at 19, for 5% fewer bytes (2,566 against 2,443): too
# dear for a sweep of a season's games.
LEVEL = 12


@functools.cache
def shipped() -> zstandard.ZstdCompressionDict:
    found = zstandard.ZstdCompressionDict(SHIPPED.read_bytes())
    # Digested once for the level records are written at, not by every compressor made: 2 ms
    # of the 5 a record of a Coloretto game of three took (the same bytes either way).
    found.precompute_compress(level=LEVEL)
    return found


def compressor() -> zstandard.ZstdCompressor:
    return zstandard.ZstdCompressor(level=LEVEL, dict_data=shipped())


def decompressor() -> zstandard.ZstdDecompressor:
    return zstandard.ZstdDecompressor(dict_data=shipped())


def train(golden: Path) -> bytes:
    samples = [
        orjson.dumps(entry)
        for path in sorted(golden.rglob("*.json.gz"))
        for entry in packed(orjson.loads(gzip.decompress(path.read_bytes()))["entries"])
    ]
    return zstandard.train_dictionary(_SIZE, samples, level=LEVEL).as_bytes()


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else SHIPPED
    trained = train(_HERE.parent / "tests" / "golden")
    target.write_bytes(trained)
    print(f"{target}: {len(trained)} bytes, dictionary id"
          f" {zstandard.ZstdCompressionDict(trained).dict_id()}")
