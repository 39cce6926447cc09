"""Audits run on a queue and a worker of their own: a flood of them does not hold up verdicts.

The figures (a move's verdict latency before and during a flood of audits) are printed, not
asserted: the machine's load decides them. What is asserted is that every move gets its verdict
and that identical audits share one run.
"""

from __future__ import annotations

import random
import threading
import time

import redis

from tests.api import create
from workers.queue import audit_queue

MOVES = 40
AUDITS = 300


def latencies(game, rnd: random.Random, count: int) -> list[float]:
    """Seconds from posting each of `count` legal moves to its verdict; every one is judged."""
    took = []
    for _ in range(count):
        legal = game.http.get(game.url("/legal-moves"), headers=game.table).json["moves"]
        choice = rnd.choice(legal)
        start = time.perf_counter()
        answer = game.move(choice["seat"], choice["move"], wait=10)
        took.append(time.perf_counter() - start)
        assert answer.status_code in (201, 422), answer.json
    return took


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def flood(app, game, claims: list[int], numbers: list[int]) -> None:
    client = app.test_client()
    for claim in claims:
        answer = client.post(game.url("/audit"), json={"claimed": {"0": claim}})
        assert answer.status_code == 202 or answer.status_code == 200, answer.json
        numbers.append(answer.json["links"]["self"].rsplit("/", 1)[1])


def test_a_flood_of_audits_does_not_hold_up_a_moves_verdict(app, client, redis_url):
    rnd = random.Random(12)
    audited = create(client, seed="audited")
    latencies(audited, rnd, 30)  # a game with a log worth rebuilding
    game = create(client, seed="moves")
    quiet = latencies(game, rnd, MOVES)
    # Every claim twice: identical audits share a run.
    claims = [n % (AUDITS // 2) for n in range(AUDITS)]
    numbers: list[str] = []
    threads = [
        threading.Thread(target=flood, args=(app, audited, claims[k::4], numbers))
        for k in range(4)
    ]
    for thread in threads:
        thread.start()
    try:
        flooded = latencies(game, rnd, MOVES)
    finally:
        for thread in threads:
            thread.join(60)
        left = audit_queue(redis.Redis.from_url(redis_url)).count
        audit_queue(redis.Redis.from_url(redis_url)).empty()  # spare the rest of the suite
    assert len(numbers) == AUDITS and len(set(numbers)) == AUDITS // 2
    print(
        f"\nverdict latency of a move, quiet: p50 {p(quiet, .5):.1f} ms, p99 {p(quiet, .99):.1f}"
        f" ms; during {AUDITS} audits ({AUDITS // 2} runs, {left} still queued after):"
        f" p50 {p(flooded, .5):.1f} ms, p99 {p(flooded, .99):.1f} ms"
    )
