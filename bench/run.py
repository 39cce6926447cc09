"""Benchmark of tablelog: a script that prints figures, never a test that fails on timing.

    .venv/bin/python bench/run.py [--clients 32] [--games 64] [--seconds 20] [--workers 2]
                                  [--url http://host:port --redis redis://...]

Without --url it starts its own redis-server, the Procfile's web entry and --workers worker
processes. It prints:
- verdicts per second and p50/p99 latency of `POST /moves?wait=5` for C clients over G games
  (each client follows its games with its own engine, so it posts moves and reads nothing);
- the raw XADD rate of the same Redis from this machine, and the ratio of the two;
- engine replay speed (moves per second) per game, folding whole logs of random playouts;
- the time to rebuild a finished game: in process, and as an audit through a worker.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlparse

from engine import log
from engine.game import Table
from engine.games import GAMES
from engine.playout import play

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Client:
    """One keep-alive HTTP connection."""

    def __init__(self, base: str):
        url = urlparse(base)
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)

    def call(self, method: str, path: str, body=None, token: str | None = None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        reply = self.conn.getresponse()
        return reply.status, json.loads(reply.read() or b"null")


def start_service(workers: int) -> tuple[str, str, list[subprocess.Popen]]:
    redis_port, web_port = free_port(), free_port()
    procs = [subprocess.Popen(
        [shutil.which("redis-server"), "--port", str(redis_port), "--save", "",
         "--appendonly", "no"], stdout=subprocess.DEVNULL)]
    redis_url = f"redis://127.0.0.1:{redis_port}/0"
    env = {**os.environ, "PORT": str(web_port), "REDIS_URL": redis_url,
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    entries = dict(
        line.split(":", 1) for line in (ROOT / "Procfile").read_text().splitlines() if line
    )
    commands = [entries["web"]] + [entries["worker"]] * workers
    procs += [subprocess.Popen(["bash", "-c", "exec " + c.strip()], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
              for c in commands]
    base = f"http://127.0.0.1:{web_port}"
    for _ in range(400):
        try:
            if Client(base).call("GET", "/healthz")[1]["workers"] >= workers:
                return base, redis_url, procs
        except (OSError, TypeError, KeyError):
            pass
        time.sleep(0.05)
    raise SystemExit("the service did not come up")


class Driven:
    """A game this benchmark drives: created with a known seed, so the client follows it with
    its own copy of the engine and needs no read between two moves."""

    def __init__(self, client: Client, name: str, players: int, seed: str):
        _, created = client.call("POST", "/v1/games", {
            "game": name, "players": [f"p{i}" for i in range(players)], "seed": seed})
        self.id, self.token = created["id"], created["table_token"]
        self.rules = GAMES[name]
        self.state = self.rules.deal(Table(players, created["options"], seed))

    def next_move(self, rnd: random.Random) -> tuple[int, dict] | None:
        if self.rules.is_over(self.state):
            return None
        seat = rnd.choice(self.rules.to_act(self.state))
        return seat, rnd.choice(self.rules.legal_moves(self.state, seat))

    def accepted(self, seat: int, move: dict, seq: int) -> None:
        self.state = self.rules.apply(self.state, seat, move, seq).state


def drive(base: str, index: int, games: int, stop_at: float, game: str, players: int):
    """One client: drive `games` games in turn, one legal move at a time, waiting for each
    verdict; the latency of every accepted move."""
    client, rnd = Client(base), random.Random(index)
    owned = [Driven(client, game, players, f"{index}-{i}") for i in range(games)]
    latencies, started_games = [], games
    while time.time() < stop_at:
        for slot, driven in enumerate(owned):
            choice = driven.next_move(rnd)
            if choice is None:
                started_games += 1
                owned[slot] = Driven(client, game, players, f"{index}-{started_games}")
                continue
            seat, move = choice
            started = time.perf_counter()
            status, verdict = client.call("POST", f"/v1/games/{driven.id}/moves?wait=5",
                                          {"seat": seat, "move": move}, driven.token)
            if status != 201:
                raise SystemExit(f"a legal move was not accepted: {status} {verdict}")
            latencies.append(time.perf_counter() - started)
            driven.accepted(seat, move, verdict["seq"])
    return latencies


def _drive_threads(args) -> list[float]:
    base, first, count, games, stop_at, game, players = args
    with ThreadPoolExecutor(count) as pool:
        runs = [pool.submit(drive, base, first + i, games, stop_at, game, players)
                for i in range(count)]
        return [latency for run in runs for latency in run.result()]


def load(base: str, clients: int, games: int, seconds: float, game: str, players: int,
         processes: int):
    """C clients over G games, spread over a few processes so the client's own interpreter
    lock does not become the bottleneck being measured."""
    stop_at = time.time() + seconds
    per_client = max(1, games // clients)
    shares = [clients // processes + (p < clients % processes) for p in range(processes)]
    jobs = [(base, sum(shares[:p]), share, per_client, stop_at, game, players)
            for p, share in enumerate(shares) if share]
    began = time.monotonic()
    with multiprocessing.get_context("fork").Pool(len(jobs)) as pool:
        latencies = [latency for part in pool.map(_drive_threads, jobs) for latency in part]
    return latencies, time.monotonic() - began


def xadd_rate(redis_url: str) -> float:
    url = urlparse(redis_url)
    out = subprocess.run(
        ["redis-benchmark", "-h", url.hostname, "-p", str(url.port), "-n", "200000", "-c", "50",
         "-q", "XADD", "bench:stream", "*", "e", "x" * 200],
        capture_output=True, text=True, check=True,
    ).stdout
    figure = out.replace("\r", "\n").strip().splitlines()[-1]
    return float(figure.rsplit(":", 1)[1].split("requests")[0])


def replay_speed(name: str, seats: int, playouts: int = 5) -> tuple[float, float]:
    """Moves per second folding whole logs, and the mean time to rebuild one game."""
    game = GAMES[name]
    logs = [play(game, seats, f"bench-{i}", random.Random(i)) for i in range(playouts)]
    moves = sum(sum(e["type"] == log.SUBMITTED for e in p.entries) for p in logs)
    started = time.perf_counter()
    for p in logs:
        final = log.state_at(game, p.table, p.entries)
        game.score(final)
    took = time.perf_counter() - started
    return moves / took, took / playouts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--game", default="coloretto")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--client-processes", type=int, default=4)
    parser.add_argument("--url")
    parser.add_argument("--redis")
    args = parser.parse_args()

    procs: list[subprocess.Popen] = []
    if args.url:
        base, redis_url = args.url, args.redis or "redis://127.0.0.1:6379/0"
    else:
        base, redis_url, procs = start_service(args.workers)
    try:
        print(f"load: {args.clients} clients over {args.games} {args.game} games of "
              f"{args.players}, {args.seconds:.0f} s, {args.workers} workers")
        latencies, took = load(base, args.clients, args.games, args.seconds, args.game,
                               args.players, args.client_processes)
        rate = len(latencies) / took
        cuts = statistics.quantiles(latencies, n=100)
        print(f"  verdicts/s           {rate:10.0f}")
        print(f"  latency p50          {cuts[49] * 1000:10.1f} ms")
        print(f"  latency p99          {cuts[98] * 1000:10.1f} ms")
        raw = xadd_rate(redis_url)
        print(f"  raw XADD/s           {raw:10.0f}   (redis-benchmark, same Redis)")
        print(f"  verdicts/XADD ratio  {rate / raw:10.4f}")
        client, rnd = Client(base), random.Random(0)
        finished = Driven(client, "coloretto", 4, "audited")
        while (choice := finished.next_move(rnd)) is not None:
            _, verdict = client.call("POST", f"/v1/games/{finished.id}/moves?wait=5",
                                     {"seat": choice[0], "move": choice[1]}, finished.token)
            finished.accepted(*choice, verdict["seq"])
        started = time.perf_counter()
        _, report = client.call(
            "POST", f"/v1/games/{finished.id}/audit?wait=10", {}, finished.token)
        print(f"  audit of a finished coloretto game through a worker: "
              f"{(time.perf_counter() - started) * 1000:.1f} ms (ok={report['ok']})")
    finally:
        for proc in procs:
            proc.terminate()
    print("engine replay (in process, random playouts to the end):")
    for name, game in sorted(GAMES.items()):
        for seats in game.seat_counts:
            speed, rebuild = replay_speed(name, seats)
            print(f"  {name:14s} {seats} players  {speed:10.0f} moves/s   "
                  f"rebuild of a finished game {rebuild * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
