"""Compaction killed at any point: a game is always either live or compacted, never neither,
every read of it is right either way, and compacting again finishes the work.

The sweep of ended games (`python -m workers.compaction`, a real process) is killed with
SIGKILL a few times at random moments while it compacts, then run to its end; and so is the
project's durable Redis (redis.conf) under it, started again on its own data each time; and so
is the sweep while it writes again in spans the records written before spans. The
moments are told by the sweep's progress, not by the clock: a game compacts in a few
milliseconds, and a kill at a random time fell after the sweep's end."""

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable

import redis

from bench.played import retold, stored
from store import Store, keys
from tests.conftest import ROOT, _free_port, start_redis
from tests.records import before_spans, rewritten
from workers.compaction import Compaction, compact

KILLS = 6


def ended_games(store: Store) -> dict:
    """Ended games of three titles, stored live, by id."""
    store.redis.flushdb()
    documents = {d["id"]: d for d in (
        retold(title, n) for title in ("coloretto", "keltis-nwnz", "hermit") for n in range(12))}
    for document in documents.values():
        assert stored(store, document).written
    return documents


def compacted_count(store: Store, ids: list[str]) -> int:
    return sum(store.compacted.compacted(ids))


def spanned_count(store: Store, ids: list[str]) -> int:
    return len(ids) - sum(store.compacted.before_spans(ids))


def sweep(url: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "workers.compaction"], cwd=ROOT,
                            env={**os.environ, "REDIS_URL": url},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_a_compaction_killed_anywhere_loses_nothing_and_finishes_when_run_again(redis_url):
    url = redis_url.rsplit("/", 1)[0] + "/6"
    store = Store(redis.Redis.from_url(url))
    documents = ended_games(store)
    env = {**os.environ, "REDIS_URL": url}
    rnd = random.Random(31)
    halfway = 0  # kills that left some games compacted and some not
    for _ in range(KILLS):
        sweeping = sweep(url)
        partly_compacted(store, documents, rnd, sweeping)
        if sweeping.poll() is None:
            os.kill(sweeping.pid, signal.SIGKILL)
        sweeping.wait(10)
        assert_whole(store, documents)
        done = sum(store.compacted.compacted(list(documents)))
        halfway += 0 < done < len(documents)
    assert halfway, "no sweep was killed halfway through"

    subprocess.run([sys.executable, "-m", "workers.compaction"], cwd=ROOT, env=env,
                   capture_output=True, timeout=120, check=True)
    assert store.compacted.compacted(list(documents)) == [True] * len(documents)
    assert_whole(store, documents)


def test_a_sweep_killed_while_it_writes_records_again_in_spans_loses_nothing(redis_url):
    url = redis_url.rsplit("/", 1)[0] + "/6"
    store = Store(redis.Redis.from_url(url))
    documents = ended_games(store)
    for game_id, document in documents.items():
        assert compact(store, game_id) == Compaction.WRITTEN
        score = store.projections.score(game_id)  # as the record holds it
        rewritten(store, game_id, before_spans(document["entries"], score), sealed=True,
                  first=True)
    ids = list(documents)
    rnd = random.Random(33)
    halfway = 0
    for _ in range(KILLS):
        sweeping = sweep(url)
        partly_compacted(store, documents, rnd, sweeping, spanned_count)
        if sweeping.poll() is None:
            os.kill(sweeping.pid, signal.SIGKILL)
        sweeping.wait(10)
        assert_whole(store, documents)
        halfway += 0 < spanned_count(store, ids) < len(ids)
    assert halfway, "no sweep was killed halfway through"
    subprocess.run([sys.executable, "-m", "workers.compaction"], cwd=ROOT,
                   env={**os.environ, "REDIS_URL": url}, capture_output=True, timeout=120,
                   check=True)
    assert store.compacted.before_spans(ids) == [False] * len(ids)
    assert_whole(store, documents)


def test_a_durable_redis_killed_under_a_compaction_comes_back_with_each_game_whole(tmp_path):
    port = _free_port()
    url = f"redis://127.0.0.1:{port}/0"

    def durable() -> subprocess.Popen:
        return start_redis(port, str(ROOT / "redis.conf"), "--dir", str(tmp_path))

    server = durable()
    try:
        store = Store(redis.Redis.from_url(url))
        documents = ended_games(store)
        rnd = random.Random(32)
        halfway = 0
        for _ in range(KILLS):
            sweeping = sweep(url)
            partly_compacted(store, documents, rnd, sweeping)
            os.kill(server.pid, signal.SIGKILL)
            server.wait(10)
            sweeping.wait(30)  # it fails, Redis gone
            server = durable()  # from its append-only file
            store = Store(redis.Redis.from_url(url))
            assert_whole(store, documents)
            halfway += 0 < sum(store.compacted.compacted(list(documents))) < len(documents)
        assert halfway, "Redis was never killed halfway through a sweep"
        subprocess.run([sys.executable, "-m", "workers.compaction"], cwd=ROOT,
                       env={**os.environ, "REDIS_URL": url}, capture_output=True, timeout=120,
                       check=True)
        assert store.compacted.compacted(list(documents)) == [True] * len(documents)
        assert_whole(store, documents)
    finally:
        server.kill()
        server.wait(10)


def partly_compacted(store: Store, documents: dict, rnd: random.Random,
                     sweeping: subprocess.Popen,
                     done: Callable[[Store, list[str]], int] = compacted_count) -> None:
    """Back once the sweep has done a few more games (a random number, well short of the
    rest: compacted, or as `done` counts them), or has ended."""
    ids = list(documents)
    now = done(store, ids)
    target = now + rnd.randint(1, max(1, (len(ids) - now) // 3))
    while sweeping.poll() is None and done(store, ids) < target:
        time.sleep(0.001)


def assert_whole(store: Store, documents: dict) -> None:
    """Each game live or compacted, and its log and state read right, with a process that
    never read it before (no cache)."""
    fresh = Store(store.redis)
    for game_id, document in documents.items():
        k = keys.game(game_id)
        live, compacted = store.redis.exists(k.log), store.redis.exists(k.compact)
        assert live + compacted == 1, (game_id, live, compacted)
        assert fresh.log.entries(game_id) == document["entries"]
        version, _ = fresh.projections.state(game_id)
        assert version == len(document["entries"])
        assert fresh.projections.position(game_id).status == "finished"
