"""What moving finished games between servers costs the servers: a script that prints figures.

    .venv/bin/python bench/transfer.py [--games 20]

It starts its own redis-server, loads `--games` finished games of every title (the shortest
each offers, played in process as the transfer tests play them) into one database, then serves
each game's replay as `tablelog export` downloads it and imports it into a second database as
`tablelog import` does, through the app in process (no HTTP), and prints per title the log's
entries and the milliseconds a game takes the server to export and to import (re-judging it),
in time and in this process's CPU time.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.local import free_port, signing_key, start_redis  # noqa: E402
from bench.played import retold, stored  # noqa: E402
from engine.games import GAMES  # noqa: E402
from service import create_app  # noqa: E402

OPERATOR = "bench-operator"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    port = free_port()
    server = start_redis(port, "--save", "", "--appendonly", "no")
    try:
        signing_key()
        source = create_app({"REDIS_URL": f"redis://127.0.0.1:{port}/0"})
        destination = create_app({"REDIS_URL": f"redis://127.0.0.1:{port}/1",
                                  "IMPORT_TOKEN": OPERATOR})
        print(f"{'title':14} {'entries':>8} {'export ms':>10} {'(cpu ms)':>10}"
              f" {'import ms':>10} {'(cpu ms)':>10}")
        for title in sorted(GAMES):
            print(_measured(title, args.games, source, destination))
    finally:
        server.terminate()
        server.wait(10)


def _measured(title: str, games: int, source, destination) -> str:
    documents = [retold(title, number) for number in range(games)]
    for document in documents:
        stored(source.extensions["store"], document)
    exporting, importing = source.test_client(), destination.test_client()
    started = _now()
    replays = [exporting.get(f"/v1/games/{d['id']}/replay").data for d in documents]
    exported = _now()
    for document, replay in zip(documents, replays, strict=True):
        answer = importing.put(f"/v1/games/{document['id']}/replay", data=replay,
                               content_type="application/json",
                               headers={"Authorization": f"Bearer {OPERATOR}"})
        assert answer.status_code == 201, answer.json
    imported = _now()
    entries = sum(len(d["entries"]) for d in documents) / games
    return f"{title:14} {entries:8.0f} " + " ".join(
        f"{(b - a) * 1000 / games:10.1f}"
        for a, b in (*zip(started, exported, strict=True), *zip(exported, imported, strict=True)))


def _now() -> tuple[float, float]:
    """The time, and this process's CPU time: the second tells what a game costs even on a
    machine busy with other work."""
    return time.perf_counter(), time.process_time()


if __name__ == "__main__":
    main()
