"""Players by their handles: each title's rating and its history, every change citing the
game that made it (`engine.ratings`)."""

from __future__ import annotations

import threading
from typing import Any

from flask import current_app

from engine.games import GAMES
from engine.ratings import Ladder
from schemas import api
from service.problems import Problem
from service.web import Blueprint, answer, store
from store import Store

bp = Blueprint("players", __name__, url_prefix="/v1/players", description=__doc__)


@bp.get("/<handle>")
@bp.response(200, api.Player)
def player(handle: str):
    """A player's rated games, in the order their ends were recorded, and per title their
    rating (`mu`, `sigma`, `display` = mu - 3 sigma) and its history: each change names the
    game, its final entry (`seq`), the seat, its place and the rated opponents. 404
    `no-such-player` for a handle no rated game names."""
    ladders: Ladders = current_app.extensions.setdefault("ladders", Ladders())
    found = ladders.of(store(), handle)
    if not found["ratings"]:
        raise Problem(404, "no-such-player", f"no rated game names the handle {handle!r}")
    return answer(found)


class Ladders:
    """Each title's ratings, folded by this process from the rated games listed so far and
    brought up to date on each read (`store.ratings`): the games listed since are folded on."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ladders = {title: (Ladder(), "0") for title in GAMES}

    def of(self, current: Store, handle: str) -> dict[str, Any]:
        ratings, history = {}, []
        with self._lock:
            for title in GAMES:
                ladder = self._caught_up(current, title)
                if handle in ladder.ratings:
                    changes = ladder.history[handle]
                    ratings[title] = {**ladder.ratings[handle].to_json(), "games": len(changes)}
                    history += [c.to_json() for c in changes]
        return {"handle": handle, "ratings": ratings, "history": history}

    def _caught_up(self, current: Store, title: str) -> Ladder:
        ladder, after = self._ladders[title]
        games, after = current.ratings.since(title, after)
        ladder.fold(games)
        self._ladders[title] = ladder, after
        return ladder
