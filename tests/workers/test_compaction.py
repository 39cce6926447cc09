"""Compaction by the workers (`workers.compaction`): a game that ends is compacted a while later
by an auditing worker, and `python -m workers.compaction` compacts the games that ended before."""

import os
import subprocess
import sys
import time

import orjson
import pytest
import redis

from bench.played import retold, stored
from engine import log
from service import create_app
from store import Store, keys
from store.log import AppendResult, Writing
from store.projections import score_json
from store.stored import ProjField
from tests.api import create, head_unsigned
from tests.conftest import ROOT, start_workers, stop
from tests.records import before_spans, rewritten
from workers.compaction import Compaction, compact, compact_listed

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
    assert store.log.write(late).outcome == AppendResult.FINISHED


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


def command(url: str) -> str:
    """What `python -m workers.compaction` prints, run against `url`."""
    ran = subprocess.run([sys.executable, "-m", "workers.compaction"], cwd=ROOT,
                         env={**os.environ, "REDIS_URL": url}, capture_output=True, text=True,
                         timeout=120, check=True)
    return ran.stdout.strip()


def test_the_games_that_ended_before_are_compacted_by_a_command_that_can_run_again(redis_url):
    url = redis_url.rsplit("/", 1)[0] + "/5"
    store = Store(redis.Redis.from_url(url))
    store.redis.flushdb()
    documents = [retold(title, n) for title in ("hermit", "keltis-card") for n in range(4)]
    for document in documents:
        assert stored(store, document).written

    assert command(url) == "8 written"
    assert command(url) == "8 compacted"
    for document in documents:
        assert store.log.entries(document["id"]) == document["entries"]
        assert not store.redis.exists(keys.game(document["id"]).log)


def test_records_written_before_spans_are_written_again_in_spans_by_the_command(redis_url):
    url = redis_url.rsplit("/", 1)[0] + "/6"
    store = Store(redis.Redis.from_url(url))
    store.redis.flushdb()
    documents = [retold(title, n) for title in ("hermit", "coloretto") for n in range(2)]
    states = {}
    for n, document in enumerate(documents):
        game_id = document["id"]
        assert stored(store, document).written
        states[game_id] = store.projections.standing(game_id)[1]
        game, created = log.rules(document["entries"][0]), document["entries"][0]
        score = score_json(game, game.decode(orjson.loads(states[game_id])), created["players"])
        assert compact(store, game_id) == Compaction.WRITTEN
        # As the first records were: half of them before their score and digest were kept.
        rewritten(store, game_id, before_spans(document["entries"], score if n % 2 else None),
                  sealed=bool(n % 2), first=True)
        if not n % 2:
            store.redis.hdel(keys.game(game_id).proj, ProjField.RECORD)
    ids = [document["id"] for document in documents]
    assert store.compacted.before_spans(ids) == [True] * len(ids)

    assert command(url) == "4 spanned"
    assert command(url) == "4 compacted"
    assert store.compacted.before_spans(ids) == [False] * len(ids)
    for document in documents:
        game_id = document["id"]
        _, record = store.compacted.fetched(game_id)
        assert record.meta_head == document["entries"][-1]["hash"] and record.check()
        assert record.read() == document["entries"]
        assert record.final_state() == states[game_id]
