"""Speed of the web pages in a real browser: a script that prints figures, never a test.

    .venv/bin/python bench/browser.py [--games 10000] [--steps 400]

It starts its own redis-server, the Procfile's web entry and two workers, and Debian's chromium
through Playwright. It prints:
- for a finished game of every title at its largest seat count: the time to open the viewer
  (from navigation to the table drawn), the first time and again (median of three, when its
  views are kept) and the time each step takes to
  redraw while stepping back through the game with the arrow key (median, p99, max), both the
  redraw's own script and the time from the key to its frame painted (which waits for the
  browser's next frame, up to 1/60 s);
- with --games games stored: the time of the home page's listing, newest first, filtered by
  title and by status, and the time to open the home page.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import plays, stack  # noqa: E402
from bench.client import Client  # noqa: E402
from bench.local import CHROMIUM, CHROMIUM_FLAGS  # noqa: E402
from bench.run import fast_forward  # noqa: E402
from engine.games import GAMES  # noqa: E402


def finished_game(base: str, name: str) -> str:
    (track,) = plays.prepare(base, name, max(GAMES[name].seat_counts), 1, f"speed-{name}")
    fast_forward(Client(base), track, len(track.bodies))
    return track.game_id


def open_ms(page, url: str) -> float:
    page.goto(url)
    page.wait_for_function("window.tablelog && window.tablelog.ready", timeout=30_000)
    return page.evaluate("tablelog.openMs")


def step_ms(page, steps: int) -> tuple[list[float], list[float]]:
    """Step back `steps` times with the arrow key: each redraw's own time (the script, layout
    included), and the time from the key to the frame after the one that shows it painted."""
    page.evaluate("tablelog.redraws = []")
    painted = page.evaluate("""async (steps) => {
        const took = [];
        for (let i = 0; i < steps; i++) {
            const started = performance.now();
            document.body.dispatchEvent(
                new KeyboardEvent("keydown", {key: "ArrowLeft", bubbles: true}));
            await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
            took.push(performance.now() - started);
        }
        return took;
    }""", steps)
    return page.evaluate("tablelog.redraws"), painted


def spread(figures: list[float]) -> str:
    cuts = statistics.quantiles(figures, n=100)
    return (f"median {statistics.median(figures):5.1f} ms  p99 {cuts[98]:5.1f} ms"
            f"  max {max(figures):5.1f} ms")


def viewer_figures(base: str, browser, steps: int) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    print("viewer, finished games (open: navigation to table drawn; step: one redraw)")
    for name in sorted(GAMES):
        game_id = finished_game(base, name)
        summary = Client(base).get(f"/v1/games/{game_id}")
        url = f"{base}/games/{game_id}"
        # The first open replays the game; a finished game's views are then kept for a while.
        opens = [open_ms(page, url) for _ in range(4)]
        redraws, painted = step_ms(page, min(steps, summary["version"] - 1))
        print(f"  {name:14s} {len(summary['players'])} players {summary['version']:5d} entries"
              f"  open {opens[0]:5.0f} ms, again {statistics.median(opens[1:]):5.0f} ms")
        print(f"  {'':14s} step: redraw {spread(redraws)};  key to painted {spread(painted)}"
              f"  ({len(redraws)} steps)")
    page.close()


def store_games(redis_url: str, count: int) -> None:
    from bench.local import throwaway_signer
    from service import handlers
    from store import Store
    from store.connection import client

    store = Store(client(redis_url))
    names = sorted(GAMES)
    for n in range(count):
        name = names[n % len(names)]
        players = [f"p{i}" for i in range(min(GAMES[name].seat_counts))]
        handlers.create_game(store, throwaway_signer(),
                             {"game": name, "players": players, "options": {}})


def listing_figures(base: str, redis_url: str, browser, count: int) -> None:
    started = time.perf_counter()
    store_games(redis_url, count)
    print(f"home page with {count} more games stored ({time.perf_counter() - started:.0f} s to"
          " store them)")
    client = Client(base)
    for query in ("order=newest&limit=25", "order=newest&limit=25&game=hermit",
                  "order=newest&limit=25&status=finished",
                  "order=newest&limit=25&status=finished&game=coloretto"):
        took = []
        for _ in range(5):
            started = time.perf_counter()
            client.get(f"/v1/games?{query}")
            took.append((time.perf_counter() - started) * 1000)
        print(f"  GET /v1/games?{query:50s} median {statistics.median(took):6.1f} ms")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    opens = []
    for _ in range(3):
        started = time.perf_counter()
        page.goto(base + "/")
        page.wait_for_selector("#games tbody tr[data-id]")
        opens.append((time.perf_counter() - started) * 1000)
    print(f"  open the home page (list drawn)  median {statistics.median(opens):6.0f} ms")
    page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--steps", type=int, default=400)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with stack.running(2, None, None) as s, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        viewer_figures(s.service, browser, args.steps)
        listing_figures(s.service, s.redis_url, browser, args.games)
        browser.close()


if __name__ == "__main__":
    main()
