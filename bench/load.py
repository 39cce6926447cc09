"""Clients posting prepared moves for a fixed time, spread over a few forked processes.

The same processes drive every phase, the service's and the ceiling's, with the same bodies:
only the base URL changes. A client posts the next move of each of its games in turn and waits
for each answer, so a game never has more than one move in flight.
"""

from __future__ import annotations

import multiprocessing
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from bench.client import Client
from bench.plays import Track

WAIT_S = 5
# Clients start together this long after the phase is handed out, once every thread is up.
_HEAD_START_S = 0.5


class Refused(Exception):
    """An answer other than 201: the benchmark measures nothing meaningful past it."""


@dataclass(frozen=True)
class Figures:
    answers: int
    per_second: float
    p50_ms: float
    p99_ms: float
    ran_out: int  # clients that posted every move they held before the clock stopped

    def line(self) -> str:
        out = f"{self.per_second:8.0f}/s   p50 {self.p50_ms:7.1f} ms   p99 {self.p99_ms:7.1f} ms"
        return out + (f"   ({self.ran_out} clients ran out of moves)" if self.ran_out else "")


@dataclass(frozen=True)
class _Client:
    base: str
    tracks: tuple[Track, ...]
    cycle: bool  # the ceiling judges nothing, so its clients may post the same moves again


class Clients:
    """The client processes, forked once, before any phase."""

    def __init__(self, processes: int):
        self.pool = multiprocessing.get_context("fork").Pool(processes)
        self.processes = processes

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()

    def run(self, base: str, per_client: Sequence[Sequence[Track]], seconds: float,
            cycle: bool = False) -> Figures:
        clients = [_Client(base, tuple(tracks), cycle) for tracks in per_client]
        start_at = time.time() + _HEAD_START_S
        shares = [clients[p::self.processes] for p in range(self.processes)]
        parts = self.pool.map(_drive, [(s, start_at, start_at + seconds) for s in shares if s])
        latencies = [ms for part in parts for run in part for ms in run[0]]
        ran_out = sum(run[1] for part in parts for run in part)
        if len(latencies) < 2:
            raise Refused(f"only {len(latencies)} answers in {seconds} s")
        cuts = statistics.quantiles(latencies, n=100)
        return Figures(len(latencies), len(latencies) / seconds, cuts[49], cuts[98], ran_out)


def _drive(args: tuple[list[_Client], float, float]) -> list[tuple[list[float], bool]]:
    clients, start_at, stop_at = args
    with ThreadPoolExecutor(len(clients)) as threads:
        runs = [threads.submit(_post, c, start_at, stop_at) for c in clients]
        return [run.result() for run in runs]


def _post(client: _Client, start_at: float, stop_at: float) -> tuple[list[float], bool]:
    """The latencies (ms) of the answers that came before `stop_at`, and whether the client ran
    out of moves first."""
    http = Client(client.base)
    cursors = [0] * len(client.tracks)
    latencies: list[float] = []
    time.sleep(max(0.0, start_at - time.time()))
    while True:
        posted = False
        for slot, track in enumerate(client.tracks):
            if cursors[slot] == len(track.bodies):
                if not client.cycle:
                    continue
                cursors[slot] = 0
            began = time.perf_counter()
            status, raw = http.post(track.path(WAIT_S), track.bodies[cursors[slot]], track.token)
            took = time.perf_counter() - began
            if time.time() > stop_at:
                return latencies, False
            if status != 201:
                raise Refused(f"{client.base}{track.path(WAIT_S)} answered {status}: {raw[:300]!r}")
            latencies.append(took * 1000)
            cursors[slot] += 1
            posted = True
        if not posted:
            return latencies, True
