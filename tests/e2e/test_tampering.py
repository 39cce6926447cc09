"""An attacker with the Redis data: whoever runs the server rewrites a game's log in Redis itself,
recomputing every hash so that the chain holds, and the server then serves and signs the
rewritten log. A seat's signatures and the receipts the players kept still tell."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import orjson
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine import log
from engine.audit import verify_replay
from engine.signatures import b64, sign_move
from store import keys
from tests.api import create
from tests.conftest import ROOT


@pytest.fixture
def played(client):
    """A game whose seat 0 signs its moves, a dozen moves in, and every receipt its players
    were given."""
    private = Ed25519PrivateKey.generate()
    game = create(client, public_keys={"0": b64(private.public_key().public_bytes_raw())})
    receipts, rnd = [game.created["receipt"]], random.Random(7)
    for _ in range(12):
        legal = client.get(game.url("/legal-moves"), headers=game.table).json
        choice = rnd.choice([m for m in legal["moves"] if m["move"]["type"] in ("draw", "take",
                                                                                   "place")])
        seat, move = choice["seat"], choice["move"]
        signed = {} if seat != 0 else {
            "expected_version": legal["version"],
            "signature": sign_move(private, game.id, 0, legal["version"], move)}
        answer = game.move(seat, move, **signed)
        assert answer.status_code == 201, answer.json
        receipts.append(answer.json["receipt"])
    return game, receipts


def _rewrite(app, game_id: str, change) -> None:
    """The log in Redis replaced by `change(entries)`, chained afresh, and the game's meta
    moved to its new head: what the operator of the Redis could do."""
    store = app.extensions["store"]
    k = keys.game(game_id)
    bodies = [{k: v for k, v in e.items() if k != "hash"} for e in store.log.entries(game_id)]
    entries = log.chain(log.GENESIS, change(bodies))
    pipe = store.redis.pipeline(transaction=True)
    pipe.delete(k.log)
    for entry in entries:
        pipe.xadd(k.log, {"e": orjson.dumps(entry, option=orjson.OPT_SORT_KEYS)},
                  id=f"{entry['seq']}-0")
    pipe.hset(k.meta, mapping={"version": len(entries), "hash": entries[-1]["hash"]})
    pipe.execute()


def _first_signed(bodies) -> int:
    return next(i for i, b in enumerate(bodies) if b["type"] == log.SUBMITTED and b["seat"] == 0)


def _verify(tmp_path, app, replay, receipts) -> subprocess.CompletedProcess:
    """`tablelog verify --keys --receipt` in a process of its own, with no server."""
    files = {"replay": replay, "keys": app.extensions["keyring"].document, "receipts": receipts}
    for name, content in files.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(content))
    return subprocess.run(
        [sys.executable, "-m", "cli", "verify", str(tmp_path / "replay.json"),
         "--keys", str(tmp_path / "keys.json"), "--receipt", str(tmp_path / "receipts.json")],
        cwd=ROOT, env={"PATH": "/usr/bin:/bin", "COLUMNS": "200"}, capture_output=True,
        text=True, timeout=60)


def test_the_untouched_game_verifies_with_its_receipts(app, client, played, tmp_path):
    game, receipts = played
    replay = client.get(game.url("/replay"), headers=game.table).json
    result = _verify(tmp_path, app, replay, receipts)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "seats' signatures: holds; head signed by the server: holds; receipts kept: holds" \
        in result.stdout


def test_altering_a_signed_move_and_rechaining_fails_naming_the_signature(app, client, played):
    game, _ = played

    def altered(bodies):
        index = _first_signed(bodies)
        bodies[index]["move"] = {"type": "take", "row": 9}
        return bodies

    _rewrite(app, game.id, altered)
    replay = client.get(game.url("/replay"), headers=game.table).json
    report = verify_replay(replay, app.extensions["keyring"].published)
    assert report["hash_chain_ok"] and report["head_ok"]  # the chain and the head hold...
    signature = [m for m in report["mismatches"] if m["what"] == "signature"]
    assert not report["ok"] and not report["signatures_ok"]  # ...the seat's signature does not
    assert signature[0]["seq"] == _first_signed(replay["entries"]) + 1


def test_inserting_a_move_for_a_signed_seat_fails_naming_the_signature(app, client, played):
    game, _ = played
    inserted = {}

    def with_one_more(bodies):
        forged = Ed25519PrivateKey.generate()
        move, seq = {"type": "draw"}, len(bodies) + 1
        inserted["seq"] = seq
        return [*bodies, {**log.submission(0, move, signed=(
            seq - 1, sign_move(forged, game.id, 0, seq - 1, move))), "seq": seq,
            "at": bodies[-1]["at"]}]

    _rewrite(app, game.id, with_one_more)
    report = client.post("/v1/replays/verify", json=client.get(
        game.url("/replay"), headers=game.table).json).json
    assert report["hash_chain_ok"] and report["head_ok"] and not report["ok"]
    assert [(m["seq"], m["what"]) for m in report["mismatches"]] == [
        (inserted["seq"], "signature")]


def test_rewriting_history_after_a_receipt_fails_verify_receipt_naming_the_seq(
        app, client, played, tmp_path):
    game, receipts = played
    rewritten = 5

    def earlier_time(bodies):
        bodies[rewritten - 1]["at"] = "2020-01-01T00:00:00.000Z"
        return bodies

    _rewrite(app, game.id, earlier_time)
    replay = client.get(game.url("/replay"), headers=game.table).json
    assert verify_replay(replay, app.extensions["keyring"].published)["ok"]  # alone: it holds
    result = _verify(tmp_path, app, replay, receipts)
    assert result.returncode == 1
    first = min(r["seq"] for r in receipts if r["seq"] >= rewritten)
    assert f"It does not verify: entry {first} breaks (receipt)." in result.stdout
    assert f"entry {first}: receipt: entry {first} hashes to" in result.stdout
