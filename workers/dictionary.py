"""Training the zstd dictionary compacted games are written with (`store.dictionary`).

Trained on the golden replays (tests/golden): each entry a sample, packed as a record holds it
(`store.packed`), and each game's final state as a record holds it. `python -m
workers.dictionary PATH` trains one into PATH and prints its id; a dictionary trained again is
shipped beside the others (`store.dictionary.SHIPPED`), never in their place.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import orjson
import zstandard

from store.dictionary import LEVEL, SIZE
from store.packed import packed
from workers.compaction import final_state

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"


def train(golden: Path) -> bytes:
    samples = []
    for path in sorted(golden.rglob("*.json.gz")):
        replay = orjson.loads(gzip.decompress(path.read_bytes()))
        samples += [orjson.dumps(entry) for entry in packed(replay["entries"])]
        samples.append(final_state(replay["entries"], replay["seed"], replay["decks"]))
    return zstandard.train_dictionary(SIZE, samples, level=LEVEL).as_bytes()


def main() -> None:
    target = Path(sys.argv[1])
    trained = train(GOLDEN)
    target.write_bytes(trained)
    print(f"{target}: {len(trained)} bytes, dictionary id"
          f" {zstandard.ZstdCompressionDict(trained).dict_id()}")


if __name__ == "__main__":
    main()
