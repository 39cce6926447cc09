"""Seats that sign their moves on the command line: `new --sign` and `key` make a seat's key
pair and keep its private key beside its token, `play` signs the seat's moves, and every
receipt the server gives is kept."""

from __future__ import annotations

import json
import random
import stat

import requests

from cli import tokens
from tests.cli.test_playing import play_to_end


def _mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_game_with_signing_seats_plays_to_the_end_and_verifies(tablelog, web, tmp_path):
    created = tablelog.json("new", "coloretto", "ann", "bob", "cid", "--option", "deals=1",
                            "--sign", "0", "--seed", "cli-signed")
    game = created["id"]
    kept = json.loads(tokens.path(game).read_text())
    assert [("private_key" in s) for s in kept["seats"]] == [True, False, False]
    assert _mode(tokens.path(game)) == 0o600
    registered = tablelog("key", game, "--seat", "2")
    assert registered.exit_code == 0, registered.output
    assert "Seat 2 signs its moves from now on" in registered.stdout
    again = tablelog("key", game, "--seat", "2")
    assert again.exit_code != 0 and "seat-key-registered" in again.output
    play_to_end(tablelog, game, random.Random("signed"))
    replay = tmp_path / "replay.json"
    assert tablelog("replay", game, "-o", str(replay)).exit_code == 0
    submitted = [e for e in json.loads(replay.read_text())["entries"]
                 if e["type"] == "move-submitted"]
    assert {e["seat"] for e in submitted if "signature" in e} == {0, 2}
    assert all("signature" in e for e in submitted if e["seat"] in (0, 2))
    receipts = json.loads(tokens.receipts_path(game).read_text())
    assert receipts[0]["seq"] == 1 and len(receipts) > len(submitted)
    assert _mode(tokens.receipts_path(game)) == 0o600
    keys = tmp_path / "keys.json"
    keys.write_text(requests.get(f"{web}/v1/keys", timeout=10).text)
    kept_receipts = str(tokens.receipts_path(game))
    for asked in (["--keys", str(keys)], ["--url", web]):
        verified = tablelog("verify", str(replay), *asked, "--receipt", kept_receipts)
        assert verified.exit_code == 0, verified.output
        assert ("seats' signatures: holds; head signed by the server: holds; receipts kept:"
                " holds") in verified.stdout


def test_checking_a_receipt_needs_the_servers_keys(offline, tmp_path):
    replay, receipt = tmp_path / "replay.json", tmp_path / "receipt.json"
    replay.write_text("{}")
    receipt.write_text("{}")
    result = offline("verify", str(replay), "--receipt", str(receipt))
    assert result.exit_code == 2
    assert "Checking a receipt needs the server's keys: give --keys or --url." in result.output
