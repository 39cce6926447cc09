"""Golden replays: finished games recorded once per rules version, to be replayed forever.

    .venv/bin/python -m tests.golden.generate

writes, for the current rules of every title and every player count, one finished game under
`tests/golden/<rules_version>/<seats>p.json.gz` that is not there yet. It never rewrites a file:
a golden game is what its rules version did when it was recorded, and `test_golden.py` checks
that the version still does exactly that. Changing how a game plays means a new rules version,
whose golden games this script then adds beside the old ones (docs/design.md, "Rules
versions").

Each game is played from explicit seeds by `engine.playout`, with slips (refused moves naming
their rule) and batches of submissions judged together, as a worker writes them. A file is
compact JSON, gzipped (a log of a thousand entries is ~150 kB as text, ~15 kB so; read one
with `zcat`). It holds the seed and decks, the final score, the log without its hashes (the
chain is recomputed: `head`, the last hash, pins every earlier one), and `observed`: for every
entry, 8 hex digits of the SHA-256 of everything anyone may see right after it (each viewer's
view and redacted entry, whose turn it is, the round, the score).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from engine import log
from engine.game import SPECTATOR, TABLE, Game
from engine.games import GAMES
from engine.playout import TABLE_BATCH, TABLE_SLIPS, play
from engine.shuffle import shuffle
from engine.visibility import redact

HERE = Path(__file__).resolve().parent
DIGITS = 8  # of each observation's digest: a change anywhere shows, at a small cost in size
# Shorter games than the defaults where an option allows it, so the files stay small; every
# rule still comes into play (several rounds, hands or deals are kept where the game has them).
OPTIONS: dict[str, dict[str, Any]] = {
    "coloretto": {"deals": 2},
    "sieben-siegel": {"rounds": 2},
}
EXPLICIT_DECK = {("keltis-card", 3)}  # one game dealt from an explicit deck, as at a real table


def path_of(rules_version: str, seats: int) -> Path:
    return HERE / rules_version / f"{seats}p.json.gz"


def record(game: Game, seats: int) -> dict[str, Any]:
    """One finished game of `game` for `seats` players, as stored in its golden file."""
    seed = f"golden-{game.rules_version}-{seats}"
    options = OPTIONS.get(game.name, {})
    decks = []
    if (game.name, seats) in EXPLICIT_DECK:
        canonical = game.canonical_deck(seats, game.options(seats, options))
        decks = [shuffle(canonical, seed, "golden-deck")]
    playout = play(game, seats, seed, random.Random(seed), options, decks=decks,
                   slips=TABLE_SLIPS, batch=TABLE_BATCH)
    bodies = [{k: v for k, v in e.items() if k != "hash"} for e in playout.entries]
    return {
        "seed": seed,
        "decks": decks,
        "head": playout.entries[-1]["hash"],
        "score": game.score(playout.final).to_json(bodies[0]["players"]),
        "entries": bodies,
        "observed": "".join(observed(game, bodies[0]["players"],
                                     list(log.fold(game, playout.table, bodies)))),
    }


def observed(game: Game, players: list[str], steps: list[log.Step]) -> list[str]:
    """Per entry folded, a short digest of what every viewer may see right after it."""
    viewers = [SPECTATOR, TABLE, *range(len(players))]
    by_state: dict[int, tuple[Any, bytes]] = {}  # a state lasts several entries: digest it once
    out = []
    for step in steps:
        state = step.state
        if id(state) not in by_state:
            seen = {
                "to_act": list(game.to_act(state)),
                "round": game.round(state),
                "over": game.is_over(state),
                "score": game.score(state).to_json(players),
                "views": [game.view(state, viewer) for viewer in viewers],
            }
            by_state[id(state)] = (state, hashlib.sha256(log.canonical(seen)).digest())
        finished = step.entry["type"] == log.FINISHED
        entry = log.canonical([redact(step.entry, viewer, finished) for viewer in viewers])
        out.append(hashlib.sha256(by_state[id(state)][1] + entry).hexdigest()[:DIGITS])
    return out


def load(path: Path) -> dict[str, Any]:
    return json.loads(gzip.decompress(path.read_bytes()))


def dump(golden: dict[str, Any]) -> bytes:
    """Compact JSON, one log entry a line (for reading with zcat), gzipped reproducibly."""
    line = lambda value: json.dumps(value, sort_keys=True, separators=(",", ":"))  # noqa: E731
    head = ",\n".join(f"{json.dumps(k)}:{line(v)}" for k, v in golden.items() if k != "entries")
    entries = ",\n".join(line(e) for e in golden["entries"])
    text = f"{{{head},\n\"entries\":[\n{entries}\n]}}\n"
    return gzip.compress(text.encode(), compresslevel=9, mtime=0)


def main() -> None:
    for game in GAMES.values():
        for seats in game.seat_counts:
            path = path_of(game.rules_version, seats)
            if path.exists():
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(dump(record(game, seats)))
            print(f"wrote {path.relative_to(HERE.parents[1])}", file=sys.stderr)


if __name__ == "__main__":
    main()
