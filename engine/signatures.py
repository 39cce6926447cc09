"""Signatures: the server's receipts and the moves seats sign, made and checked as pure values.

Two kinds of Ed25519 signature stand beside the hash chain (engine.log), which alone proves
only that a log is consistent with itself:

- A **receipt** `{"game", "seq", "hash", "at", "kid", "sig"}`: the server's signature, by its
  key `kid`, over the canonical JSON of the rest. Whoever keeps one can later show that the
  server once held a log whose entry `seq` hashed to `hash` (`extends`), and a replay's `head`
  is one for its last entry (`head_mismatches`).
- A **seat's signature** over `{"game", "seat", "expected_version", "move"}`: once a seat
  registered a public key (in its game's `game-created` entry, `public_keys`, or in a
  `seat-key-registered` entry), every submission for it carries one, stored in the entry so
  the chain covers it. Nobody without the seat's private key, the server included, can make
  a move that passes for the seat's own (`seat_mismatches`); the table's actions for no seat
  (a takeback, a claimed timeout and the conceded seat's turns then played, marked
  `conceded`) are not the seat's and carry no signature.

Keys and signatures travel as base64url without padding. Keys are `cryptography`'s (made, stored
and read by the service and the command line); signing and checking are libsodium's (PyNaCl),
quicker than OpenSSL's at both: a receipt is signed once per answer that appends, and a seat's
signature checked once per signed move (docs/benchmarks.md, 2026-11-28). Everything here is
a function of its arguments: the server's private key is handed in (`Signer`), and making a key
(randomness) or reading one (files, the environment) is for the service and the command line.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from nacl.bindings import crypto_sign, crypto_sign_open
from nacl.exceptions import BadSignatureError

from engine import log

ALG = "Ed25519"
RECEIPT_FIELDS = ("game", "seq", "hash", "at", "kid")
# What a kid is made of: the first bytes of the public key's SHA-256 (12 characters).
_KID_BYTES = 9
_SIGNATURE_BYTES = 64


class BadKey(ValueError):
    """A public key that is not 32 bytes of base64url."""


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: Any) -> bytes:
    if not isinstance(text, str):
        raise ValueError("not a string")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ValueError("not base64url") from None


def public_key(text: Any) -> bytes:
    """A public key's raw 32 bytes, from base64url; BadKey when it is not one."""
    try:
        raw = unb64(text)
    except ValueError as bad:
        raise BadKey(f"a public key is 32 bytes, base64url without padding: {bad}") from None
    if len(raw) != 32:
        raise BadKey(f"a public key is 32 bytes, base64url without padding (this is {len(raw)})")
    return raw


def kid_of(public_text: str) -> str:
    """A key's id, derived from the key itself: anyone can check that a kid names its key."""
    return b64(hashlib.sha256(unb64(public_text)).digest()[:_KID_BYTES])


def verified(public_text: Any, signature: Any, payload: bytes) -> bool:
    """Whether `signature` (base64url) is `public_text`'s over `payload`."""
    try:
        raw = unb64(signature)
        # libsodium reads the signature as the first 64 bytes of what it is given.
        if len(raw) != _SIGNATURE_BYTES:
            return False
        crypto_sign_open(raw + payload, public_key(public_text))
    except (BadKey, ValueError, BadSignatureError):
        return False
    return True


def move_payload(game: str, seat: int, expected_version: Any, move: Any) -> bytes:
    """The bytes a seat signs for a submission."""
    return log.canonical(
        {"game": game, "seat": seat, "expected_version": expected_version, "move": move})


def receipt_payload(receipt: Mapping[str, Any]) -> bytes:
    """The bytes a receipt's `sig` is over: the receipt without it."""
    return log.canonical({k: v for k, v in receipt.items() if k != "sig"})


class Signer:
    """The server's current key: it signs receipts."""

    def __init__(self, private: Ed25519PrivateKey):
        self.private = private
        public = private.public_key().public_bytes_raw()
        # libsodium's secret key: the seed, then the public key.
        self._secret = private.private_bytes_raw() + public
        self.public = b64(public)
        self.kid = kid_of(self.public)

    def receipt(self, game: str, seq: int, entry_hash: str, at: str) -> dict[str, Any]:
        receipt = {"game": game, "seq": seq, "hash": entry_hash, "at": at, "kid": self.kid}
        return {**receipt, "sig": b64(_signature(log.canonical(receipt), self._secret))}


def sign_move(private: Ed25519PrivateKey, game: str, seat: int, expected_version: int,
              move: Any) -> str:
    """A seat's signature of a submission (the command line's; a browser makes the same)."""
    return b64(private.sign(move_payload(game, seat, expected_version, move)))


def _signature(payload: bytes, secret: bytes) -> bytes:
    """Ed25519's 64-byte signature (libsodium answers it followed by the payload)."""
    return crypto_sign(payload, secret)[:_SIGNATURE_BYTES]


# -- checking a log's seat signatures ---------------------------------------------------------


def seat_keys(created: Mapping[str, Any]) -> dict[str, str]:
    """The seat keys a game was created with, by seat (a string)."""
    return dict(created.get("public_keys") or {})


def seat_mismatches(entries: Sequence[Mapping[str, Any]], game: str) -> list[dict[str, Any]]:
    """Every submission of a keyed seat that its key did not sign, and every registration that
    is not allowed, as audit mismatches (`what`: "signature").

    A move the service makes for a seat that conceded (`"conceded": true`) needs no signature,
    but only once that seat's concession is in the log: claiming a concession is no way round
    a key. A submission whose move is withheld from the reader (hidden while the game runs)
    cannot be checked; the chain says so already (`engine.audit`). One whose move is there is
    checked whatever its `hidden` says: a signature stripped and marked hidden is no excuse.
    """
    keys = seat_keys(entries[0]) if entries else {}
    conceded: set[int] = set()
    found: list[dict[str, Any]] = []
    for entry in entries:
        kind, seq = entry.get("type"), entry.get("seq")
        if kind == log.SEAT_KEY:
            seat = str(entry.get("seat"))
            if seat in keys:
                found.append(_mismatch(seq, f"seat {seat} registered a second key"))
            else:
                keys[seat] = entry.get("public_key")
        elif kind == log.ACCEPTED:
            conceded |= _conceded_by(entry)
        elif kind == log.SUBMITTED and str(entry.get("seat")) in keys:
            seat = entry["seat"]
            if entry.get("conceded") and seat in conceded:
                continue
            if entry.get("move") is None:  # withheld from the reader: nothing to check
                continue
            payload = move_payload(game, seat, entry.get("expected_version"), entry.get("move"))
            if "signature" not in entry:
                found.append(_mismatch(seq, f"seat {seat}'s move carries no signature, and the"
                                            " seat registered a key"))
            elif not verified(keys[str(seat)], entry["signature"], payload):
                found.append(_mismatch(seq, f"seat {seat}'s signature does not verify with"
                                            " its registered key"))
    return found


def _conceded_by(accepted: Mapping[str, Any]) -> set[int]:
    seats: set[int] = set()
    for fact in accepted.get("effects") or ():
        if fact.get("type") == "conceded":
            seats.add(fact.get("seat"))
        elif fact.get("type") == "timed-out":
            seats.update(fact.get("seats") or ())
    return seats


def _mismatch(seq: Any, detail: str) -> dict[str, Any]:
    return {"seq": seq, "what": "signature", "detail": detail}


# -- checking receipts against the published keys ---------------------------------------------


def receipt_problem(receipt: Any, keys: Sequence[Mapping[str, Any]]) -> str | None:
    """Why a receipt is not the server's signature, by one of `keys` (a `/v1/keys` document's
    list), made while that key was in use; None when it is."""
    if not isinstance(receipt, Mapping) or any(f not in receipt for f in (*RECEIPT_FIELDS,
                                                                         "sig")):
        return f"a receipt has the fields {', '.join((*RECEIPT_FIELDS, 'sig'))}"
    key = next((k for k in keys if k.get("kid") == receipt["kid"]), None)
    if key is None:
        return f"it is signed with key {receipt['kid']!r}, which is not among the published keys"
    if not verified(key.get("public_key"), receipt["sig"], receipt_payload(receipt)):
        return f"its signature does not verify with key {receipt['kid']!r}"
    # ISO 8601 in UTC to the millisecond, all in one form: compared as text.
    at, start, until = str(receipt["at"]), key.get("from"), key.get("until")
    if (start and at < start) or (until and at > until):
        return (f"it is dated {at}, outside the time key {receipt['kid']!r} was in use"
                f" ({start or 'always'} to {until or 'now'})")
    return None


def head_mismatches(head: Any, entries: Sequence[Mapping[str, Any]], game: str,
                    keys: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Whether a replay's `head` is the server's receipt for its last entry (`what`:
    "head")."""
    problem = receipt_problem(head, keys)
    if problem is None:
        last = entries[-1] if entries else {}
        if head["game"] != game:
            problem = f"it is the receipt of game {head['game']!r}, not {game!r}"
        elif head["seq"] != last.get("seq") or head["hash"] != last.get("hash"):
            problem = (f"it signs entry {head['seq']} with hash {head['hash']}, not the last"
                       f" entry ({last.get('seq')}, {last.get('hash')})")
    return [] if problem is None else [{"seq": _seq(head, len(entries)), "what": "head",
                                        "detail": problem}]


def _seq(receipt: Any, otherwise: int) -> int:
    """The entry a receipt names, or `otherwise` for one that names none."""
    seq = receipt.get("seq") if isinstance(receipt, Mapping) else None
    return seq if isinstance(seq, int) else otherwise


def extends(receipts: Sequence[Any], entries: Sequence[Mapping[str, Any]], game: str,
            keys: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Whether a log extends every receipt a player kept: the same hash at each receipt's seq.
    The mismatches (`what`: "receipt"), the earliest seq first: where the log stops agreeing
    with what the server once signed."""
    found = []
    for receipt in receipts:
        problem = receipt_problem(receipt, keys)
        seq = _seq(receipt, 0)
        if problem is None:
            if receipt["game"] != game:
                problem = f"the receipt is of game {receipt['game']!r}, not {game!r}"
            elif not 1 <= seq <= len(entries):
                problem = (f"the log has {len(entries)} entries: it does not reach entry {seq},"
                           " which the server signed")
            elif entries[seq - 1].get("hash") != receipt["hash"]:
                problem = (f"entry {seq} hashes to {entries[seq - 1].get('hash')}, but the"
                           f" server signed {receipt['hash']} for it at {receipt['at']}: the"
                           " log was rewritten at or before it")
        if problem is not None:
            found.append({"seq": seq, "what": "receipt", "detail": problem})
    return sorted(found, key=lambda m: m["seq"])
