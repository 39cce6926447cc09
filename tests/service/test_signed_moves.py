"""Moves signed by their players through the API: seats keyed at creation or by their own token,
their unsigned or wrongly signed moves refused with nothing appended, and the table token no
longer acting for them."""

import random

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.audit import verify_replay
from engine.signatures import b64, sign_move
from tests.api import create

PLAYERS = ("ann", "bob", "cid", "dee")


def _key():
    private = Ed25519PrivateKey.generate()
    return private, b64(private.public_key().public_bytes_raw())


def _signed(game, seat, private, move, version, **body):
    return game.move(seat, move, expected_version=version,
                     signature=sign_move(private, game.id, seat, version, move), **body)


def _version(client, game):
    return client.get(game.url(), headers=game.table).json["version"]


@pytest.fixture
def keyed(client):
    """A game of four whose seat 0 is keyed at creation and seat 2 by its own token."""
    first, second = _key(), _key()
    game = create(client, "coloretto", PLAYERS, options={"deals": 1},
                  public_keys={"0": first[1]})
    registered = client.put(game.url("/seats/2/key"), json={"public_key": second[1]},
                            headers=game.seat(2))
    assert registered.status_code == 201, registered.json
    assert registered.json["receipt"]["seq"] == 2
    return game, {0: first[0], 2: second[0]}


def test_two_signed_seats_and_two_unsigned_play_to_the_end(client, app, keyed):
    game, privates = keyed
    rnd = random.Random(30)
    for _ in range(2000):
        legal = client.get(game.url("/legal-moves"), headers=game.table).json
        if not legal["moves"]:
            break
        choice = rnd.choice(legal["moves"])
        seat, move = choice["seat"], choice["move"]
        if seat in privates:
            answer = _signed(game, seat, privates[seat], move, legal["version"])
        else:
            answer = game.move(seat, move)
        assert answer.status_code == 201, answer.json
        assert answer.json["receipt"]["seq"] == answer.json["version"]
    assert client.get(game.url()).json["status"] == "finished"
    replay = client.get(game.url("/replay")).json
    signed = [e for e in replay["entries"] if e["type"] == "move-submitted" and "signature" in e]
    assert {e["seat"] for e in signed} == {0, 2}
    report = verify_replay(replay, app.extensions["keyring"].published)
    assert report["ok"] and report["signatures_ok"] and report["head_ok"], report["mismatches"]
    checked = client.post("/v1/replays/verify", json=replay).json
    assert checked["ok"] and checked["signatures_ok"] and checked["head_ok"]


@pytest.mark.parametrize("refused", ["unsigned", "wrong key", "other move", "no version"])
def test_a_keyed_seats_move_unsigned_or_wrongly_signed_is_422_and_appends_nothing(
        client, keyed, refused):
    game, privates = keyed
    version = _version(client, game)
    move = next(m["move"] for m in client.get(game.url("/legal-moves"),
                                              headers=game.seat(0)).json["moves"])
    if refused == "unsigned":
        answer, code = game.move(0, move, expected_version=version), "signature-required"
    elif refused == "wrong key":
        answer, code = _signed(game, 0, _key()[0], move, version), "bad-signature"
    elif refused == "other move":
        signature = sign_move(privates[0], game.id, 0, version, {"type": "draw", "x": 1})
        answer = game.move(0, move, expected_version=version, signature=signature)
        code = "bad-signature"
    else:
        signature = sign_move(privates[0], game.id, 0, version, move)
        answer, code = game.move(0, move, signature=signature), "expected-version-required"
    assert answer.status_code == 422, answer.json
    assert answer.json["code"] == code and "seat 0" in answer.json["detail"]
    assert _version(client, game) == version


def test_the_table_token_cannot_act_for_a_keyed_seat_not_even_to_concede(client, keyed):
    game, _ = keyed
    version = _version(client, game)
    move = next(m["move"] for m in client.get(game.url("/legal-moves"),
                                              headers=game.seat(0)).json["moves"])
    for body in ({"seat": 0, "move": move}, {"seat": 2, "move": {"type": "concede"}}):
        answer = client.post(game.url("/moves?wait=5"), json=body, headers=game.table)
        assert answer.status_code == 403, answer.json
        assert answer.json["code"] == "seat-signs-its-moves"
    assert _version(client, game) == version
    answer = client.post(game.url("/moves?wait=5"), json={"seat": 1, "move": {"type": "concede"}},
                         headers=game.table)
    assert answer.status_code == 201, answer.json


def test_a_seat_registers_its_key_once_and_only_with_its_own_token(client, keyed):
    game, _ = keyed
    again = client.put(game.url("/seats/2/key"), json={"public_key": _key()[1]},
                       headers=game.seat(2))
    assert again.status_code == 409 and again.json["code"] == "seat-key-registered"
    for headers in (game.table, game.seat(3)):
        answer = client.put(game.url("/seats/1/key"), json={"public_key": _key()[1]},
                            headers=headers)
        assert answer.status_code == 403 and answer.json["code"] == "not-your-seat"
    bad = client.put(game.url("/seats/1/key"), json={"public_key": "not-a-key"},
                     headers=game.seat(1))
    assert bad.status_code == 400
    entries = client.get(game.url("/events"), headers=game.table).json["events"]
    assert [e["type"] for e in entries[:2]] == ["game-created", "seat-key-registered"]
    assert list(entries[0]["public_keys"]) == ["0"] and entries[1]["seat"] == 2


def test_keys_given_at_creation_are_checked(client):
    answer = client.post("/v1/games", json={"game": "coloretto", "players": list(PLAYERS[:3]),
                                            "public_keys": {"5": _key()[1]}})
    assert answer.status_code == 400 and answer.json["code"] == "no-such-seat"
    answer = client.post("/v1/games", json={"game": "coloretto", "players": list(PLAYERS[:3]),
                                            "public_keys": {"0": "A" * 43 + "x"}})
    assert answer.status_code == 400


def test_what_a_seats_signature_leaves_to_the_table_is_what_the_readme_says(client, app, keyed):
    """The table may still take back a keyed seat's signed move and abandon the game (and
    claim its timeout): actions of the table's own, for no seat, which the README names as
    what a signature does not stop, and which a verifier tells apart from the seat's moves."""
    from tests.conftest import ROOT

    game, privates = keyed
    move = next(m["move"] for m in client.get(game.url("/legal-moves"),
                                              headers=game.seat(0)).json["moves"])
    signed = _signed(game, 0, privates[0], move, _version(client, game))
    assert signed.status_code == 201, signed.json
    back = client.post(game.url("/moves?wait=5"), json={"move": {"type": "takeback", "to": 1}},
                       headers=game.table)
    assert back.status_code == 201 and back.json["effects"][0]["type"] == "taken-back", back.json
    ended = client.post(game.url("/moves?wait=5"), json={"move": {"type": "abandon"}},
                        headers=game.table)
    assert ended.status_code == 201, ended.json
    replay = client.get(game.url("/replay")).json
    tables = [e for e in replay["entries"] if e["type"] == "move-submitted"
              and e["seat"] == "table"]
    assert [e["move"]["type"] for e in tables] == ["takeback", "abandon"]
    report = verify_replay(replay, app.extensions["keyring"].published)
    assert report["ok"] and report["signatures_ok"], report["mismatches"]
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "can make a move for the seat." not in readme
    for left_to_the_table in ("take back the seat's signed moves", "abandon the game",
                              "claim the seat's timeout"):
        assert left_to_the_table in readme
