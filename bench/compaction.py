"""What compacting an ended game saves, and what reading it then costs: a script that prints.

    .venv/bin/python -m bench.compaction [--compaction-reads 30] [--compaction-games 1000]

(also printed by `make bench`, `bench.run`).

It starts its own redis-server (the project's redis.conf, nothing on disk) and, for every title
and player count, plays one game to the end through the API in process twice, the same moves
(judging each as a worker does: `bench.memory.play`), and compacts the second. For each it
prints the game's Redis memory (`MEMORY USAGE` summed over every key of its hash tag) live and
compacted, and the p50 of three reads through the API: the whole replay download, the state at
the middle step and the score. Each is timed on the live game, then on the compacted one cold
(the process's cache emptied first: the record read again, and what the read needs of it
decoded again, every hash recomputed for entries) and as a web process serves it once it has
read it (its cache), in turn, so that a slow moment of the machine falls on all three.

Then it stores `--compaction-games` short finished games (`bench.played`, one per title in
turn), compacts them, and prints how much Redis's used memory grew per game, and so how many
fit in 2 GB (extrapolated). `python -m bench.season` stores 100,000 for real, in some 11
minutes, and prints their used_memory.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Sequence

import redis

from bench.local import diskless_redis, signing_key
from bench.memory import play
from bench.played import retold, stored
from engine.games import GAMES
from service.limits import out_of_reach
from store import Store, keys
from workers.compaction import Compaction, compact

_GB2 = 2 * 2**30


def memory(client: redis.Redis, game_id: str) -> int:
    """Bytes of every key of the game's hash tag."""
    found = client.scan_iter(match=keys.game(game_id).tag + ":*", count=1000)
    return sum(client.memory_usage(key, samples=0) or 0 for key in found)


def side_by_side(http, store: Store, live: str, compacted: str, paths: Sequence[str],
                 times: int) -> tuple[list[float], list[float], list[float]]:
    """The p50 ms of each read (a path after a game's URL) of a live game and of the same game
    compacted, read cold (the process's cache of compacted games emptied first) and cached.
    The three are timed in turn, so that a slow moment of the machine falls on all three."""
    p50s: tuple[list[float], list[float], list[float]] = ([], [], [])
    for path in paths:
        took: tuple[list[float], list[float], list[float]] = ([], [], [])
        for _ in range(times):
            took[0].append(_timed(http, live + path))
            store.compacted.forget()
            took[1].append(_timed(http, compacted + path))
            took[2].append(_timed(http, compacted + path))
        for p50, samples in zip(p50s, took, strict=True):
            p50.append(statistics.median(samples) * 1000)
    return p50s


def _timed(http, url: str) -> float:
    start = time.perf_counter()
    answer = http.get(url)
    took = time.perf_counter() - start
    assert answer.status_code == 200, url
    return took


def twins(http, store: Store, title: str, seats: int, seed: str) -> tuple[str, str]:
    """The same game played twice to its end (the same seed, the same moves), the second
    compacted: the first stays live beside it."""
    live, compacted = (play(http, store, title, seats, seed) for _ in range(2))
    assert compact(store, compacted) == Compaction.WRITTEN
    return live, compacted


def per_title(http, store: Store, client: redis.Redis, titles: list[str], times: int
              ) -> list[int]:
    """The table of every player count of `titles`; the compacted games' bytes."""
    print(f"{'game':14} {'seats':>5} {'entries':>7} {'live B':>9} {'compact B':>9} {'ratio':>6}"
          f"  p50 ms live / compacted cold / cached: {'replay':>14} {'state at':>20}"
          f" {'score':>20}")
    sizes = []
    for title in titles:
        for seats in sorted(GAMES[title].seat_counts):
            live_id, compacted_id = twins(http, store, title, seats, f"compaction-{title}-{seats}")
            entries = store.log.head(live_id)[0]
            live, compacted = memory(client, live_id), memory(client, compacted_id)
            sizes.append(compacted)
            paths = ("/replay", f"/state?at={entries // 2}", "/score")
            reads = "".join(f" {a:6.2f} /{b:6.2f} /{c:6.2f}" for a, b, c in zip(
                *side_by_side(http, store, f"/v1/games/{live_id}", f"/v1/games/{compacted_id}",
                              paths, times), strict=True))
            print(f"{title:14} {seats:>5} {entries:>7} {live:>9,} {compacted:>9,}"
                  f" {live / compacted:>5.0f}x {'':>24}{reads}")
    return sizes


def many(store: Store, client: redis.Redis, count: int) -> float:
    """Bytes of used memory a short compacted game takes, over `count` of them."""
    client.flushdb()
    before = client.info("memory")["used_memory"]
    titles = sorted(GAMES)
    for n in range(count):
        document = retold(titles[n % len(titles)], n)
        stored(store, document)
        assert compact(store, document["id"]) == Compaction.WRITTEN
    return (client.info("memory")["used_memory"] - before) / count


def print_figures(titles: list[str], reads: int, count: int) -> None:
    """Every figure of the module's docstring, against a redis-server of its own."""
    with diskless_redis() as port:
        os.environ["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
        os.environ.update(out_of_reach())
        signing_key()
        client = redis.Redis(port=port)
        from service import create_app

        app = create_app({"TESTING": True})
        store = app.extensions["store"]
        sizes = per_title(app.test_client(), store, client, titles, reads)
        mean = statistics.mean(sizes)
        print(f"compacted, played games: mean {mean:,.0f} B, largest {max(sizes):,} B a game:"
              f" {_GB2 / mean:,.0f} (mean) or {_GB2 / max(sizes):,.0f} (largest) in 2 GB,"
              " keys alone")
        grew = many(store, client, count)
        print(f"{count} short games stored and compacted: used_memory grew {grew:,.0f} B a"
              f" game; 100,000 take {grew * 100_000 / 2**30:.2f} GB (extrapolated);"
              f" {_GB2 / grew:,.0f} fit in 2 GB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    parser.add_argument("--titles", nargs="*", default=sorted(GAMES), choices=sorted(GAMES))
    args = parser.parse_args()
    print_figures(args.titles, args.compaction_reads, args.compaction_games)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of these figures, as `bench.run` takes them too."""
    parser.add_argument("--compaction-reads", type=int, default=30,
                        help="times each read of a live and a compacted game is timed")
    parser.add_argument("--compaction-games", type=int, default=1000,
                        help="short finished games stored and compacted for used_memory")


if __name__ == "__main__":
    main()
