"""An event's standings for 64 players and 8 rounds: how long `GET /v1/events/{id}/standings`
takes to answer, p50 and p90, in the web process (Flask's test client, a diskless Redis).

    .venv/bin/python -m bench.event_standings [--times 101]

The event is Swiss at tables of four, seated round by round by the engine's own seating
(`engine.events.seating`), each table's result made up (random ranks, as a `result-recorded`
entry cites a game: its games are not played, which the answer does not read once their
results are in the event's log). It prints figures, never fails.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bench.local import diskless_app
from engine.events import entries as kinds
from engine.events.seating import seat_round

PLAYERS, ROUNDS, SIZE = 64, 8, 4


def made_up(store, event_id: str, seed: str) -> None:
    """Seat every round and record a result for every table, appended as the service would."""
    rnd = random.Random(seed)
    for round_ in range(1, ROUNDS + 1):
        entries = store.events.entries(event_id)
        tables, byes = seat_round(entries, round_, seed)
        games = [f"r{round_}t{n}" for n in range(1, len(tables) + 1)]
        seated = kinds.seated(round_, [
            {"table": n, "game": g, "players": t, "seed_commitment": "0" * 64}
            for n, (g, t) in enumerate(zip(games, tables, strict=True), start=1)], byes)
        results = []
        for n, (game, players) in enumerate(zip(games, tables, strict=True), start=1):
            totals = [rnd.randrange(60) for _ in players]
            ranks = [1 + sum(o > t for o in totals) for t in totals]
            score = {"players": [{"seat": s, "name": p, "total": t, "rank": r}
                                 for s, (p, t, r) in enumerate(zip(players, totals, ranks,
                                                                   strict=True))]}
            results.append(kinds.result(round_, n, game, score, kinds.FINISHED_GAME,
                                        (300, "f" * 64), {"game": game, "seq": 300},
                                        f"2026-12-06T{round_:02d}:{n:02d}:00.000Z"))
        store.events.append(event_id, [seated, *results], entries[-1]["seq"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=101, help="times the standings are read")
    args = parser.parse_args()
    with diskless_app() as app:
        http = app.test_client()
        created = http.post("/v1/events", json={
            "name": "bench", "game": "coloretto", "players": [f"p{n:02d}" for n in range(PLAYERS)],
            "rounds": ROUNDS, "format": "swiss", "table_size": SIZE, "points": [6, 4, 2, 0],
            "seed": "bench"}).json
        made_up(app.extensions["store"], created["id"], "bench")
        url = f"/v1/events/{created['id']}/standings"
        took = []
        for _ in range(args.times):
            start = time.perf_counter()
            answer = http.get(url)
            took.append((time.perf_counter() - start) * 1000)
            assert answer.status_code == 200, answer.json
        took.sort()
        print(f"standings of {PLAYERS} players after {ROUNDS} rounds"
              f" ({len(answer.data) // 1024} KiB): p50 {statistics.median(took):.2f} ms,"
              f" p90 {took[int(len(took) * 0.9)]:.2f} ms")


if __name__ == "__main__":
    main()
