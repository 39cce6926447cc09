"""A full Redis: every answer to a move tells the truth about the log, every move written is
judged once memory frees, and reads are answered meanwhile.

The Procfile's web (gunicorn) and auditor, and two judging workers (`python -m workers`) run
on a Redis of the test's own (`noeviction`). The test fills it up to a `maxmemory` just above
what it holds, then posts moves one at a time while freeing a few hundred bytes before each
(deleting a filler key: Redis allows deletes when full), so that appends land at the edge of
memory, as under a real full Redis: each move's work item (what gets it judged) must be
written with it, or neither. The workers are
stopped meanwhile (SIGSTOP), or they would take that headroom for verdicts as fast as it is
freed. After each answer the test counts the game's submissions in the log: a move found there
must have been answered 201, 202, 422 or 503 `outcome-unknown` (with its seq), never 503
`store-unavailable`; one not found must not have been answered as taken. Then Redis is filled
to the brim, the workers go on, and for a few seconds reads and /healthz are asked (degraded,
Redis full, both workers counted). Then memory is freed, and every submission in the logs must
be judged, once, within `JUDGED_WITHIN_S`. Bounded: `MOVES` posts, every wait timed.
"""

from __future__ import annotations

import os
import signal
import time
from collections import Counter

import orjson
import pytest
import redis

from engine import log
from store import keys
from store.scheduler import ALIVE_S
from tests.api import create
from tests.conftest import _free_port, start_redis, start_workers, stop
from tests.e2e.served import serve

GAMES = 4
MOVES = 60
JUDGED_WITHIN_S = 10.0
# Memory above what the Redis holds once the games are made, filled then freed a little at a time.
_HEADROOM = 1 << 20
_FILLER = 512
_ASKED = 5
_FREED = (1, 2, 1, 3)  # filler keys deleted before each move, in turn


@pytest.fixture
def service(tmp_path):
    port = _free_port()
    url = f"redis://127.0.0.1:{port}/0"
    proc = start_redis(port, "--save", "", "--appendonly", "no", "--dir", str(tmp_path),
                       "--maxmemory-policy", "noeviction")
    workers = start_workers(url, 2)
    try:
        with serve({"REDIS_URL": url}, workers=0) as http:
            yield http, redis.Redis(port=port), workers
    finally:
        stop(workers)
        stop([proc])


def signalled(workers, sig: int) -> None:
    for worker in workers:
        os.kill(worker.pid, sig)


def submissions(raw: redis.Redis, game_id: str) -> list[int]:
    found = raw.xrange(keys.game(game_id).log)
    entries = (orjson.loads(fields[b"e"]) for _, fields in found)
    return [e["seq"] for e in entries if e["type"] == log.SUBMITTED]


def queued(raw: redis.Redis, game_id: str) -> list[int]:
    """The seqs of the game's submissions whose work item waits in its partition's stream."""
    found = raw.xrange(keys.WORK[keys.partition(game_id)])
    return [int(fields[b"s"]) for _, fields in found if fields[b"g"] == game_id.encode()]


def fill(raw: redis.Redis, start: int = 0) -> int:
    """Fill Redis up to its `maxmemory`; the filler keys there are."""
    for written in range(start, start + 4 * _HEADROOM // _FILLER):  # bounded: 4x what fits
        try:
            raw.set(f"filler:{written}", b"x" * _FILLER)
        except redis.exceptions.OutOfMemoryError:
            return written
    pytest.fail("Redis never got full")


def test_a_full_redis_answers_truly_and_judges_every_written_move_once_freed(service):
    http, raw, workers = service
    games = [create(http) for _ in range(GAMES)]
    for game in games:  # known to the web: the moves go straight to their append
        assert game.move(0, {"type": "draw"}).status_code == 201
    raw.config_set("maxmemory", raw.info("memory")["used_memory"] + _HEADROOM)
    fillers = fill(raw)
    answers: Counter[str] = Counter()
    lies, landed, itemless = [], 0, []
    signalled(workers, signal.SIGSTOP)
    try:
        for n in range(MOVES):
            game = games[n % GAMES]
            for _ in range(_FREED[n % len(_FREED)]):
                fillers -= 1
                raw.delete(f"filler:{fillers}")
            before = submissions(raw, game.id)
            answer = game.move(n % 3, {"type": "draw"}, wait=0)
            after = submissions(raw, game.id)
            there = len(after) > len(before)
            told = f"{answer.status_code} {answer.json.get('code') or answer.json.get('status')}"
            answers[f"{told} ({'in the log' if there else 'not in the log'})"] += 1
            landed += there
            if there and after[-1] not in queued(raw, game.id):  # written without its item
                itemless.append((n, after[-1]))
            taken = answer.status_code in (201, 202, 422)
            if told == "503 outcome-unknown":
                if there and answer.json["seq"] != after[-1]:
                    lies.append((n, told, "not its seq"))
            elif there != taken:
                lies.append((n, told, there))
        fillers = fill(raw, fillers)
    finally:
        signalled(workers, signal.SIGCONT)
    reads: Counter[int] = Counter()
    full_until = time.monotonic() + ALIVE_S + 1  # past any beat written before Redis was full
    while time.monotonic() < full_until:
        for game in games:
            reads[http.get(game.url("/state"), headers=game.seat(0)).status_code] += 1
            reads[http.get(game.url("/events"), headers=game.table).status_code] += 1
        # Kept full: keys that lapse (the rate limits' counts, RQ's) free memory meanwhile.
        fillers = fill(raw, fillers)
        time.sleep(0.2)
    # Filled again just before: keys that lapsed during the sleep left room for its probe
    # (once, memory at 0.994 of max and the probe's write taken: "ok"). A key may lapse between
    # the fill and the probe too (a rate limit's count, on a loaded machine): then the probe's
    # write is taken, truly, and Redis is filled and asked again (bounded).
    for _ in range(_ASKED):
        fillers = fill(raw, fillers)
        health = http.get("/healthz").json
        if health["redis"] == "full":
            break
    waiting = {g.id: submissions(raw, g.id) for g in games}
    pending = sum(len(seqs) - raw.hlen(keys.game(g).verdict) for g, seqs in waiting.items())
    raw.config_set("maxmemory", 0)
    freed = time.monotonic()
    while time.monotonic() - freed < JUDGED_WITHIN_S + 5:
        left = sum(len(seqs) - raw.hlen(keys.game(g).verdict) for g, seqs in waiting.items())
        if not left:
            break
        time.sleep(0.05)
    took = time.monotonic() - freed
    print(f"\n{MOVES} moves posted to a full Redis, {landed} written (each with its work item):"
          f" {dict(answers)}; reads while full {dict(reads)}; /healthz while"
          f" full: {health['status']}, redis {health['redis']}, memory"
          f" {health['memory']['used_of_max']} of max, workers {health['workers']}, pending"
          f" {health['pending']}; {pending} submissions pending when memory was freed, all"
          f" judged {took:.2f} s after")
    assert not lies, lies
    assert 0 < landed < MOVES  # the edge of memory was reached: some got in, some not
    assert not itemless, itemless
    assert set(reads) == {200}
    assert (health["status"], health["redis"], health["workers"]) == ("degraded", "full", 2)
    assert health["memory"]["used_of_max"] >= 0.99
    assert health["pending"]["submissions"] == pending
    assert left == 0 and took < JUDGED_WITHIN_S
    for game_id, seqs in waiting.items():  # once each
        assert sorted(int(s) for s in raw.hkeys(keys.game(game_id).verdict)) == seqs
