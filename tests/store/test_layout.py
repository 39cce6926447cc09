"""Stored games moved into this code's key layout (`store.layout`, `tablelog migrate`), tested on
a store written by the code before it: `tests/store/unpartitioned/` (its `write.py` says how).

The backup is restored into a Redis of the test's own; web and workers refuse to start on it;
`tablelog migrate` moves it in two runs, the first cut short; then every game and the event read
as they did when written, a retried move is still recognised by its idempotency key, and a new
move is judged.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest
import redis

from service import create_app
from store import keys, layout
from tests.api import bearer
from tests.conftest import ROOT, redis_of_its_own, start_workers, stop
from tests.store.conftest import new_game, submit
from workers.drain import judge_pending

WRITTEN = Path(__file__).resolve().parent / "unpartitioned"


def tablelog(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env={**os.environ, **env})


@pytest.fixture(scope="module")
def restored(tmp_path_factory):
    """The Redis URL of a store restored from the backup, in the layout it was written in."""
    with redis_of_its_own(tmp_path_factory.mktemp("layout")) as url:
        done = tablelog("restore", str(WRITTEN / "backup"), "--redis-url", url)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "every game's head is the backup's" in done.stdout
        yield url


@pytest.fixture(scope="module")
def written():
    return json.loads(gzip.decompress((WRITTEN / "answers.json.gz").read_bytes()))


def stray_keys(client: redis.Redis) -> list[bytes]:
    """Keys of games not where this layout puts them."""
    return [name for name in client.scan_iter(count=1000) if keys.moved(name) is not None]


def test_a_store_in_the_older_layout_is_moved_in_runs_and_reads_as_it_was_written(
        restored, written):
    client = redis.Redis.from_url(restored)
    strays = stray_keys(client)
    assert len(strays) > 20 and all(name.startswith(b"tl:{") for name in strays)

    with pytest.raises(layout.OlderLayout, match="tablelog migrate"):
        create_app({"TESTING": True, "REDIS_URL": restored})
    refused = subprocess.run([sys.executable, "-m", "workers"], cwd=ROOT, capture_output=True,
                             text=True, timeout=60, env={**os.environ, "REDIS_URL": restored})
    assert refused.returncode == 2 and "tablelog migrate" in refused.stderr

    first = tablelog("migrate", "--redis-url", restored, "--at-most", "7", "--json")
    assert first.returncode == 0, first.stderr
    tally = json.loads(first.stdout)
    assert (tally["moved"], tally["done"], tally["from"]) == (7, False, keys.UNPARTITIONED)
    assert len(stray_keys(client)) == len(strays) - 7
    assert layout.stale(client) == keys.UNPARTITIONED

    second = tablelog("migrate", "--redis-url", restored, TTY_COMPATIBLE="1", FORCE_COLOR="1")
    assert second.returncode == 0, second.stderr
    assert f"Moved {len(strays) - 7} keys" in second.stdout
    assert "the store is in this layout now" in second.stdout
    assert "100%" in second.stderr  # the progress bar, drawn to its end
    assert stray_keys(client) == [] and layout.stale(client) is None

    third = tablelog("migrate", "--redis-url", restored)
    assert "nothing to move" in third.stdout

    workers = start_workers(restored, 1)
    try:
        app = create_app({"TESTING": True, "REDIS_URL": restored}).test_client()
        for game_id, game in written["games"].items():
            read = [[path, *_answer(app, f"/v1/games/{game_id}{path}", game["table_token"],
                                    path)] for path, _, _ in game["answers"]]
            assert read == [_keyless(*answer) for answer in game["answers"]], game["title"]
        event = written["event"]
        read = [[path, *_answer(app, f"/v1/events/{event['id']}{path}",
                                event["organiser_token"], path)] for path, _, _ in event["answers"]]
        assert read == [_keyless(*answer) for answer in event["answers"]]
        _posts_still_land(app, written)
    finally:
        stop(workers)


def _answer(app, url: str, token: str, path: str) -> list:
    answer = app.get(url, headers=bearer(token))
    return _keyless(path, answer.status_code, answer.get_data().decode())[1:]


def _keyless(path: str, status: int, body: str) -> list:
    """An answer as written down, a signed head without its signature, signing time and key
    (the suite signs with a key of its own, `bench.local.signing_key`)."""
    if '"head":' in body:
        document = json.loads(body)
        for signed in ("at", "sig", "kid"):
            document["head"].pop(signed, None)
        body = json.dumps(document)
    return [path, status, body]


def _posts_still_land(app, written) -> None:
    """The move posted with an idempotency key, posted again, is answered as it was; a new move
    on a game part way is judged by the worker."""
    again = written["idempotency"]
    game = written["games"][again["game"]]
    answer = app.post(f"/v1/games/{again['game']}/moves?wait=5", json={"move": again["move"]},
                      headers={**bearer(game["seat_tokens"][str(again["seat"])]),
                               "Idempotency-Key": again["key"]})
    assert answer.status_code in (200, 201), answer.json
    assert answer.json["version"] == again["version"]
    game_id, game = next((g, v) for g, v in written["games"].items() if v["title"] == "keltis-card")
    legal = app.get(f"/v1/games/{game_id}/legal-moves", headers=bearer(game["table_token"]))
    move = legal.json["moves"][0]
    answer = app.post(f"/v1/games/{game_id}/moves?wait=5", json={"move": move["move"]},
                      headers=bearer(game["seat_tokens"][str(move["seat"])]))
    assert answer.status_code == 201, answer.json
    assert answer.json["status"] == "accepted"


def test_a_move_pending_in_the_older_layout_is_given_its_work_item(store):
    game_id = new_game(store, "g")
    submit(store, game_id)
    submit(store, game_id)
    # As the older layout held it: the game's keys under its own tag, and no work streams.
    for spelled, older in zip(_named(keys.game(game_id)), _named(keys.unpartitioned(game_id)),
                              strict=True):
        if store.redis.exists(spelled):
            store.redis.rename(spelled, older)
    store.redis.delete(keys.WORK[keys.partition(game_id)], keys.LAYOUT)
    store.redis.zadd(keys.RETIRED[0], {game_id: 1.0})  # and the scheduler's keys of then
    store.redis.lpush(keys.RETIRED[2], game_id)
    assert layout.stale(store.redis) == keys.UNPARTITIONED
    assert layout.move(store.redis).done
    assert store.redis.exists(*keys.RETIRED) == 0
    store.scheduler.ensure_groups()
    [item] = store.scheduler.read("slot-0", range(keys.PARTITIONS), 0.01)
    assert (item.game, item.seq) == (game_id, 2)  # its first pending move: the drain judges both
    assert judge_pending(store, game_id) == 2


def _named(spelled: keys.GameKeys) -> list[str]:
    return [getattr(spelled, f.name) for f in fields(keys.GameKeys)][1:]
