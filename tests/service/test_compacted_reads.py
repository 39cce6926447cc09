"""Every read of an ended game answers the same bytes once it is compacted (`store.compacted`):
the golden games of every title and player count (and the table actions', an abandoned one
among them), stored as an import stores them, read through the API before and after."""

import gzip
import logging
from pathlib import Path

import orjson
import pytest
import redis

from engine import log
from engine.game import Table
from engine.games import GAMES
from service import create_app
from store import Store, compacted, dictionary, keys
from store.projections import Field, Projection
from tests.api import head_unsigned
from workers.compaction import Compaction, compact

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
PATHS = sorted(GOLDEN.rglob("*.json.gz"))
OPERATOR = {"Authorization": "Bearer operator-secret"}


@pytest.fixture(scope="module")
def app(redis_url, workers):
    return create_app({"TESTING": True, "REDIS_URL": redis_url, "IMPORT_TOKEN": "operator-secret"})


@pytest.fixture(scope="module")
def store(redis_url):
    return Store(redis.Redis.from_url(redis_url))


def stored(store: Store, game_id: str, path: Path) -> list[dict]:
    """A golden game written as an import writes it, under `game_id` (no compaction queued:
    the test compacts it)."""
    golden = orjson.loads(gzip.decompress(path.read_bytes()))
    entries = log.chain(log.GENESIS, stamped(golden["entries"]))
    secret = {"seed": golden["seed"], "decks": golden["decks"]}
    created = entries[0]
    game = log.rules(created)
    final = log.state_at(game, log.table_of(created, secret["seed"], secret["decks"]), entries)
    judged = max(e["seq"] for e in entries if e["type"] == log.SUBMITTED)
    assert store.games.load(game_id, entries, secret, Projection.of(game, final, judged)).written
    return entries


def stamped(bodies: list[dict]) -> list[dict]:
    """Golden entries stamped as stored ones are: those without a time of their own (a
    clock's moves have theirs) a second after the one before."""
    at, out = "2026-02-01T00:00:00.000Z", []
    for body in bodies:
        if "at" not in body:
            second = int(at[17:19]) + 1
            at = f"{at[:14]}{int(at[14:16]) + second // 60:02d}:{second % 60:02d}.000Z"
        at = body.get("at", at)
        out.append({**body, "at": at})
    return out


def reads(game_id: str, entries: list[dict]) -> list[tuple[str, dict]]:
    """Every read of a stored game, as (path, headers)."""
    version, url = len(entries), f"/v1/games/{game_id}"
    middle = version // 2
    submission = next(e["seq"] for e in entries if e["type"] == log.SUBMITTED)
    ndjson, sse = {"Accept": "application/x-ndjson"}, {"Accept": "text/event-stream"}
    return [
        (url, {}), (f"{url}/state", {}), (f"{url}/state?at=1", {}),
        (f"{url}/state?at={middle}", {}), (f"{url}/state?at={version}", {}),
        (f"{url}/score", {}), (f"{url}/score?at={middle}", {}), (f"{url}/legal-moves", {}),
        (f"{url}/replay", {}), (f"{url}/views", {}), (f"{url}/views?from={middle}", {}),
        (f"{url}/views?from={middle}&to={middle + 5}&score=1", {}),
        (f"{url}/events", {}), (f"{url}/events?after={middle}&limit=7", {}),
        (f"{url}/events?after={version}", {}), (f"{url}/events", ndjson),
        (f"{url}/events?follow=1", ndjson), (f"{url}/events?follow=1&after={middle}", sse),
        (f"{url}/moves/{submission}", {}), (f"{url}/moves/{version + 1}", {}),
        (f"/v1/games?game={entries[0]['game']}&status=finished&limit=500", {}),
    ]


def read_all(app, store_of_app: Store, game_id: str, entries: list[dict], cold: bool
             ) -> list[tuple[int, bytes]]:
    """Each read's status and body; `cold`: the web process reads the record afresh for each."""
    client, answers = app.test_client(), []
    for path, headers in reads(game_id, entries):
        if cold:
            store_of_app.compacted.forget()
        answer = client.get(path, headers=headers)
        answers.append((answer.status_code, answer.get_data()))
    replay = orjson.loads(answers[8][1])
    again = client.put(f"/v1/games/{game_id}/replay", json=replay, headers=OPERATOR)
    answers.append((again.status_code, again.get_data()))
    answers[8] = (answers[8][0], head_unsigned(answers[8][1]))
    return answers


def audited(app, store: Store, game_id: str) -> dict:
    """A new audit's report (an identical request's, on record, is not rebuilt: forgotten)."""
    store.redis.delete(*store.redis.keys(f"tl:{{{game_id}}}:audit-of:*") or ["-"])
    report = app.test_client().post(f"/v1/games/{game_id}/audit?wait=10").json
    assert report["status"] == "done", report
    return {k: v for k, v in report.items() if k not in ("number", "links")}


@pytest.mark.parametrize("path", PATHS, ids=lambda p: str(p.relative_to(GOLDEN)))
def test_every_read_of_a_compacted_game_answers_as_before(app, store, path):
    game_id = "cmp-" + str(path.relative_to(GOLDEN)).replace("/", "-").removesuffix(".json.gz")
    entries = stored(store, game_id, path)
    within = app.extensions["store"]
    before, audit_before = read_all(app, within, game_id, entries, cold=False), audited(
        app, store, game_id)
    assert audit_before["ok"]

    assert compact(store, game_id) == Compaction.WRITTEN
    k = keys.game(game_id)
    assert not store.redis.exists(k.log, k.verdict) and store.redis.exists(k.compact)

    assert read_all(app, within, game_id, entries, cold=True) == before
    assert read_all(app, within, game_id, entries, cold=False) == before
    assert audited(app, store, game_id) == audit_before
    assert compact(store, game_id) == Compaction.COMPACTED


def test_a_compacted_game_far_smaller_than_live(app, store):
    path = GOLDEN / "coloretto" / "1" / "4p.json.gz"
    game_id = "cmp-small"
    stored(store, game_id, path)
    live = _memory(store, game_id)
    assert compact(store, game_id) == Compaction.WRITTEN
    assert _memory(store, game_id) * 20 <= live


def _memory(store: Store, game_id: str) -> int:
    found = store.redis.keys(f"tl:{{{game_id}}}:*")
    return sum(store.redis.memory_usage(key) for key in found)


def test_a_compacted_log_that_does_not_chain_is_a_loud_500_and_a_failed_audit(
        app, store, caplog):
    path = GOLDEN / "hermit" / "1" / "3p.json.gz"
    game_id = "cmp-tampered"
    entries = stored(store, game_id, path)
    assert compact(store, game_id) == Compaction.WRITTEN
    # A move changed inside the record: it still decodes, but no longer chains to the head.
    record = compacted.decode(game_id, store.redis.get(keys.game(game_id).compact), None,
                              store.games.secret(game_id))
    changed = [orjson.loads(e) for e in record.entries]
    seq = next(e["seq"] for e in changed if e["type"] == log.ACCEPTED)
    changed[seq - 1]["at"] = "2000-01-01T00:00:00.000Z"
    tampered = compacted.encode(changed, None)
    document = orjson.loads(dictionary.decompressor().decompress(tampered))
    document["head"] = entries[-1]["hash"]
    store.redis.set(keys.game(game_id).compact,
                    dictionary.compressor().compress(orjson.dumps(document)))

    with caplog.at_level(logging.ERROR):
        for path, _ in reads(game_id, entries)[1:10]:  # a summary reads no log
            answer = app.test_client().get(path)
            if path.endswith("/legal-moves"):  # an ended game has none: nothing read to answer
                assert answer.status_code == 200 and answer.json["moves"] == [], path
                continue
            assert answer.status_code == 500 and answer.json["code"] == "log-broken", path
    assert any("compacted log is broken" in r.getMessage() for r in caplog.records)
    report = app.test_client().post(f"/v1/games/{game_id}/audit?wait=10").json
    assert report["status"] == "done" and not report["ok"] and not report["hash_chain_ok"]
    assert {"seq": len(entries), "what": "hash"} in report["mismatches"]


def test_a_game_that_has_not_ended_is_not_compacted(store):
    game, players = GAMES["hermit"], ["a", "b"]
    created = {**log.created(game, players, {}, "s", []), "at": "2026-01-01T00:00:00.000Z"}
    state = game.deal(Table(2, game.options(2, {}), "s", ()))
    store.games.create("cmp-running", created, {"seed": "s", "decks": []}, {"t": "table"},
                       Projection.of(game, state, 0))
    assert compact(store, "cmp-running") == Compaction.RUNNING
    assert store.redis.exists(keys.game("cmp-running").log)


def rewritten(store: Store, game_id: str, text: bytes, sealed: bool) -> None:
    """The record's text replaced by `text`, its digest kept as it was or (`sealed`) made that
    of the new record, as someone rewriting both would."""
    record = dictionary.compressor().compress(text)
    store.redis.set(keys.game(game_id).compact, record)
    if sealed:
        store.redis.hset(keys.game(game_id).proj, Field.RECORD, compacted.seal(record))


def test_a_compacted_score_changed_is_a_loud_500_and_a_failed_audit(app, store, caplog):
    game_id = "cmp-score"
    stored(store, game_id, GOLDEN / "hermit" / "1" / "3p.json.gz")
    url = f"/v1/games/{game_id}/score"
    live = app.test_client().get(url).get_data()
    assert compact(store, game_id) == Compaction.WRITTEN
    text = dictionary.decompressor().decompress(store.redis.get(keys.game(game_id).compact))
    document, score = text.split(b"\n")
    assert score == live and app.test_client().get(url).get_data() == live
    within = app.extensions["store"]
    changed = document + b"\n" + score.replace(b'"total":10,', b'"total":11,', 1)

    rewritten(store, game_id, changed, sealed=False)
    within.compacted.forget()
    with caplog.at_level(logging.ERROR):
        answer = app.test_client().get(url)
    assert answer.status_code == 500 and answer.json["code"] == "log-broken"
    assert any("not those compaction wrote" in r.getMessage() for r in caplog.records)

    # Its digest rewritten too, the score is served as kept: an audit folds the log again.
    rewritten(store, game_id, changed, sealed=True)
    within.compacted.forget()
    assert app.test_client().get(url).json["players"][0]["total"] == 11
    report = app.test_client().post(f"/v1/games/{game_id}/audit?wait=10").json
    assert report["status"] == "done" and not report["ok"] and report["hash_chain_ok"]
    assert {"seq": len(orjson.loads(document)["entries"]), "what": "stored score"} in report[
        "mismatches"]


def test_a_record_written_before_scores_were_kept_in_it_reads_as_before(app, store):
    game_id = "cmp-unsealed"
    entries = stored(store, game_id, GOLDEN / "keltis-card" / "1" / "2p.json.gz")
    before = read_all(app, app.extensions["store"], game_id, entries, cold=False)
    assert compact(store, game_id) == Compaction.WRITTEN
    text = dictionary.decompressor().decompress(store.redis.get(keys.game(game_id).compact))
    rewritten(store, game_id, text.split(b"\n")[0], sealed=False)
    store.redis.hdel(keys.game(game_id).proj, Field.RECORD)
    assert read_all(app, app.extensions["store"], game_id, entries, cold=True) == before
