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
from store.projections import Projection
from store.stored import ProjField
from tests.api import head_unsigned
from tests.records import before_spans, rewritten
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
    answers.append((again.status_code, head_unsigned(again.get_data(), "receipt")))
    answers[8] = (answers[8][0], head_unsigned(answers[8][1]))
    return answers


def audited(app, store: Store, game_id: str) -> dict:
    """A new audit's report (an identical request's, on record, is not rebuilt: forgotten)."""
    store.redis.delete(*store.redis.keys(keys.game(game_id).audit_of("*")) or ["-"])
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
    found = store.redis.keys(keys.game(game_id).tag + ":*")
    return sum(store.redis.memory_usage(key) for key in found)


def lines(store: Store, game_id: str) -> list[bytes]:
    """A record's lines: its header, a line per span of entries, its state, its score."""
    return dictionary.decompress(
        store.redis.get(keys.game(game_id).compact)).split(b"\n")


def tampered_span(store: Store, game_id: str) -> bytes:
    """The record's text with the time of an accepted move of its first span moved on a
    second: it still decodes, but that span no longer chains to the link after it."""
    text = lines(store, game_id)
    span = orjson.loads(text[1])
    accepted = next(e for e in span if e.get("type") == log.ACCEPTED and "@" in e)
    accepted["@"] += 1000
    text[1] = orjson.dumps(span)
    return b"\n".join(text)


def broken_reads(app, game_id: str, entries: list[dict]) -> list[str]:
    """The reads of `reads` that answer a loud 500 `log-broken`; any other answers 200."""
    broken = []
    for path, _ in reads(game_id, entries)[1:10]:  # a summary reads no log
        answer = app.test_client().get(path)
        assert answer.status_code in (200, 500), path
        if answer.status_code == 500:
            assert answer.json["code"] == "log-broken", path
            broken.append(path.removeprefix(f"/v1/games/{game_id}"))
    return broken


def test_a_compacted_log_that_does_not_chain_is_a_loud_500_and_a_failed_audit(
        app, store, caplog):
    game_id = "cmp-tampered"
    entries = stored(store, game_id, GOLDEN / "coloretto" / "1" / "3p.json.gz")
    span = compacted.span_of(len(entries))
    assert len(entries) > 2 * span
    later_page = f"/v1/games/{game_id}/events?after={span}&limit=50"
    before = app.test_client().get(later_page).get_data()
    assert compact(store, game_id) == Compaction.WRITTEN
    within = app.extensions["store"]
    tampered = tampered_span(store, game_id)

    # Its digest left as it was: the record is not read at all.
    rewritten(store, game_id, tampered, sealed=False)
    within.compacted.forget()
    with caplog.at_level(logging.ERROR):
        assert len(broken_reads(app, game_id, entries)) == 8  # all but the legal moves: none
    assert any("not those compaction wrote" in r.getMessage() for r in caplog.records)
    assert app.test_client().get(later_page).status_code == 500

    # Its digest rewritten too: every read of the span's entries is refused (its hashes
    # recomputed do not reach the link after it); what reads no entry of it is answered.
    rewritten(store, game_id, tampered, sealed=True)
    within.compacted.forget()
    with caplog.at_level(logging.ERROR):
        assert broken_reads(app, game_id, entries) == [
            "/state?at=1", f"/state?at={len(entries) // 2}", f"/state?at={len(entries)}",
            f"/score?at={len(entries) // 2}", "/replay", "/views"]
    assert any("compacted log is broken" in r.getMessage() for r in caplog.records)
    assert app.test_client().get(later_page).get_data() == before
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


def test_a_compacted_state_changed_is_a_loud_500_and_a_failed_audit(app, store, caplog):
    game_id = "cmp-state"
    entries = stored(store, game_id, GOLDEN / "hermit" / "1" / "3p.json.gz")
    url = f"/v1/games/{game_id}/state"
    live, state = app.test_client().get(url).get_data(), store.projections.standing(game_id)[1]
    app.test_client().get(f"/v1/games/{game_id}/score")
    score = store.projections.score(game_id)  # kept as computed (answered with its rules)
    assert compact(store, game_id) == Compaction.WRITTEN
    *spans, kept, kept_score = lines(store, game_id)
    assert (kept, kept_score) == (state, score)
    assert app.test_client().get(url).get_data() == live
    within = app.extensions["store"]
    changed = b"\n".join([*spans, state.replace(b'"hand":', b'"hand":1', 1), score])

    rewritten(store, game_id, changed, sealed=False)
    within.compacted.forget()
    with caplog.at_level(logging.ERROR):
        answer = app.test_client().get(url)
    assert answer.status_code == 500 and answer.json["code"] == "log-broken"
    assert any("not those compaction wrote" in r.getMessage() for r in caplog.records)

    # Its digest rewritten too, the state is served as kept: an audit folds the log again.
    rewritten(store, game_id, changed, sealed=True)
    within.compacted.forget()
    assert app.test_client().get(url).get_data() != live
    report = app.test_client().post(f"/v1/games/{game_id}/audit?wait=10").json
    assert report["status"] == "done" and not report["ok"] and report["hash_chain_ok"]
    assert {"seq": len(entries), "what": "stored state"} in report["mismatches"]


@pytest.mark.parametrize("score", [False, True], ids=["without-score", "with-score"])
def test_a_record_written_before_spans_reads_as_before(app, store, score):
    game_id = f"cmp-before-spans-{score}"
    entries = stored(store, game_id, GOLDEN / "keltis-card" / "1" / "2p.json.gz")
    before = read_all(app, app.extensions["store"], game_id, entries, cold=False)
    if score:  # the first reader keeps the score it computed (answered with its rules)
        app.test_client().get(f"/v1/games/{game_id}/score")
    kept = store.projections.score(game_id) if score else None
    live = store.log.entries(game_id)
    assert compact(store, game_id) == Compaction.WRITTEN
    rewritten(store, game_id, before_spans(live, kept), sealed=score, first=True)
    if not score:  # the first such records were written without their digest
        store.redis.hdel(keys.game(game_id).proj, ProjField.RECORD)
    assert read_all(app, app.extensions["store"], game_id, entries, cold=True) == before
