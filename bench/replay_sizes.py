"""How large a real game's replay document is: the figures `schemas.api.LARGEST_UPLOAD` is set
from. A script that prints figures, never a test.

    .venv/bin/python bench/replay_sizes.py [--games 5]

It prints, in bytes of the JSON the server serves (`GET /v1/games/{id}/replay` of a finished
game, players named with 24 characters each, every entry stamped with its time):
- every golden game (tests/golden), each title at each player count;
- `--games` random games of every title at its largest player count, with the default options
  and with the longest options allowed (the most deals or rounds), played with slips (one
  submission in twelve is refused) and batches, as the golden games are.
The largest of all is the last line.
"""

from __future__ import annotations

import argparse
import gzip
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.games import GAMES  # noqa: E402
from engine.playout import TABLE_BATCH, TABLE_SLIPS, play  # noqa: E402

# The longest game each option allows (engine/games: coloretto's deals, sieben-siegel's rounds).
LONGEST = {"coloretto": {"deals": 20}, "sieben-siegel": {"rounds": 30}}
GOLDEN = ROOT / "tests" / "golden"  # read as data
_AT = "2026-02-01T00:00:00.000Z"
_NAME = "x" * 24


def document(entries: list[dict[str, Any]], seed: str, decks: list[Any],
             score: Any) -> dict[str, Any]:
    """A finished game's replay document, shaped as the server serves it."""
    created = entries[0]
    players = [_NAME] * len(created["players"])
    return {
        "format": "tablelog-replay/1", "id": "x" * 22, "game": created["game"],
        "players": players, "options": created["options"],
        "rules_version": created["rules_version"], "status": "finished",
        "version": len(entries), "seed_commitment": "0" * 64, "seed": seed,
        "deal": {"decks": decks},
        "entries": [{**e, "at": _AT, "hash": "0" * 64} | ({"players": players} if i == 0 else {})
                    for i, e in enumerate(entries)],
        "score": score,
    }


def goldens() -> Iterator[tuple[str, int]]:
    for path in sorted(GOLDEN.rglob("*.json.gz")):
        golden = orjson.loads(gzip.decompress(path.read_bytes()))
        served = document(golden["entries"], golden["seed"], golden["decks"], golden["score"])
        yield f"golden {path.relative_to(GOLDEN)}", len(orjson.dumps(served))


def played(games: int) -> Iterator[tuple[str, int]]:
    for game in GAMES.values():
        seats = max(game.seat_counts)
        for label, options in (("default", {}), ("longest", LONGEST.get(game.name))):
            if options is None:
                continue
            sizes = []
            for n in range(games):
                seed = f"sizes-{game.name}-{label}-{n}"
                out = play(game, seats, seed, random.Random(seed), options, slips=TABLE_SLIPS,
                           batch=TABLE_BATCH)
                bodies = [{k: v for k, v in e.items() if k != "hash"} for e in out.entries]
                score = game.score(out.final).to_json(bodies[0]["players"])
                canonical = game.canonical_deck(seats, out.table.options)
                decks = [list(out.table.deck(r, canonical))
                         for r in range(1, game.round(out.final) + 1)]
                sizes.append(len(orjson.dumps(document(bodies, seed, decks, score))))
            yield f"{game.name} {seats}p {label} options {options} (max of {games})", max(sizes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    largest = ("", 0)
    for label, size in (*goldens(), *played(args.games)):
        print(f"{size:>10,}  {label}")
        largest = max(largest, (label, size), key=lambda pair: pair[1])
    print(f"{largest[1]:>10,}  largest: {largest[0]}")


if __name__ == "__main__":
    main()
