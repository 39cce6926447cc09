"""The log as served: events (JSON and NDJSON), replays, states and scores at a version."""

import copy
import json
import random

import orjson

from engine import log
from engine.scoring import explained
from store import keys
from tests.api import create


def finished_game(client, seed="replayed"):
    game = create(client, seed=seed, options={"deals": 1})
    game.play_to_end(random.Random(seed))
    return game


def test_a_whole_game_over_http_with_wait_ends_scored_and_reveals_the_seed(client):
    game = finished_game(client)
    summary = client.get(game.url()).json
    assert summary["status"] == "finished" and summary["seed"] == "replayed"
    assert summary["to_act"] == []
    score = client.get(game.url("/score")).json
    assert score["final"] is True and score["rounds"] == 1
    assert all(c["events"] for player in score["players"] for c in player["components"])
    events = client.get(game.url("/events?limit=5000")).json["events"]
    assert events[-1]["type"] == "game-finished" and events[-1]["seed"] == "replayed"
    # The score served is the one the engine rebuilds from nothing but the served log and seed.
    rules = log.rules(events[0])
    final = log.state_at(rules, log.table_of(events[0], "replayed", []), events)
    # (each component with the rule its title's spec declares for it).
    assert score == explained(rules.score(final).to_json(summary["players"]), rules.spec)


def test_the_hash_chain_of_served_events_verifies(client):
    game = finished_game(client, "chain")
    events = client.get(game.url("/events?limit=5000")).json["events"]
    assert log.broken_links(events) == []


def test_events_page_with_after_and_limit(client):
    game = create(client)
    game.move(0, {"type": "draw"})
    page = client.get(game.url("/events?after=1&limit=1")).json
    assert [e["seq"] for e in page["events"]] == [2] and page["next"] == 2
    rest = client.get(game.url(f"/events?after={page['next']}")).json
    assert [e["seq"] for e in rest["events"]] == [3]
    for entry in page["events"] + rest["events"]:
        assert {"seq", "type", "at", "hash"} <= set(entry)


def test_events_stream_as_ndjson(client):
    game = create(client)
    game.move(0, {"type": "draw"})
    answer = client.get(game.url("/events"), headers={"Accept": "application/x-ndjson"})
    assert answer.content_type == "application/x-ndjson"
    lines = [orjson.loads(line) for line in answer.data.splitlines()]
    assert [e["seq"] for e in lines] == [1, 2, 3]


def test_state_at_a_version_replays_the_log(client):
    game = create(client)
    game.move(0, {"type": "draw"})
    game.move(0, {"type": "place", "row": 1})
    before = client.get(game.url("/state?at=1")).json
    drawn = client.get(game.url("/state?at=3")).json
    placed = client.get(game.url("/state?at=5")).json
    now = client.get(game.url("/state")).json
    assert before["version"] == 1 and before["state"]["drawn"] is None
    assert drawn["state"]["drawn"] is not None
    assert placed["state"]["rows"][1]["cards"] == [drawn["state"]["drawn"]]
    assert now["state"] == placed["state"] and now["version"] == 5
    assert client.get(game.url("/state?at=99")).json["code"] == "no-such-version"
    assert client.get(game.url("/state?at=0")).status_code == 400


def test_score_at_a_version(client):
    game = create(client)
    game.move(0, {"type": "draw"})
    game.move(0, {"type": "place", "row": 0})
    game.move(1, {"type": "take", "row": 0})
    early = client.get(game.url("/score?at=1")).json
    later = client.get(game.url("/score")).json
    assert early["final"] is False
    assert [p["total"] for p in early["players"]] == [1, 1, 1]
    took = [c for c in later["players"][1]["components"] if 6 in c["events"]]
    assert took, "the take (entry 6) is named in the taker's components"


def test_replay_document_is_a_download_with_everything(client):
    game = finished_game(client, "doc")
    answer = client.get(game.url("/replay"))
    assert "attachment" in answer.headers["Content-Disposition"]
    doc = answer.json
    assert doc["format"] == "tablelog-replay/1" and doc["seed"] == "doc"
    assert doc["rules_version"] == "coloretto/1" and len(doc["deal"]["decks"]) == 1
    assert doc["score"]["final"] is True
    assert log.broken_links(doc["entries"]) == []


def test_replay_of_a_running_game_hides_the_deal_from_seats(client):
    game = create(client)
    assert client.get(game.url("/replay"), headers=game.seat(0)).json["deal"] is None
    assert client.get(game.url("/replay"), headers=game.table).json["deal"] is not None


def test_a_replay_verifies_and_a_tampered_one_fails(client):
    game = finished_game(client, "verify")
    doc = client.get(game.url("/replay")).json
    good = client.post("/v1/replays/verify", json=doc).json
    assert good["ok"] and good["hash_chain_ok"] and good["seed_ok"] and good["replay_ok"]

    tampered = copy.deepcopy(doc)
    take = next(e for e in tampered["entries"] if e["type"] == "move-accepted"
                and e["effects"][0]["type"] == "took")
    take["effects"][0]["cards"] = ["+2", "+2", "+2"]
    report = client.post("/v1/replays/verify", json=tampered).json
    assert report["ok"] is False and report["hash_chain_ok"] is False
    assert take["seq"] in [m["seq"] for m in report["mismatches"]]

    rechained = copy.deepcopy(tampered)
    rechained["entries"] = log.chain(log.GENESIS, [
        {k: v for k, v in e.items() if k != "hash"} for e in rechained["entries"]])
    report = client.post("/v1/replays/verify", json=rechained).json
    assert report["hash_chain_ok"] is True and report["replay_ok"] is False
    assert any(m["what"] == "verdict" for m in report["mismatches"])

    wrong_seed = {**doc, "seed": "another"}
    assert client.post("/v1/replays/verify", json=wrong_seed).json["seed_ok"] is False



def test_a_replay_whose_stored_score_alone_is_edited_says_whose_total_and_both_values(client):
    doc = client.get(finished_game(client, "scored").url("/replay")).json
    edited = copy.deepcopy(doc)
    edited["score"]["players"][0]["total"] -= 4
    report = client.post("/v1/replays/verify", json=edited).json
    assert report["ok"] is False and report["hash_chain_ok"] and report["replay_ok"] is False
    right = [p["total"] for p in doc["score"]["players"]]
    name, total = doc["players"][0], right[0]
    assert report["mismatches"] == [{
        "seq": len(doc["entries"]), "what": "stored score", "seats": [0],
        "stored": [total - 4, *right[1:]], "recomputed": right,
        "detail": f"{name}'s total is stored as {total - 4}, recomputed {total}"}]


def test_a_replay_holding_a_fraction_is_refused_as_malformed(client):
    """No log holds a fraction, and the canonical JSON of one would not be json.dumps's."""
    doc = client.get(finished_game(client, "fraction").url("/replay")).json
    for where in ("entries", "score"):
        holding = copy.deepcopy(doc)
        target = holding["entries"][1] if where == "entries" else holding["score"]
        target["odd"] = 1e16
        answer = client.post("/v1/replays/verify", json=holding)
        assert answer.status_code == 400 and answer.json["code"] == "malformed-replay"
        assert "fraction" in answer.json["detail"]

def test_a_replay_of_a_running_game_says_which_entries_it_cannot_check(client):
    """Redacted entries no longer hash to their `hash`: unknown, not tampered."""
    game = create(client, seed="running")
    game.move(0, {"type": "draw"})
    game.move(0, {"type": "place", "row": 0})
    game.move(0, {"type": "take", "row": 0})  # refused: not seat 0's turn
    spectated = client.get(game.url("/replay")).json
    report = client.post("/v1/replays/verify", json=spectated).json
    submissions = [e["seq"] for e in spectated["entries"] if e["type"] == "move-submitted"]
    refusal = [e["seq"] for e in spectated["entries"] if e["type"] == "move-rejected"]
    assert report["hash_chain_ok"] is None and report["ok"] is False
    assert report["mismatches"] == [] and report["redacted"] == sorted(submissions + refusal)

    own = client.get(game.url("/replay"), headers=game.seat(0)).json
    report = client.post("/v1/replays/verify", json=own).json
    assert report["hash_chain_ok"] is True and report["redacted"] == []

    tampered = copy.deepcopy(spectated)
    tampered["entries"][0]["players"] = ["ann", "bob", "eve"]
    report = client.post("/v1/replays/verify", json=tampered).json
    assert report["hash_chain_ok"] is False
    assert report["mismatches"][0] == {"seq": 1, "what": "hash"}


def test_verify_rejects_documents_that_are_not_replays(client):
    answer = client.post("/v1/replays/verify", json={"format": "x"})
    assert answer.status_code == 400 and answer.json["code"] == "invalid-request"


def test_audit_with_claims_explains_the_difference(client):
    game = finished_game(client, "audit")
    score = client.get(game.url("/score")).json
    real = score["players"][0]["total"]
    answer = client.post(game.url("/audit?wait=8"), json={"claimed": {"0": real + 4}})
    assert answer.status_code == 200
    report = answer.json
    assert report["ok"] and report["hash_chain_ok"] and report["seed_ok"] and report["replay_ok"]
    claim = report["claims"][0]
    assert claim["seat"] == 0 and claim["claimed"] == real + 4 and claim["recomputed"] == real
    assert claim["components"] == score["players"][0]["components"]
    assert report["progress"]["done"] == report["progress"]["total"] if "progress" in report \
        else True


def test_audit_without_wait_is_202_with_a_link_to_poll(client):
    game = create(client)
    answer = client.post(game.url("/audit"))
    assert answer.status_code in (200, 202)
    link = answer.json["links"]["self"]
    polled = client.get(link + "?wait=8")
    assert polled.status_code == 200 and polled.json["ok"] is True
    assert client.get(game.url("/audits/99")).json["code"] == "no-such-audit"


def test_a_wait_longer_than_the_redis_clients_default_timeout_answers_pending(client, app):
    """redis-py 8 times a read out after 5 s unless told otherwise; `wait` may ask for 10."""
    game = create(client)
    app.extensions["store"].audits.save(game.id, 77, {"status": "queued"})
    polled = client.get(game.url("/audits/77?wait=5.5"))
    assert polled.status_code == 202 and polled.json["status"] == "queued"


def test_audit_finds_a_stored_verdict_that_was_tampered_with(client, app):
    game = finished_game(client, "tamper")
    store = app.extensions["store"]
    key = keys.game(game.id).log
    stored = store.redis.xrange(key)
    store.redis.delete(key)
    for stream_id, fields in stored:
        entry = json.loads(fields[b"e"])
        if entry["seq"] == 3:
            entry["effects"] = [{"type": "drew", "seat": 0, "card": "joker"}]
        store.redis.xadd(key, {"e": json.dumps(entry)}, id=stream_id)
    report = client.post(game.url("/audit?wait=8")).json
    assert report["ok"] is False and report["hash_chain_ok"] is False


def _played(client, title, players, moves):
    game = create(client, game=title, players=players)
    rnd = random.Random(title)
    for _ in range(moves):
        choice = rnd.choice(client.get(game.url("/legal-moves"), headers=game.table).json["moves"])
        assert game.move(choice["seat"], choice["move"]).status_code == 201
    return game


def test_the_tables_replay_of_a_running_game_is_dealt_again_without_its_seed(client):
    # Coloretto's removed colour for three and the keltis-nwnz tiles come from the seed too:
    # the table's deal carries them, or a rebuild under another colour finds false verdicts.
    for title, players, label in [("coloretto", ("ann", "bob", "cid"), "removed-color"),
                                  ("keltis-nwnz", ("ann", "bob"), "tiles")]:
        game = _played(client, title, players, 12)
        doc = client.get(game.url("/replay"), headers=game.table).json
        assert doc["seed"] is None and label in doc["deal"]["choices"]
        report = client.post("/v1/replays/verify", json=doc).json
        assert report["replay_ok"] and not report["mismatches"], report["mismatches"]
        last = client.post("/v1/replays/views?from=13", json=doc).json["steps"][-1]
        assert last["state"] == client.get(game.url("/state"), headers=game.table).json["state"]
