"""Every read route of an ended game, live, compacted and read cold, and compacted and cached.

    .venv/bin/python -m bench.compacted_reads [--times 9]

`bench.compaction` times the three reads its issue names (the replay, the state at a step,
the score) for every title and player count; this times the other routes a page or a client
reads of an ended game, for one game of three titles: the current state, legal moves, a page
of events from the start and from seq 200, the summary, a verdict (`/moves/6`) and views. Each
game is played twice, the second compacted, and each read timed on the live one, then on the
compacted one cold (the process's cache of compacted games emptied first, `Compacted.forget`,
so that the record is read, decoded and its chain checked again) and cached, in turn. It
prints figures, never fails.
"""

from __future__ import annotations

import argparse

from bench.compaction import side_by_side, twins
from bench.local import diskless_app

PATHS = ("/state", "/legal-moves", "/events?limit=100", "/events?after=200&limit=100", "",
         "/moves/6", "/views?from=1&to=40")
GAMES = (("coloretto", 4), ("hermit", 4), ("keltis-nwnz", 3))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=9, help="times each read is timed")
    args = parser.parse_args()
    with diskless_app() as app:
        store, http = app.extensions["store"], app.test_client()
        print(f"{'game':12} {'seats':>5} {'read':30} p50 ms: live / compacted, cold / cached")
        for title, seats in GAMES:
            live, compacted = twins(http, store, title, seats, f"reads-{title}")
            p50s = side_by_side(http, store, f"/v1/games/{live}", f"/v1/games/{compacted}",
                                PATHS, args.times)
            for path, a, b, c in zip(PATHS, *p50s, strict=True):
                print(f"{title:12} {seats:>5} {path or '(summary)':30} {a:6.2f} / {b:6.2f}"
                      f" ({b / a:4.1f}x) / {c:6.2f} ({c / a:4.1f}x)")


if __name__ == "__main__":
    main()
