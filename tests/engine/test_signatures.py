"""Seat signatures and the server's receipts, checked as pure values (engine.signatures)."""

import random

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine import audit, log, signatures
from engine.games import GAMES
from engine.playout import play

GAME_ID = "g-signed"
SEED = "signed"


def _key() -> tuple[Ed25519PrivateKey, str]:
    private = Ed25519PrivateKey.generate()
    return private, signatures.b64(private.public_key().public_bytes_raw())


def _signed_log(keyed: dict[int, Ed25519PrivateKey]) -> list[dict]:
    """A finished Coloretto game whose `keyed` seats registered keys at creation and signed
    every move, chained as the service chains it."""
    entries = play(GAMES["coloretto"], 3, SEED, random.Random(2), {"deals": 1}).entries
    bodies = [{k: v for k, v in e.items() if k != "hash"} for e in entries]
    bodies[0]["public_keys"] = {
        str(seat): signatures.b64(private.public_key().public_bytes_raw())
        for seat, private in keyed.items()}
    for body in bodies:
        if body["type"] == log.SUBMITTED and body["seat"] in keyed:
            expected = body["seq"] - 1
            signature = signatures.sign_move(keyed[body["seat"]], GAME_ID, body["seat"],
                                             expected, body["move"])
            body.update(log.submission(body["seat"], body["move"],
                                       signed=(expected, signature)))
    return log.chain(log.GENESIS, bodies)


def _rechained(entries: list[dict]) -> list[dict]:
    return log.chain(log.GENESIS, [{k: v for k, v in e.items() if k != "hash"} for e in entries])


def _first_of(entries: list[dict], seat: int) -> int:
    return next(i for i, e in enumerate(entries)
                if e["type"] == log.SUBMITTED and e["seat"] == seat)


def test_every_move_signed_by_its_seat_verifies():
    entries = _signed_log({0: _key()[0], 2: _key()[0]})
    assert signatures.seat_mismatches(entries, GAME_ID) == []
    report = audit.report(entries, SEED, [], game_id=GAME_ID)
    assert report["ok"], report["mismatches"]


def test_a_move_altered_and_rechained_fails_naming_the_signature():
    entries = _signed_log({0: _key()[0]})
    index = _first_of(entries, 0)
    drawn = entries[index]["move"]["type"] == "draw"
    entries[index] = {**entries[index],
                      "move": {"type": "take", "row": 0} if drawn else {"type": "draw"}}
    found = signatures.seat_mismatches(_rechained(entries), GAME_ID)
    assert [(m["seq"], m["what"]) for m in found] == [(index + 1, "signature")]
    assert "does not verify" in found[0]["detail"]


def test_a_move_inserted_for_a_keyed_seat_without_its_key_is_named():
    entries = _signed_log({1: _key()[0]})
    index = _first_of(entries, 1)
    forged, _ = _key()
    move = entries[index]["move"]
    entries[index] = {**entries[index], **log.submission(1, move, signed=(
        index, signatures.sign_move(forged, GAME_ID, 1, index, move)))}
    unsigned = _first_of(entries[index + 1:], 1) + index + 1
    entries[unsigned] = {k: v for k, v in entries[unsigned].items()
                         if k not in ("signature", "expected_version")}
    found = signatures.seat_mismatches(_rechained(entries), GAME_ID)
    assert [(m["seq"], m["what"]) for m in found] == [(index + 1, "signature"),
                                                        (unsigned + 1, "signature")]
    assert "no signature" in found[1]["detail"]


def test_signatures_are_bound_to_their_game():
    entries = _signed_log({0: _key()[0]})
    assert signatures.seat_mismatches(entries, "another-game")


def test_a_turn_played_for_a_keyed_seat_needs_its_concession_first():
    entries = _signed_log({0: _key()[0]})
    index = _first_of(entries, 0)
    entries[index] = {**log.submission(0, entries[index]["move"], conceded=True),
                      "seq": entries[index]["seq"]}
    found = signatures.seat_mismatches(_rechained(entries), GAME_ID)
    assert [m["seq"] for m in found] == [index + 1]


def test_a_key_registered_later_covers_the_moves_after_it_and_only_once():
    private, public = _key()
    entries = play(GAMES["coloretto"], 3, SEED, random.Random(2), {"deals": 1}).entries
    bodies = [{k: v for k, v in e.items() if k not in ("hash", "seq")} for e in entries]
    bodies.insert(1, log.seat_key(0, public))
    for seq, body in enumerate(bodies, start=1):
        body["seq"] = seq
        if body["type"] == log.SUBMITTED and body["seat"] == 0:
            body.update(log.submission(0, body["move"], signed=(
                seq - 1, signatures.sign_move(private, GAME_ID, 0, seq - 1, body["move"]))))
    assert signatures.seat_mismatches(log.chain(log.GENESIS, bodies), GAME_ID) == []
    bodies.insert(2, {**log.seat_key(0, _key()[1]), "seq": 0})
    for seq, body in enumerate(bodies, start=1):
        body["seq"] = seq
    found = signatures.seat_mismatches(log.chain(log.GENESIS, bodies), GAME_ID)
    assert found[0]["seq"] == 3 and "second key" in found[0]["detail"]


def test_a_bad_public_key_is_refused_with_a_reason():
    with pytest.raises(signatures.BadKey, match="32 bytes"):
        signatures.public_key("c2hvcnQ")


def test_a_signature_of_any_other_length_does_not_verify():
    """libsodium reads a signature as the first 64 bytes of what it is given: one cut short or
    made longer must not shift into the payload."""
    private, public = _key()
    payload = signatures.move_payload(GAME_ID, 0, 3, {"type": "draw"})
    good = private.sign(payload)
    assert signatures.verified(public, signatures.b64(good), payload)
    for bad in (good[:63], good + payload[:1], good[:63] + payload[:1], b""):
        assert not signatures.verified(public, signatures.b64(bad), payload[len(bad) - 64:])
        assert not signatures.verified(public, signatures.b64(bad), payload)


def test_libsodium_and_openssl_agree_on_every_signature():
    """Keys are `cryptography`'s, signing and checking libsodium's: each checks the other's."""
    private, public = _key()
    signer = signatures.Signer(private)
    receipt = signer.receipt("g", 3, "ab" * 32, "2026-11-28T10:00:00.000Z")
    private.public_key().verify(signatures.unb64(receipt["sig"]),
                                signatures.receipt_payload(receipt))
    payload = signatures.move_payload(GAME_ID, 1, 7, {"type": "take", "row": 0})
    assert signatures.verified(public, signatures.b64(private.sign(payload)), payload)


# -- receipts --------------------------------------------------------------------------------


def _published(signer: signatures.Signer, since=None, until=None) -> dict:
    return {"kid": signer.kid, "alg": "Ed25519", "public_key": signer.public, "from": since,
            "until": until}


def test_a_receipt_verifies_with_the_key_it_names():
    signer = signatures.Signer(Ed25519PrivateKey.generate())
    receipt = signer.receipt("g", 3, "ab" * 32, "2026-11-27T10:00:00.000Z")
    assert receipt["kid"] == signatures.kid_of(signer.public)
    assert signatures.receipt_problem(receipt, [_published(signer)]) is None
    assert "not among" in signatures.receipt_problem(receipt, [])
    assert "does not verify" in signatures.receipt_problem({**receipt, "seq": 4},
                                                           [_published(signer)])


def test_a_receipt_signed_before_a_rotation_verifies_after_it_but_not_one_dated_later():
    old = signatures.Signer(Ed25519PrivateKey.generate())
    new = signatures.Signer(Ed25519PrivateKey.generate())
    rotated = "2026-11-27T11:00:00.000Z"
    keys = [_published(old, "2026-11-01T00:00:00.000Z", rotated), _published(new, rotated)]
    before = old.receipt("g", 3, "ab" * 32, "2026-11-27T10:00:00.000Z")
    assert signatures.receipt_problem(before, keys) is None
    late = old.receipt("g", 3, "ab" * 32, "2026-11-27T12:00:00.000Z")
    assert "outside the time" in signatures.receipt_problem(late, keys)


def test_a_log_rewritten_after_a_receipt_names_the_seq_the_receipt_signed():
    signer = signatures.Signer(Ed25519PrivateKey.generate())
    entries = _signed_log({})
    kept = [signer.receipt(GAME_ID, seq, entries[seq - 1]["hash"], "2026-11-27T10:00:00.000Z")
            for seq in (2, 9, 14)]
    keys = [_published(signer)]
    assert signatures.extends(kept, entries, GAME_ID, keys) == []
    rewritten = [dict(e) for e in entries]
    rewritten[8]["at"] = "2026-11-27T10:00:01.000Z"
    found = signatures.extends(kept, _rechained(rewritten), GAME_ID, keys)
    assert [(m["seq"], m["what"]) for m in found] == [(9, "receipt"), (14, "receipt")]
    assert "rewritten" in found[0]["detail"]
    assert signatures.extends(kept, entries[:10], GAME_ID, keys)[0]["seq"] == 14


def test_a_replays_head_must_sign_its_last_entry():
    signer = signatures.Signer(Ed25519PrivateKey.generate())
    entries = _signed_log({})
    keys = [_published(signer)]
    head = signer.receipt(GAME_ID, len(entries), entries[-1]["hash"], "2026-11-27T10:00:00.000Z")
    assert signatures.head_mismatches(head, entries, GAME_ID, keys) == []
    assert signatures.head_mismatches(head, entries[:-1], GAME_ID, keys)[0]["what"] == "head"
    assert signatures.head_mismatches(head, entries, "elsewhere", keys)
