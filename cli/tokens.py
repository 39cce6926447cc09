"""The seat tokens `tablelog new` was given, one file per game in the user's data folder, with
the private keys its seats sign their moves with, and the receipts the server gave.

A server shows a game's tokens only once, at creation; later commands about that game find
them here. Each file is the user's alone (0600), since a token lets anyone act for its seat and
a seat's private key (its raw 32 bytes, base64url, beside the seat's token) lets anyone sign
for it. Every receipt an answer carried is kept too (`receipts/GAME.json`, a list): it is what
`tablelog verify --receipt` checks a later replay against.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import platformdirs
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.signatures import b64, unb64


def folder() -> Path:
    return platformdirs.user_data_path("tablelog") / "tokens"


def path(game: str) -> Path:
    return folder() / f"{game}.json"


def save(created: dict[str, Any], private_keys: dict[int, str] | None = None) -> Path:
    """Keep the tokens of the game a `POST /v1/games` answer created, and the private keys of
    the seats it keyed."""
    kept = {
        "id": created["id"],
        "game": created["game"],
        "table_token": created["table_token"],
        "seats": [{k: seat[k] for k in ("seat", "name", "token")} for seat in created["seats"]],
    }
    for seat in kept["seats"]:
        if seat["seat"] in (private_keys or {}):
            seat["private_key"] = private_keys[seat["seat"]]
    if "receipt" in created:
        keep_receipt(created["id"], created["receipt"])
    return _private(path(created["id"]), kept)


def _private(target: Path, kept: Any) -> Path:
    """`kept` written to `target`, a file the user's alone."""
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    # Written under another name with its final mode, then renamed: a token or a key never
    # sits in a file others may read, and a file rewritten is never found half written.
    fresh = target.with_name(f".{target.name}.new")
    handle = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(handle, "w") as file:
        json.dump(kept, file, indent=2)
    fresh.replace(target)
    return target


def new_key() -> tuple[str, str]:
    """A seat's new key pair: its private key and its public key, as kept and as sent."""
    private = Ed25519PrivateKey.generate()
    return b64(private.private_bytes_raw()), b64(private.public_key().public_bytes_raw())


def keep_key(game: str, seat: int, private_key: str) -> Path:
    """Keep a seat's private key beside its token."""
    kept = json.loads(path(game).read_text())
    for held in kept["seats"]:
        if held["seat"] == seat:
            held["private_key"] = private_key
    return _private(path(game), kept)


def private_key(game: str, seat: int) -> Ed25519PrivateKey | None:
    """The private key kept for `seat` of `game`, None when there is none."""
    try:
        kept = json.loads(path(game).read_text())
    except (OSError, ValueError):
        return None
    text = next((s.get("private_key") for s in kept["seats"] if s["seat"] == seat), None)
    return None if text is None else Ed25519PrivateKey.from_private_bytes(unb64(text))


def receipts_path(game: str) -> Path:
    return folder().parent / "receipts" / f"{game}.json"


def keep_receipt(game: str, receipt: dict[str, Any]) -> None:
    """Add a receipt the server gave to those kept for `game`."""
    target = receipts_path(game)
    try:
        kept = json.loads(target.read_text())
    except (OSError, ValueError):
        kept = []
    _private(target, [*kept, receipt])


def not_a_seat(game: str | None, seat: int, seats: int) -> str:
    """That `game`, of `seats` seats, has no seat `seat`, as one sentence."""
    return f"Game {game} has no seat {seat}: its seats are 0 to {seats - 1}."


def no_seat(game: str | None, seat: int) -> str:
    """Why no token of `seat` is kept for `game`, as one sentence."""
    try:
        seats = len(json.loads(path(game).read_text())["seats"]) if game else 0
    except (OSError, ValueError):
        seats = 0
    if seats:
        return not_a_seat(game, seat, seats)
    return (f"No token of seat {seat} is kept here (`tablelog new` keeps those of the games it"
            f" creates): give it with --token or TABLELOG_TOKEN.")


def seat_of(game: str, token: str | None) -> int | None:
    """The seat whose token `token` is, among those kept for `game`."""
    try:
        kept = json.loads(path(game).read_text())
    except (OSError, ValueError):
        return None
    return next((s["seat"] for s in kept["seats"] if s["token"] == token), None)


def token(game: str, seat: int | None = None) -> str | None:
    """The saved token for `seat` of `game`, the table's when no seat is named, None when
    nothing was saved."""
    try:
        kept = json.loads(path(game).read_text())
    except (OSError, ValueError):
        return None
    if seat is None:
        return kept["table_token"]
    return next((s["token"] for s in kept["seats"] if s["seat"] == seat), None)


def event_path(event: str) -> Path:
    return folder() / "events" / f"{event}.json"


def save_event(created: dict[str, Any]) -> Path:
    """Keep the organiser's token of the event a `POST /v1/events` answer created."""
    return _private(event_path(created["id"]), {"id": created["id"],
                                                "organiser_token": created["organiser_token"]})


def event_token(event: str) -> str | None:
    """The organiser's token kept for `event`, None when nothing was kept."""
    try:
        return json.loads(event_path(event).read_text())["organiser_token"]
    except (OSError, ValueError, KeyError):
        return None
