"""The engine's speed in process, in seconds: a script that prints figures, never a test.

    .venv/bin/python -m bench.engine [--playouts 5] [--repeats 5] [--titles coloretto ...]

For every title and player count it folds random playouts to the end (`log.state_at`, then the
score, as a rebuild does) and prints the moves folded a second and the time to rebuild one
finished game, each taken from the quickest of `--repeats` passes: on a loaded machine the
quickest pass is the one least disturbed by the other processes. Beside the wall clock it gives
the same figures in the process's own CPU time, which the load moves less. Then comes the
in-process part of an audit (`engine.audit.report`) of a finished 4-player Coloretto game, and
last what signing costs (`engine.signatures`): the receipt the web signs on every answer that
appends, and the check of a keyed seat's signature on each of its moves and in a verification.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine import audit, log, signatures
from engine.games import GAMES
from engine.playout import Playout, play


@dataclass(frozen=True)
class Speed:
    moves: int  # the submissions folded in one pass
    games: int
    wall: float  # seconds of the quickest pass, by the wall clock
    cpu: float  # and by the process's CPU time

    def line(self) -> str:
        return (f"{self.moves / self.wall:10.0f} moves/s   rebuild of a finished game "
                f"{self.wall / self.games * 1000:6.2f} ms   (CPU time: "
                f"{self.moves / self.cpu:7.0f} moves/s, {self.cpu / self.games * 1000:6.2f} ms)")


def playouts(name: str, seats: int, count: int) -> list[Playout]:
    return [play(GAMES[name], seats, f"bench-{i}", random.Random(i)) for i in range(count)]


def replay_speed(logs: list[Playout], repeats: int) -> Speed:
    """Every log folded to its end and scored, `repeats` times; the quickest pass."""
    moves = sum(sum(e["type"] == log.SUBMITTED for e in p.entries) for p in logs)

    def rebuild_all() -> None:
        for p in logs:
            p.game.score(log.state_at(p.game, p.table, p.entries))

    wall, cpu = quickest(rebuild_all, repeats)
    return Speed(moves, len(logs), wall, cpu)


def quickest(work: Callable[[], None], repeats: int) -> tuple[float, float]:
    """The least wall-clock and CPU time of `repeats` runs of `work`."""
    walls, cpus = [], []
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def audit_speed(game: str, seats: int, repeats: int) -> tuple[int, float, float]:
    """The entries of a finished game and the quickest in-process audit of it (wall, CPU)."""
    (played,) = playouts(game, seats, 1)
    finished = played.entries[-1]
    wall, cpu = quickest(
        lambda: audit.report(played.entries, finished["seed"], finished["decks"]), repeats)
    return len(played.entries), wall, cpu


# Signatures timed in a pass: enough for a quick pass to last milliseconds.
_SIGNED = 2000


def signing_speed(repeats: int) -> tuple[float, float]:
    """The CPU time of one receipt signed and of one seat's signature checked, each the
    quickest of `repeats` passes of `_SIGNED`."""
    signer = signatures.Signer(Ed25519PrivateKey.generate())
    private = Ed25519PrivateKey.generate()
    public = signatures.b64(private.public_key().public_bytes_raw())
    move = {"type": "take", "row": 2}
    signed = signatures.sign_move(private, "a-game-id", 1, 17, move)
    at = "2026-11-27T12:00:00.000Z"

    def receipts() -> None:
        for seq in range(_SIGNED):
            signer.receipt("a-game-id", seq, "ab" * 32, at)

    def checks() -> None:
        for _ in range(_SIGNED):
            signatures.verified(public, signed, signatures.move_payload("a-game-id", 1, 17, move))

    return quickest(receipts, repeats)[1] / _SIGNED, quickest(checks, repeats)[1] / _SIGNED


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=5,
                        help="games folded per title and player count")
    parser.add_argument("--repeats", type=int, default=5, help="passes; the quickest counts")
    parser.add_argument("--titles", nargs="*", default=sorted(GAMES), choices=sorted(GAMES))
    args = parser.parse_args()
    print_figures(args.titles, args.playouts, args.repeats)


def print_figures(titles: list[str], count: int, repeats: int) -> None:
    print(f"engine replay (in process, random playouts to the end, quickest of {repeats}; "
          f"load average {os.getloadavg()[0]:.2f}):")
    for name in titles:
        for seats in GAMES[name].seat_counts:
            speed = replay_speed(playouts(name, seats, count), repeats)
            print(f"  {name:14s} {seats} players  {speed.line()}")
    entries, wall, cpu = audit_speed("coloretto", 4, repeats)
    print(f"  audit of a finished coloretto game of 4 ({entries} entries) in process: "
          f"{wall * 1000:6.2f} ms   (CPU time {cpu * 1000:6.2f} ms)")
    receipt, check = signing_speed(repeats)
    print(f"signing (Ed25519, in process, CPU time): a receipt signed {receipt * 1e6:5.1f} us"
          f" (once per answer that appends), a seat's signature checked {check * 1e6:5.1f} us"
          " (once per move of a keyed seat, and per such move in a verification)")


if __name__ == "__main__":
    main()
