"""The seat tokens `tablelog new` was given, one file per game in the user's data folder.

A server shows a game's tokens only once, at creation; later commands about that game find
them here. Each file is the user's alone (0600), since a token lets anyone act for its seat.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import platformdirs


def folder() -> Path:
    return platformdirs.user_data_path("tablelog") / "tokens"


def path(game: str) -> Path:
    return folder() / f"{game}.json"


def save(created: dict[str, Any]) -> Path:
    """Keep the tokens of the game a `POST /v1/games` answer created."""
    kept = {
        "id": created["id"],
        "game": created["game"],
        "table_token": created["table_token"],
        "seats": [{k: seat[k] for k in ("seat", "name", "token")} for seat in created["seats"]],
    }
    folder().mkdir(parents=True, exist_ok=True, mode=0o700)
    target = path(created["id"])
    # Created with its final mode: a token never sits in a file others may read.
    handle = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(handle, "w") as file:
        json.dump(kept, file, indent=2)
    return target


def no_seat(game: str | None, seat: int) -> str:
    """Why no token of `seat` is kept for `game`, as one sentence."""
    try:
        seats = len(json.loads(path(game).read_text())["seats"]) if game else 0
    except (OSError, ValueError):
        seats = 0
    if seats:
        return f"Game {game} has no seat {seat}: its seats are 0 to {seats - 1}."
    return (f"No token of seat {seat} is kept here (`tablelog new` keeps those of the games it"
            f" creates): give it with --token or TABLELOG_TOKEN.")


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
