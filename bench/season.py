"""A season of finished games really stored: the Redis memory of 100,000 compacted games.

    .venv/bin/python -m bench.season [--games 100000] [--seeds 40] [--whole] [--processes 2]

(`make bench` prints the same figure from 1,000 games, `bench.compaction`; this one is too long
for it: some 25 minutes on two cores, a record being written at zstd level 19.)

It starts its own redis-server (the project's redis.conf, nothing on disk), then stores and
compacts `--games` games, one after the other, each the way a finished game really comes to be
compacted, and none from another's keys:

- A pool of games is played to the end through the engine (`engine.playout`, in process,
  `bench.played`): `--seeds` distinct seeds for every title. By default each is the shortest
  game of its title (the fewest players, one deal or round), as `bench.compaction`'s 1,000;
  `--whole` plays whole games with the default options, at every player count in turn, twice
  the bytes and the time.
- Game `n` is one of the pool told again (`bench.played.retold`): its players renamed and its
  creation a minute after game `n - 1`, so that its every hash, and its record, differ from
  every other game's. It is written under its own id as an import writes a verified game
  (`bench.played.stored`: the live log, verdict index, projections, meta, secret), then
  compacted by the worker's own function (`workers.compaction.compact`: the live log read back
  and checked, the record made, decoded back and compared, and swapped for the live keys by
  the one script), which must answer `written`.

`--processes` processes store and compact their share of the games side by side (as several
workers would), each printing its progress. Then it prints Redis's used_memory and
used_memory_rss for all the games (less an empty server's), the bytes a game, and how many
fit in 2 GB.
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import time

import redis

from bench.local import diskless_redis
from bench.played import retold, stored
from engine.games import GAMES
from store import Store
from workers.compaction import Compaction, compact

_GB2 = 2 * 2**30
# Games a process reports its progress after.
_EVERY = 5000


def kinds(whole: bool) -> list[tuple[str, int | None]]:
    """The titles and player counts the games are of, in turn (None: the shortest game)."""
    if not whole:
        return [(title, None) for title in sorted(GAMES)]
    return [(title, seats) for title in sorted(GAMES) for seats in sorted(GAMES[title].seat_counts)]


def store_share(port: int, games: int, share: int, processes: int, seeds: int,
                whole: bool) -> int:
    """Store and compact games `share`, `share + processes`... below `games`; how many."""
    # A process of its own, whose every game's objects reference counting frees: the cyclic
    # collector walking them again and again was a sixth of its time.
    gc.disable()
    store = Store(redis.Redis(port=port))
    ways = kinds(whole)
    started, done = time.monotonic(), 0
    for n in range(share, games, processes):
        title, seats = ways[n % len(ways)]
        document = retold(title, n, seeds, seats)
        stored(store, document, seats)
        assert compact(store, document["id"]) == Compaction.WRITTEN, document["id"]
        done += 1
        if done % _EVERY == 0:
            print(f"  process {share}: {done:,} games stored and compacted,"
                  f" {time.monotonic() - started:.0f} s", flush=True)
    return done


def used(client: redis.Redis) -> tuple[int, int]:
    found = client.info("memory")
    return found["used_memory"], found["used_memory_rss"]


def print_figures(games: int, seeds: int, whole: bool, processes: int) -> None:
    with diskless_redis() as port:
        client = redis.Redis(port=port)
        empty, empty_rss = used(client)
        kind = "whole games, every player count" if whole else "the shortest game of each title"
        print(f"{games:,} finished games ({kind}; {seeds} seeds a title), stored and compacted"
              f" by {processes} processes:", flush=True)
        started = time.monotonic()
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            done = sum(pool.starmap(store_share, [(port, games, share, processes, seeds, whole)
                                                  for share in range(processes)]))
        took = time.monotonic() - started
        memory, rss = used(client)
        compacted = sum(1 for _ in client.scan_iter(match="tl:*:compact", count=10_000))
        grew, grew_rss = (memory - empty) / done, (rss - empty_rss) / done
        print(f"{done:,} games stored, {compacted:,} records, in {took:.0f} s:"
              f" used_memory {memory / 2**30:.3f} GB ({grew:,.0f} B a game),"
              f" used_memory_rss {rss / 2**30:.3f} GB ({grew_rss:,.0f} B a game);"
              f" {fit(grew)} games fit in 2 GB ({fit(grew_rss)} by RSS)")


def fit(per_game: float) -> str:
    """How many games of `per_game` bytes 2 GB holds (a few games may not move RSS at all)."""
    return f"{_GB2 / per_game:,.0f}" if per_game > 0 else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seeds", type=int, default=40, help="distinct playouts a title")
    parser.add_argument("--whole", action="store_true",
                        help="whole games at every player count, not the shortest")
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    print_figures(args.games, args.seeds, args.whole, args.processes)


if __name__ == "__main__":
    main()
