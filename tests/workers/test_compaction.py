"""Compaction by the workers (`workers.compaction`): a game that ends is compacted a while later
by an auditing worker, and `python -m workers.compaction` compacts the games that ended before."""

import os
import subprocess
import sys
import time

import pytest
import redis

from bench.played import retold, stored
from engine import log
from service import create_app
from store import Store, keys
from store.log import Outcome, Writing
from tests.api import create, head_unsigned
from tests.conftest import ROOT, start_workers, stop
from workers.compaction import Compaction, compact_listed

# Reads whose answers a compacted game must give as the live one did, by viewer.
READS = ("", "/state", "/state?at=3", "/score", "/legal-moves", "/replay", "/views",
         "/events?after=2&limit=5")


@pytest.fixture(scope="module")
def compacting(redis_url, workers):
    """An auditing worker that compacts a game three seconds after it ends, beside the
    suite's (which wait a minute)."""
    os.environ["TABLELOG_COMPACT_AFTER_S"] = "3"
    try:
        procs = start_workers(redis_url, 1, "audits")
    finally:
        del os.environ["TABLELOG_COMPACT_AFTER_S"]
    yield
    stop(procs)


@pytest.fixture(scope="module")
def client(redis_url, workers):
    return create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client()


def answers(client, game, viewers):
    read = [(path, client.get(game.url(path), headers=viewer))
            for path in READS for viewer in viewers]
    return [(answer.status_code, head_unsigned(answer.get_data()) if path == "/replay"
             else answer.get_data()) for path, answer in read]


def compacted_within(store: Store, game_id: str, seconds: float = 15) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if store.compacted.compacted([game_id])[0]:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("how", ["finished", "abandoned"])
def test_a_game_that_ends_is_compacted_and_reads_the_same_for_every_viewer(
        client, redis_url, how, compacting):
    store = Store(redis.Redis.from_url(redis_url))
    game = create(client, "hermit", ["ann", "bob"], seed=f"ends-{how}")
    moves = client.get(game.url("/legal-moves"), headers=game.table).json["moves"]
    assert game.move(moves[0]["seat"], moves[0]["move"]).status_code == 201
    if how == "finished":
        assert game.move(0, {"type": "concede"}).status_code == 201
    else:
        abandon = {"move": {"type": "abandon", "reason": "closing time"}}
        assert client.post(game.url("/moves?wait=5"), json=abandon,
                           headers=game.table).status_code == 201
    viewers = [{}, game.table, game.seat(0), game.seat(1)]
    assert client.get(game.url()).json["status"] == how
    before = answers(client, game, viewers)
    assert not store.compacted.compacted([game.id])[0], "read live within the three seconds"
    assert compacted_within(store, game.id)
    assert not store.redis.exists(keys.game(game.id).log)
    assert answers(client, game, viewers) == before
    refused = game.move(1, moves[0]["move"])
    assert refused.status_code == 409 and refused.json["code"] == "game-finished"
    # The append itself refuses it too (a web that read the game before it ended would post).
    late = Writing(game.id, ({"type": log.SUBMITTED, "seat": 1, "move": moves[0]["move"]},),
                   submission=True)
    assert store.log.write(late).outcome == Outcome.FINISHED


def test_a_game_is_taken_for_compaction_by_one_beat_until_its_lease_lapses(redis_url):
    store = Store(redis.Redis.from_url(redis_url.rsplit("/", 1)[0] + "/4"))
    store.redis.flushdb()
    store.compacted.ended("leased")
    assert store.compacted.take(10, after_s=60, lease_s=1) == []  # not a minute ago
    assert store.compacted.take(10, after_s=0, lease_s=0.5) == ["leased"]
    assert store.compacted.take(10, after_s=0, lease_s=0.5) == []
    time.sleep(0.6)
    assert store.compacted.take(10, after_s=0, lease_s=0.5) == ["leased"]
    assert compact_listed(store, "leased") == Compaction.MISSING
    assert store.redis.zcard(keys.ENDED) == 0


def test_the_games_that_ended_before_are_compacted_by_a_command_that_can_run_again(redis_url):
    url = redis_url.rsplit("/", 1)[0] + "/5"
    store = Store(redis.Redis.from_url(url))
    store.redis.flushdb()
    documents = [retold(title, n) for title in ("hermit", "keltis-card") for n in range(4)]
    for document in documents:
        assert stored(store, document).written

    def command() -> str:
        ran = subprocess.run([sys.executable, "-m", "workers.compaction"], cwd=ROOT,
                             env={**os.environ, "REDIS_URL": url}, capture_output=True,
                             text=True, timeout=120, check=True)
        return ran.stdout.strip()

    assert command() == "8 written"
    assert command() == "8 compacted"
    for document in documents:
        assert store.log.entries(document["id"]) == document["entries"]
        assert not store.redis.exists(keys.game(document["id"]).log)
