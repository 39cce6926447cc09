"""Redis memory per stored game and per log entry: a script that prints figures.

    .venv/bin/python bench/memory.py [--games 4]

It starts its own redis-server, plays `--games` games of every title (fewest and most seats)
to the end through the API in process, judging each move as a worker does, and prints for each
the entries of its log and the bytes its keys hold (`MEMORY USAGE`), the log's share of them
and the whole against its entries' canonical JSON, and the whole's bytes per entry and entries
per GB. The games are random playouts, so longer real games hold proportionally more.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import fields
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.footprint import entry_sizes  # noqa: E402
from bench.local import free_port, signing_key, start_redis  # noqa: E402
from engine.games import GAMES  # noqa: E402
from service.limits import out_of_reach  # noqa: E402
from store import Store, keys  # noqa: E402
from workers.drain import judge_pending  # noqa: E402


def play(client, store: Store, title: str, seats: int, seed: str) -> str:
    created = client.post("/v1/games", json={
        "game": title, "players": [f"p{s}" for s in range(seats)], "seed": seed}).json
    url = f"/v1/games/{created['id']}"
    tokens = {s["seat"]: _bearer(s["token"]) for s in created["seats"]}
    rnd = random.Random(seed)
    table = _bearer(created["table_token"])
    while legal := client.get(f"{url}/legal-moves", headers=table).json["moves"]:
        choice = rnd.choice(legal)
        client.post(f"{url}/moves?wait=0", json={"move": choice["move"]},
                    headers=tokens[choice["seat"]])
        judge_pending(store, created["id"])
    return created["id"]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def footprint(client: redis.Redis, game_id: str) -> tuple[int, int, int]:
    """Bytes of the game's log, of all its keys, and of its entries' canonical JSON."""
    k = keys.game(game_id)
    names = [getattr(k, f.name) for f in fields(k) if f.name != "tag"]
    sizes = {name: client.memory_usage(name, samples=0) or 0 for name in names}
    return sizes[k.log], sum(sizes.values()), sum(entry_sizes(client, k.log))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    port = free_port()
    # The project's redis.conf (its memory settings), holding nothing on disk.
    server = start_redis(port, str(ROOT / "redis.conf"), "--save", "", "--appendonly", "no")
    try:
        os.environ["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
        os.environ.update(out_of_reach())  # one process plays far faster than any person
        signing_key()
        redis_client = redis.Redis(port=port)
        from service import create_app

        app = create_app({"TESTING": True})
        store = app.extensions["store"]
        report(app.test_client(), store, redis_client, args.games)
    finally:
        server.terminate()
        server.wait(10)


def report(client, store: Store, redis_client: redis.Redis, games: int) -> None:
    print(f"{'game':14} {'seats':>5} {'entries':>8} {'bytes/game':>11} {'log share':>9}"
          f" {'x JSON':>6}")
    total_entries = total_bytes = total_json = 0
    for title, game in sorted(GAMES.items()):
        for seats in sorted({min(game.seat_counts), max(game.seat_counts)}):
            ids = [play(client, store, title, seats, f"{title}-{seats}-{n}") for n in range(games)]
            entries = sum(len(store.log.entries(g)) for g in ids)
            logs, whole, json = map(
                sum, zip(*(footprint(redis_client, g) for g in ids), strict=True))
            total_entries, total_bytes = total_entries + entries, total_bytes + whole
            total_json += json
            print(f"{title:14} {seats:>5} {entries / games:>8.0f} {whole / games:>11,.0f}"
                  f" {logs / whole:>9.0%} {whole / json:>6.2f}")
    per_entry = total_bytes / total_entries
    print(f"all: {per_entry:,.0f} bytes per entry, {total_bytes / total_json:.2f} x the entries'"
          f" canonical JSON, {2**30 / per_entry:,.0f} entries per GB"
          " (keys of finished games, without allocator overhead)")


if __name__ == "__main__":
    main()
