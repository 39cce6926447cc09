"""Moves posted at once to the same games over many connections, through two web processes
and two judging workers: every one is judged, and no game is left marked once all are.

The web processes remember different heads of the same games, so appends race and are chained
again, and the bell rings for submissions whose append was refused: the drains' hand-over
(`workers.judging.hand`) must write no verdict for those, and leave no move
unjudged. (A drain that chained such a verdict again onto the log failed this test in three
runs of six: the audit found verdicts written for the moves that took the refused ones' seqs.)
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import redis

from service.limits import out_of_reach
from store import scheduler
from tests.api import create
from tests.e2e.served import serve

_POSTERS = 6
_POSTS = 12  # each poster's, in turn to each game


def test_moves_posted_at_once_are_every_one_judged_and_no_game_stays_marked(redis_url):
    url = redis_url.rsplit("/", 1)[0] + "/9"
    store = redis.Redis.from_url(url)
    store.flushdb()
    with serve({"REDIS_URL": url, "WEB_CONCURRENCY": "2", **out_of_reach()}, workers=2) as http:
        games = [create(http, seed=f"at-once-{n}") for n in range(2)]

        def post(poster: int) -> list[tuple[int, object]]:
            posted = []
            for n in range(_POSTS):
                game = games[n % len(games)]
                # A legal move as the poster saw it: others' moves may make it illegal first.
                legal = http.get(game.url("/legal-moves"), headers=game.table).json["moves"]
                chosen = legal[(poster + n) % len(legal)]
                answer = game.move(chosen["seat"], chosen["move"], wait=5 if n % 2 else 0)
                assert answer.status_code in (201, 202, 422), answer.json
                posted.append((answer.json["seq"], game))
            return posted

        with ThreadPoolExecutor(_POSTERS) as posters:
            posted = [p for part in posters.map(post, range(_POSTERS)) for p in part]
        assert len({(seq, game.id) for seq, game in posted}) == _POSTERS * _POSTS

        deadline = time.monotonic() + 15
        pending = posted
        while pending and time.monotonic() < deadline:
            pending = [(seq, game) for seq, game in pending
                       if http.get(game.url(f"/moves/{seq}"), headers=game.table
                                   ).json["status"] == "pending"]
            time.sleep(0.05 if pending else 0)
        assert not pending
        for game in games:
            logged = http.get(game.url("/events"), headers={
                "Accept": "application/x-ndjson", **game.table}).text.splitlines()
            verdicts = [e for e in map(json.loads, logged)
                        if e["type"] in ("move-accepted", "move-rejected")]
            assert sorted(e["of"] for e in verdicts) == sorted(
                seq for seq, posted_to in posted if posted_to is game)  # each exactly once
            # ...and each the verdict on its own submission: a rebuild from the log agrees.
            audit = http.post(game.url("/audit?wait=8"), json={"claimed": {}}, headers=game.table)
            assert audit.json["ok"] is True, audit.json.get("mismatches")

        # Every work item done: one a drain read while another judged its game (partitions
        # dealt out anew as a drain hands over) is left pending until its lease lapses.
        deadline = time.monotonic() + scheduler.LEASE_MS / 1000 + 10
        while scheduler.waiting(store).items and time.monotonic() < deadline:
            time.sleep(0.05)
        assert scheduler.waiting(store).items == 0
