"""Requests per second one web process answers: a script that prints a figure.

    .venv/bin/python bench/reads.py [--clients 8] [--seconds 10]

It starts its own Redis, one web process (WEB_CONCURRENCY=1, the Procfile's gevent worker) and a
worker, creates a game, then C keep-alive clients read its state (`GET /state` with a seat's
token: authorization, a projection read and the view spliced in, the commonest request) as
fast as they can, and prints requests per second and p50/p99 latency.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import stack  # noqa: E402
from bench.client import Client  # noqa: E402


def reader(base: str, path: str, token: str, stop_at: float) -> list[float]:
    client, latencies = Client(base), []
    while time.time() < stop_at:
        started = time.perf_counter()
        client.get(path, token)
        latencies.append(time.perf_counter() - started)
    return latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    os.environ["WEB_CONCURRENCY"] = "1"
    with stack.running(1, None, None) as s:
        game = Client(s.service).call("/v1/games", {
            "game": "coloretto", "players": ["a", "b", "c", "d"]})
        path, token = f"/v1/games/{game['id']}/state", game["seats"][0]["token"]
        stop_at = time.time() + args.seconds
        with ThreadPoolExecutor(args.clients) as pool:
            runs = [pool.submit(reader, s.service, path, token, stop_at)
                    for _ in range(args.clients)]
            latencies = sorted(x for run in runs for x in run.result())
        print(f"one web process, {args.clients} clients, {args.seconds:.0f} s of GET /state:")
        print(f"  requests/s  {len(latencies) / args.seconds:8.0f}")
        print(f"  p50         {statistics.median(latencies) * 1000:8.1f} ms")
        print(f"  p99         {latencies[int(len(latencies) * 0.99)] * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
