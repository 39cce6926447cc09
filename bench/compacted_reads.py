"""Every read route of an ended game, live, compacted and read cold, and compacted and cached.

    .venv/bin/python -m bench.compacted_reads [--times 9]

`bench.compaction` times the three reads its issue names (the replay, the state at a step,
the score) for every title and player count; this times the other routes a page or a client
reads of an ended game, for one game of three titles: the current state, legal moves, a page
of events from the start and from seq 200, the summary, a verdict (`/moves/6`) and views. Cold:
the process's cache of compacted games emptied before each read (`Compacted.forget`), so that
the record is read, decoded and its chain checked again. It prints figures, never fails.
"""

from __future__ import annotations

import argparse
import os

from bench.compaction import p50s
from bench.local import diskless_redis, signing_key
from bench.memory import play
from service.limits import out_of_reach
from workers.compaction import Compaction, compact

PATHS = ("/state", "/legal-moves", "/events?limit=100", "/events?after=200&limit=100", "",
         "/moves/6", "/views?from=1&to=40")
GAMES = (("coloretto", 4), ("hermit", 4), ("keltis-nwnz", 3))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=9, help="times each read is timed")
    args = parser.parse_args()
    with diskless_redis() as port:
        os.environ["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
        os.environ.update(out_of_reach())
        signing_key()
        from service import create_app

        app = create_app({"TESTING": True})
        store, http = app.extensions["store"], app.test_client()
        print(f"{'game':12} {'seats':>5} {'read':30} p50 ms: live / compacted, cold / cached")
        for title, seats in GAMES:
            game_id = play(http, store, title, seats, f"reads-{title}")
            url = f"/v1/games/{game_id}"
            live = p50s(http, store, url, PATHS, args.times)
            assert compact(store, game_id) == Compaction.WRITTEN
            cold = p50s(http, store, url, PATHS, args.times, cold=True)
            cached = p50s(http, store, url, PATHS, args.times)
            for path, a, b, c in zip(PATHS, live, cold, cached, strict=True):
                print(f"{title:12} {seats:>5} {path or '(summary)':30} {a:6.2f} / {b:6.2f}"
                      f" ({b / a:4.1f}x) / {c:6.2f} ({c / a:4.1f}x)")


if __name__ == "__main__":
    main()
