"""Chaos: the service's own processes under many players while workers and Redis are killed.

The web (the Procfile's gunicorn command), its auditor and two judging workers (`python -m
workers`) run on a Redis of the test's own that persists every write (`--appendonly yes
--appendfsync always`). Players (`tests.fault.players`) play legal moves of all five titles
and never help judging along: they wait on their post or read `GET /moves/{seq}`. Each test
strikes once under that load:
- a worker SIGKILLed mid-drain, caught judging (holding a game's lock, or work items it read
  and has not acknowledged) or holding a drain slot (stopped, looked at, killed), and started
  again;
- every worker SIGKILLed and one started at once;
- Redis SIGKILLed and started again on the same port and folder, the workers left to find it
  (under load, and idle).
Each then waits for every submission to be judged and prints how long healing took (from the
moment a worker, or Redis, was back), and checks: every acknowledged move is in the log with
the verdict its player saw, every submission has exactly one verdict, every game's log audits
clean (hash chain and verdicts rebuilt from the seed), the web answered no 5xx but 503 and
always answered, and /healthz counts the live workers and no waiting move. Time is no figure
held to: waits give up after `HEALED_WITHIN_S`, and the test then fails for what never came.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from engine import log
from engine.audit import report
from store import Store, keys
from store.scheduler import ALIVE_S, DRAINERS
from tests.conftest import _free_port, start_redis, start_workers, stop
from tests.e2e.served import Http, serve
from tests.fault.players import Ledger, playing

PLAYERS = 10
WORKERS = 2
# Load before a fault, and after healing (so that the healed pipeline is seen judging on).
WARM_S = 2.0
HEALED_WITHIN_S = 20.0
REDIS_DOWN_S = 2.0
_DURABLE = ("--appendonly", "yes", "--appendfsync", "always", "--save", "")


class Service:
    """The processes under test, each killed or started by the test."""

    def __init__(self, folder: Path):
        self.port, self.folder = _free_port(), folder
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.redis = start_redis(self.port, "--dir", str(folder), *_DURABLE)
        self.workers = start_workers(self.url, WORKERS)
        self.store = Store(redis.Redis.from_url(self.url))
        self.http: Http | None = None

    def add_workers(self, count: int) -> float:
        """Start `count` judging workers; when they were started."""
        started = time.monotonic()
        self.workers += start_workers(self.url, count)
        return started

    def kill(self, worker: subprocess.Popen) -> None:
        worker.kill()
        worker.wait(10)
        self.workers.remove(worker)

    def kill_one_holding(self, held: str, ledger: Ledger, tries: int = 500) -> list[str]:
        """SIGKILL a worker caught holding `held` ("work": a game's lock, or work items read and
        not acknowledged; "slot": a drain's), caught by stopping it, looking, and killing it if
        it holds one, letting it go on otherwise. What it held: the games locked or the streams
        of its items, or the slot."""
        rnd = random.Random(held)
        for attempt in range(tries):
            worker = self.workers[attempt % len(self.workers)]
            os.kill(worker.pid, signal.SIGSTOP)
            # A worker's name, in its locks' tokens and its slots' flags, starts with its pid.
            owner = f"{worker.pid}-".encode()
            found = self._judging(ledger) if held == "work" else self._slots()
            caught = [name for name, holder in found.items() if holder.startswith(owner)]
            if caught:
                self.kill(worker)
                return caught
            os.kill(worker.pid, signal.SIGCONT)
            time.sleep(rnd.uniform(0, 0.03))
        pytest.fail(f"no worker was caught holding a {held} in {tries} looks")

    def _judging(self, ledger: Ledger) -> dict[str, bytes]:
        """What each worker holds as it judges: the games it locked (by its lock's token), and
        the streams of the items its drain read and has not acknowledged (by the worker its
        slot's flag names: a slot's drain is the group's consumer `slot-<n>`)."""
        with ledger.lock:
            games = [g.id for g in ledger.games]
        tokens = self.store.redis.mget([keys.game(g).lock for g in games])
        held = {g: token for g, token in zip(games, tokens, strict=True) if token}
        slots = self._slots()
        for partition in range(keys.PARTITIONS):
            stream = keys.WORK[partition]
            for consumer in self.store.redis.xpending(stream, keys.JUDGES)["consumers"]:
                worker = slots.get(keys.draining(int(consumer["name"].split(b"-")[1])))
                if worker is not None and consumer["pending"]:
                    held[stream] = worker
        return held

    def _slots(self) -> dict[str, bytes]:
        flags = [keys.draining(slot) for slot in range(DRAINERS)]
        return {f: worker for f, worker in zip(flags, self.store.redis.mget(flags), strict=True)
                if worker}

    def restart_redis(self) -> tuple[float, float]:
        """SIGKILL Redis, leave it down a moment, start it on the same port and folder; when
        it answered again, by `time.monotonic()` and `time.time()`."""
        self.redis.kill()
        self.redis.wait(10)
        time.sleep(REDIS_DOWN_S)
        self.redis = start_redis(self.port, "--dir", str(self.folder), *_DURABLE)
        return time.monotonic(), time.time()

    def rejoined(self, since: float) -> tuple[bool, float]:
        """Whether every worker process beat after `since` (`time.time()`), waiting up to
        `HEALED_WITHIN_S` for it, and the seconds until it did: a beat scores its worker
        `ALIVE_S` past the beat."""
        while True:
            beaten = self.store.redis.zcount(keys.WORKERS, since + ALIVE_S, "+inf")
            if beaten >= len(self.workers) or time.time() - since >= HEALED_WITHIN_S:
                return beaten >= len(self.workers), time.time() - since
            time.sleep(0.05)

    def stop(self) -> None:
        stop(self.workers)
        self.redis.terminate()
        self.redis.wait(10)


@pytest.fixture(scope="module")
def service(tmp_path_factory) -> Iterator[Service]:
    running = Service(tmp_path_factory.mktemp("durable-redis"))
    try:
        # The web and the auditor; the judging workers are the test's, to kill and start.
        with serve({"REDIS_URL": running.url}, workers=0) as http:
            running.http = http
            yield running
    finally:
        running.stop()


@pytest.mark.parametrize("held", ["work", "slot"])
def test_a_worker_killed_mid_drain_strands_no_move(service, held):
    def kill_one(ledger: Ledger) -> float:
        service.kill_one_holding(held, ledger)
        return service.add_workers(1)

    ledger = healed_after(service, kill_one, f"a worker killed holding a {held}")
    assert_the_log_holds(service, ledger)
    assert_health_tells_the_truth(service)


def test_every_worker_killed_and_one_started_at_once_strands_no_move(service):
    def kill_all(_: Ledger) -> float:
        for worker in list(service.workers):
            service.kill(worker)
        return service.add_workers(1)

    ledger = healed_after(service, kill_all, "every worker killed, one started at once")
    assert_the_log_holds(service, ledger)
    assert_health_tells_the_truth(service)
    service.add_workers(WORKERS - len(service.workers))


def healed_after(service: Service, fault: Callable[[Ledger], float], told: str) -> Ledger:
    """Players at their games, struck by `fault` (answering when a worker came back, by
    `time.monotonic()`): every submission is judged after that (how long it took printed),
    and the pipeline judges on."""
    with playing(service.http, PLAYERS) as ledger:
        time.sleep(WARM_S)
        back = fault(ledger)
        stranded, healed_s = ledger.healed(back, HEALED_WITHIN_S)
        time.sleep(WARM_S)
    print(f"\n{told}: {stranded} submissions pending, all judged {healed_s:.2f} s after a"
          " worker was back")
    assert_all_judged(healed_s)
    return ledger


def assert_all_judged(healed_s: float) -> None:
    """What `Ledger.healed` found: every submission judged (the seconds it took are printed,
    not held to a figure), or some still pending when it gave up waiting."""
    assert healed_s != float("inf"), f"submissions still pending {HEALED_WITHIN_S:.0f} s on"


@pytest.mark.parametrize("players", [PLAYERS, 0], ids=["under-load", "idle"])
def test_a_redis_restart_loses_nothing_and_the_workers_come_back(service, players):
    workers = list(service.workers)
    with playing(service.http, players) as ledger:
        time.sleep(WARM_S)
        back, back_at = service.restart_redis()
        rejoined, rejoined_s = service.rejoined(back_at)
        stranded, healed_s = ledger.healed(back, HEALED_WITHIN_S)
    with playing(service.http, PLAYERS) as after:  # the pipeline judges on
        time.sleep(WARM_S)
    print(f"\nRedis down {REDIS_DOWN_S:.0f} s ({players} players): every worker beating again"
          f" {rejoined_s:.2f} s after it was back; {stranded} submissions pending, all judged"
          f" {healed_s:.2f} s after; {ledger.statuses[503]} answers 503 meanwhile")
    assert [w.poll() for w in workers] == [None] * len(workers)  # none exited...
    assert rejoined  # ...and each found Redis again on its own
    assert_all_judged(healed_s)
    assert after.submissions
    for played in (ledger, after):
        assert_the_log_holds(service, played)
    assert_health_tells_the_truth(service)


def assert_health_tells_the_truth(service: Service) -> None:
    """Once dead workers' heartbeats lapse, /healthz counts the live ones, and no move waits."""
    deadline = time.monotonic() + HEALED_WITHIN_S
    while time.monotonic() < deadline:
        health = service.http.get("/healthz").json
        if health["workers"] == len(service.workers):
            break
        time.sleep(0.2)
    assert health["workers"] == len(service.workers)
    assert health["status"] == "ok" and health["persistence"] == "aof"
    assert health["pending"]["submissions"] == 0


def assert_the_log_holds(service: Service, ledger: Ledger) -> None:
    """Every submission judged once, as its player saw it; every game's log rebuilds to the
    same verdicts along an unbroken hash chain (the audit's check); and the web answered no
    5xx but 503s, and always answered."""
    assert ledger.failures == []
    assert not [s for s in ledger.statuses if s >= 500 and s != 503 or s == 0], ledger.statuses
    unjudged = [s for s in ledger.submissions if s.verdict is None]
    assert unjudged == [], f"{len(unjudged)} of {len(ledger.submissions)} never judged"
    seen: dict[str, dict[int, str]] = {}
    for s in ledger.submissions:
        seen.setdefault(s.game, {})[s.seq] = f"move-{s.verdict}"
    for game in ledger.games:
        entries = service.store.log.entries(game.id)
        audited = report(entries, *service.store.games.secret(game.id))
        assert audited["ok"] and audited["hash_chain_ok"], (game.id, audited["mismatches"][:2])
        submitted = [e["seq"] for e in entries if e["type"] == log.SUBMITTED]
        verdicts = {e["of"]: e["type"] for e in entries if "of" in e}
        assert sorted(e["of"] for e in entries if "of" in e) == submitted  # one each
        assert {seq: verdicts[seq] for seq in seen.get(game.id, {})} == seen.get(game.id, {})
