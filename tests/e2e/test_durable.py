"""Durable by default: the Redis `make run` starts, from the committed redis.conf, keeps every
acknowledged move when it is SIGKILLed while clients play; on a Redis that keeps nothing, the
web and the workers say so as they start.

The Procfile's processes serve games on a Redis of the test's own (redis.conf, a temporary data
folder, a free port); three clients play until Redis is killed under them, and once it is started
again on the same folder every move answered 201 is in its game's log, judged once, the chain
whole.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time

import pytest

from engine.log import ACCEPTED, REJECTED
from service import create_app
from tests.api import create
from tests.conftest import ROOT, _free_port, start_redis, stop
from tests.e2e.served import serve

PLAYERS = 3
# Each client stops at whichever comes first.
MOST_MOVES = 300
LONGEST_S = 20


@pytest.fixture
def configured_redis(tmp_path):
    """Start (and start again) the project's redis.conf Redis on one port and data folder."""
    port = _free_port()
    procs = []

    def start():
        procs.append(start_redis(port, str(ROOT / "redis.conf"), "--dir", str(tmp_path)))
        return procs[-1]

    start()
    yield f"redis://127.0.0.1:{port}/0", start, procs
    for proc in procs:
        proc.kill()
        proc.wait(10)


def play_until_refused(game, seed: int, stop: threading.Event, accepted: list[int]) -> None:
    """Random legal moves, each by its own seat, until an answer is neither 201 nor a rule's
    422 (Redis went away), `stop` is set, or the bounds are reached."""
    rnd = random.Random(seed)
    deadline = time.monotonic() + LONGEST_S
    for _ in range(MOST_MOVES):
        if stop.is_set() or time.monotonic() > deadline:
            return
        legal = game.http.get(game.url("/legal-moves"), headers=game.table)
        if legal.status_code != 200 or not legal.json["moves"]:
            return
        choice = rnd.choice(legal.json["moves"])
        answer = game.move(choice["seat"], choice["move"])
        if answer.status_code != 201:
            return
        accepted.append(answer.json["seq"])


def test_every_acknowledged_move_survives_a_sigkill_of_the_configured_redis(configured_redis):
    url, start, procs = configured_redis
    with serve({"REDIS_URL": url}) as http:
        assert http.get("/healthz").json["persistence"] == "aof"
        games = [create(http, players=("ann", "bob", "cid"), seed=f"durable-{n}")
                 for n in range(PLAYERS)]
        accepted: list[list[int]] = [[] for _ in games]
        stop = threading.Event()
        clients = [
            threading.Thread(target=play_until_refused, args=(game, n, stop, accepted[n]))
            for n, game in enumerate(games)
        ]
        for client in clients:
            client.start()
        time.sleep(2)
        procs[-1].kill()
        procs[-1].wait(10)
        stop.set()
        for client in clients:
            client.join(LONGEST_S + 30)
        start()
        assert all(len(seqs) >= 5 for seqs in accepted), accepted
        for game, seqs in zip(games, accepted, strict=True):
            for seq in seqs:
                verdict = http.get(game.url(f"/moves/{seq}"), headers=game.table)
                assert (verdict.status_code, verdict.json["status"]) == (200, "accepted")
            replay = http.get(game.url("/replay"), headers=game.table).json
            entries = replay["entries"]
            verdicts = [e["of"] for e in entries if e["type"] in (ACCEPTED, REJECTED)]
            assert len(verdicts) == len(set(verdicts))
            assert http.post("/v1/replays/verify", json=replay).json["hash_chain_ok"] is True


def test_the_web_warns_at_start_when_its_redis_keeps_nothing(redis_url, caplog):
    create_app({"TESTING": True, "REDIS_URL": redis_url})
    assert "a restart of it loses every game" in caplog.text


def test_a_worker_warns_at_start_when_its_redis_keeps_nothing(redis_url):
    env = {**os.environ, "REDIS_URL": redis_url.rsplit("/", 1)[0] + "/5"}
    worker = subprocess.Popen([sys.executable, "-m", "workers"], cwd=ROOT, env=env,
                              stderr=subprocess.PIPE, text=True)
    # A worker that never warns would leave the read waiting: it is stopped after 20 s anyway.
    bound = threading.Timer(20, worker.terminate)
    bound.start()
    with worker.stderr:
        try:
            first = worker.stderr.readline()
        finally:
            bound.cancel()
            stop([worker])
    assert "a restart of it loses every game" in first
