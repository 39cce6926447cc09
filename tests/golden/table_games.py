"""Golden games of the table actions: one finished game of each kind, recorded once and checked
forever by `test_golden.py` like every other golden game.

    .venv/bin/python -m tests.golden.table_games

writes `tests/golden/table/<name>.json.gz` for each game below that is not there yet. Each is
played by `tests.engine.table_actions.sitting` (judged as a worker would, the conceded seats'
turns played after each verdict), with random legal moves from a fixed seed, entry times a
fixed step apart, and one refused move.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import log
from engine.game import TABLE
from tests.engine.table_actions.sitting import Sitting
from tests.golden.generate import HERE, dump, observed

FOLDER = HERE / "table"


def _slip(table: Sitting) -> None:
    """A move refused: a seat not to act posts the move of the seat that is."""
    waiting = table.game.to_act(table.state)
    seat = waiting[0]
    move = table.game.legal_moves(table.state, seat)[0]
    other = next(s for s in range(table.table.seats) if s not in waiting)
    assert table.post(other, move)["type"] == log.REJECTED


def _to_end(table: Sitting, rnd: random.Random) -> None:
    while not table.game.is_over(table.state):
        table.wait(rnd.randint(1, 20))
        table.play(rnd, 1)


def takebacks(rnd: random.Random) -> Sitting:
    table = Sitting("coloretto", 3, {"deals": 1}, seed="golden-takebacks")
    table.play(rnd, 6)
    _slip(table)
    table.post(TABLE, {"type": "takeback", "to": sorted(table.after)[2]})
    table.play(rnd, 4)
    of = table.post(1, {"type": "takeback", "to": sorted(table.after)[-2]})["of"]
    table.post(0, {"type": "takeback-accept", "of": of})
    table.post(2, {"type": "takeback-accept", "of": of})
    of = table.post(2, {"type": "takeback", "to": 1})["of"]
    table.post(0, {"type": "takeback-decline", "of": of})
    of = table.post(0, {"type": "takeback", "to": 1})["of"]
    table.post(0, {"type": "takeback-decline", "of": of})  # withdrawn
    table.post(1, {"type": "takeback", "to": sorted(table.after)[-1]})
    table.play(rnd, 1)  # the proposal lapses
    _to_end(table, rnd)
    return table


def concessions(rnd: random.Random) -> Sitting:
    table = Sitting("hermit", 3, seed="golden-concessions")
    table.play(rnd, 3)
    _slip(table)
    table.post(1, {"type": "concede"})
    _to_end(table, rnd)
    return table


def abandoned(rnd: random.Random) -> Sitting:
    table = Sitting("keltis-card", 2, seed="golden-abandoned")
    table.play(rnd, 8)
    _slip(table)
    table.post(0, {"type": "abandon", "reason": "the pub closed"})
    table.play(rnd, 2)
    table.post(TABLE, {"type": "abandon", "reason": "the pub closed"})
    return table


def clocked(rnd: random.Random) -> Sitting:
    table = Sitting("sieben-siegel", 3, {"rounds": 1, "turn_limit_s": 60},
                    seed="golden-clocked")
    for _ in range(4):
        table.wait(rnd.randint(5, 50))
        table.play(rnd, 1)
    _slip(table)
    table.wait(30)
    late = table.game.to_act(table.state)[0]
    claimant = (late + 1) % 3
    assert table.post(claimant, {"type": "claim-timeout"})["code"] == "claim-too-early"
    table.wait(60)
    assert table.post(claimant, {"type": "claim-timeout"})["type"] == log.ACCEPTED
    _to_end(table, rnd)
    return table


GAMES: dict[str, Callable[[random.Random], Sitting]] = {
    "coloretto-takebacks": takebacks, "hermit-concessions": concessions,
    "keltis-card-abandoned": abandoned, "sieben-siegel-clocked": clocked}


def record(play: Callable[[random.Random], Sitting], name: str) -> dict[str, Any]:
    table = play(random.Random(name))
    seed = table.table.seed
    table._append(log.finished(seed, []))
    entries = log.chain(log.GENESIS, table.entries)
    # Times only where the rules read them (a clock): the creation and each submission.
    bodies = [{k: v for k, v in e.items() if k != "hash" and (k != "at" or e["type"] in (
        log.CREATED, log.SUBMITTED))} for e in entries]
    entries = log.chain(log.GENESIS, bodies)
    players = bodies[0]["players"]
    final = log.state_at(table.game, table.table, bodies)
    return {
        "seed": seed,
        "decks": [],
        "head": entries[-1]["hash"],
        "score": table.game.score(final).to_json(players),
        "entries": bodies,
        "observed": "".join(observed(table.game, players,
                                     list(log.fold(table.game, table.table, bodies)))),
    }


def path_of(name: str) -> Path:
    return FOLDER / f"{name}.json.gz"


def main() -> None:
    FOLDER.mkdir(exist_ok=True)
    for name, play in GAMES.items():
        if not path_of(name).exists():
            path_of(name).write_bytes(dump(record(play, name)))
            print(f"wrote {path_of(name).relative_to(HERE.parents[1])}", file=sys.stderr)


if __name__ == "__main__":
    main()
