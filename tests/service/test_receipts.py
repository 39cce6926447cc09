"""Receipts: every answer that appends carries the server's signature of the entry it wrote,
`GET /head` and the replay's `head` sign the last entry, and `GET /v1/keys` publishes the keys
they verify with."""

import json
import stat

import pytest
from flask import request_started

from engine.signatures import kid_of, receipt_problem
from service import create_app, signing
from tests.api import create


def _keys(client):
    answer = client.get("/v1/keys")
    assert answer.status_code == 200
    return answer.json["keys"]


def _entry(client, game, seq):
    return client.get(game.url(f"/events?after={seq - 1}&limit=1"), headers=game.table).json[
        "events"][0]


def test_the_published_key_names_itself_and_is_the_apps(client, app):
    (key,) = _keys(client)
    assert key["alg"] == "Ed25519" and key["until"] is None
    assert key["kid"] == kid_of(key["public_key"]) == app.extensions["keyring"].signer.kid


def test_creating_a_game_answers_a_receipt_for_its_first_entry(client):
    game = create(client)
    receipt = game.created["receipt"]
    assert receipt["game"] == game.id and receipt["seq"] == 1
    assert receipt["hash"] == _entry(client, game, 1)["hash"]
    assert receipt_problem(receipt, _keys(client)) is None


def test_a_moves_receipt_signs_its_verdict_or_else_its_submission(client):
    game = create(client)
    judged = game.move(0, {"type": "draw"})
    assert judged.status_code == 201
    receipt = judged.json["receipt"]
    assert receipt["seq"] == judged.json["version"]
    assert receipt["hash"] == _entry(client, game, receipt["seq"])["hash"]
    pending = game.move(1, {"type": "draw"}, wait=0)
    assert pending.status_code == 202
    assert pending.json["receipt"]["seq"] == pending.json["seq"]
    assert pending.json["receipt"]["hash"] == _entry(client, game, pending.json["seq"])["hash"]
    for receipt in (judged.json["receipt"], pending.json["receipt"]):
        assert receipt_problem(receipt, _keys(client)) is None


def test_a_rejected_moves_problem_carries_its_receipt(client):
    game = create(client)
    answer = game.move(1, {"type": "draw"})  # not seat 1's turn
    assert answer.status_code == 422 and answer.json["verdict"] == "rejected"
    assert answer.json["receipt"]["seq"] == answer.json["version"]
    assert receipt_problem(answer.json["receipt"], _keys(client)) is None


def test_a_move_answered_again_for_its_key_signs_its_submission_or_verdict(client):
    game = create(client)
    headers = {**game.seat(0), "Idempotency-Key": "receipts-once"}
    first = client.post(game.url("/moves"), json={"move": {"type": "draw"}}, headers=headers)
    again = client.post(game.url("/moves"), json={"move": {"type": "draw"}}, headers=headers)
    assert first.status_code == 202 and again.json["seq"] == first.json["seq"]
    receipt = again.json["receipt"]
    # The verdict's when it landed meanwhile, else the submission's, read from the log.
    assert receipt["seq"] == again.json.get("version", first.json["seq"])
    assert receipt["hash"] == _entry(client, game, receipt["seq"])["hash"]
    assert receipt_problem(receipt, _keys(client)) is None


def test_the_head_and_the_replays_head_sign_the_last_entry(client):
    game = create(client)
    game.move(0, {"type": "draw"})
    version = client.get(game.url()).json["version"]
    head = client.get(game.url("/head")).json
    replay = client.get(game.url("/replay"), headers=game.seat(1)).json
    for receipt in (head, replay["head"]):
        assert receipt["seq"] == version == replay["entries"][-1]["seq"]
        assert receipt["hash"] == replay["entries"][-1]["hash"]
        assert receipt_problem(receipt, _keys(client)) is None


def test_the_express_lane_answers_with_a_receipt_too(client):
    game = create(client)
    game.move(0, {"type": "draw"})  # through Flask: the process learns the game
    move = client.get(game.url("/legal-moves"), headers=game.seat(0)).json["moves"][0]["move"]
    dispatched = []
    request_started.connect(lambda sender, **extra: dispatched.append(1), client.application)
    answer = client.post(game.url("/moves?wait=5"), data=json.dumps({"move": move}),
                         content_type="application/json", headers=game.seat(0))
    assert answer.status_code == 201 and not dispatched
    assert receipt_problem(answer.json["receipt"], _keys(client)) is None


def test_a_replay_signed_before_a_key_rotation_still_verifies_after_it(
        redis_url, workers, monkeypatch, tmp_path):
    monkeypatch.delenv("TABLELOG_SIGNING_KEY", raising=False)
    monkeypatch.setenv("TABLELOG_SIGNING_KEY_FILE", str(signing.create(tmp_path)))
    assert stat.S_IMODE((tmp_path / signing.KEY_FILE).stat().st_mode) == 0o600
    before = create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client()
    game = create(before)
    game.move(0, {"type": "draw"})
    signed_before = before.get(game.url("/replay"), headers=game.table).json
    signing.rotate(tmp_path)
    assert stat.S_IMODE((tmp_path / signing.KEY_FILE).stat().st_mode) == 0o600
    after = create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client()
    old, new = _keys(after)
    assert old["kid"] == signed_before["head"]["kid"] != new["kid"]
    assert old["until"] == new["from"] and new["until"] is None
    report = after.post("/v1/replays/verify", json=signed_before).json
    # A game still running: its seed is not shown, so the head and chain are what is checked.
    assert report["head_ok"] and report["hash_chain_ok"] and report["mismatches"] == []
    assert after.get(game.url("/head")).json["kid"] == new["kid"]


def test_without_a_key_the_app_does_not_start(redis_url, monkeypatch):
    monkeypatch.delenv("TABLELOG_SIGNING_KEY", raising=False)
    monkeypatch.delenv("TABLELOG_SIGNING_KEY_FILE", raising=False)
    with pytest.raises(signing.NoSigningKey, match="python -m service.signing create"):
        create_app({"TESTING": True, "REDIS_URL": redis_url})
