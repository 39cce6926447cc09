"""What compacting an ended game saves, and what reading it then costs: a script that prints.

    .venv/bin/python -m bench.compaction [--compaction-reads 30] [--compaction-games 1000]

(also printed by `make bench`, `bench.run`).

It starts its own redis-server (the project's redis.conf, nothing on disk) and, for every title
and player count, plays one game to the end through the API in process (judging each move as
a worker does: `bench.memory.play`). For each it prints the game's Redis memory (`MEMORY
USAGE` summed over every key of its hash tag) live and compacted, and the p50 of three reads
through the API, live then compacted: the whole replay download, the state at the middle step
and the score. Compacted reads are timed as a web process serves them once it has read the
game (its cache), and cold (the process's cache emptied before each read: the record read
again, and what the read needs of it decoded again, every hash recomputed for entries).

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
from collections.abc import Callable, Sequence

import redis

from bench.local import diskless_redis, signing_key
from bench.memory import play
from bench.played import retold, stored
from engine.games import GAMES
from service.limits import out_of_reach
from store import Store
from workers.compaction import Compaction, compact

_GB2 = 2 * 2**30


def memory(client: redis.Redis, game_id: str) -> int:
    """Bytes of every key of the game's hash tag."""
    found = client.scan_iter(match=f"tl:{{{game_id}}}:*", count=1000)
    return sum(client.memory_usage(key, samples=0) or 0 for key in found)


def p50_ms(read: Callable[[], object], times: int) -> float:
    took = []
    for _ in range(times):
        start = time.perf_counter()
        read()
        took.append(time.perf_counter() - start)
    return statistics.median(took) * 1000


def timed_reads(http, store: Store, game_id: str, times: int, cold: bool = False
                ) -> list[float]:
    """The p50 of the replay download, the state at the middle step and the score."""
    middle = store.log.head(game_id)[0] // 2
    return p50s(http, store, f"/v1/games/{game_id}",
                ("/replay", f"/state?at={middle}", "/score"), times, cold)


def p50s(http, store: Store, url: str, paths: Sequence[str], times: int, cold: bool = False
         ) -> list[float]:
    """The p50 of each read of `url` + a path; `cold`: the process's cache of compacted games
    emptied before each."""
    def get(path: str) -> Callable[[], None]:
        def read() -> None:
            if cold:
                store.compacted.forget()
            assert http.get(url + path).status_code == 200, path
        return read

    return [p50_ms(get(path), times) for path in paths]


def per_title(http, store: Store, client: redis.Redis, titles: list[str], times: int
              ) -> list[int]:
    """The table of every player count of `titles`; the compacted games' bytes."""
    print(f"{'game':14} {'seats':>5} {'entries':>7} {'live B':>9} {'compact B':>9} {'ratio':>6}"
          f"  p50 ms live / compacted / cold: {'replay':>20} {'state at':>20} {'score':>20}")
    sizes = []
    for title in titles:
        for seats in sorted(GAMES[title].seat_counts):
            game_id = play(http, store, title, seats, f"compaction-{title}-{seats}")
            entries = store.log.head(game_id)[0]
            live = memory(client, game_id)
            live_ms = timed_reads(http, store, game_id, times)
            assert compact(store, game_id) == Compaction.WRITTEN
            compacted = memory(client, game_id)
            sizes.append(compacted)
            cold_ms = timed_reads(http, store, game_id, times, cold=True)
            warm_ms = timed_reads(http, store, game_id, times)
            reads = "".join(f" {a:6.2f} /{b:6.2f} /{c:6.1f}"
                            for a, b, c in zip(live_ms, warm_ms, cold_ms, strict=True))
            print(f"{title:14} {seats:>5} {entries:>7} {live:>9,} {compacted:>9,}"
                  f" {live / compacted:>5.0f}x {'':>31}{reads}")
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
