"""Health, the OpenAPI document, and game boards for clients to draw."""

from flask import Blueprint
from redis.exceptions import RedisError
from rq import Worker

from engine.games import GAMES
from service.openapi import spec
from service.problems import Problem
from service.web import answer, store
from workers.queue import queue

bp = Blueprint("meta", __name__)


@bp.get("/healthz")
def healthz():
    client = store().redis
    try:
        client.ping()
        workers = Worker.count(connection=client)
        queued = len(queue(client))
    except RedisError as down:
        return answer({"status": "down", "redis": f"unreachable: {down}", "workers": 0}, 503)
    status = "ok" if workers else "degraded"
    return answer({"status": status, "redis": "ok", "workers": workers, "queued": queued})


@bp.get("/openapi.json")
def openapi():
    return answer(spec())


@bp.get("/v1/boards/<name>")
def board(name: str):
    game = GAMES.get(name)
    drawn = game.board() if game else None
    if drawn is None:
        raise Problem(404, "no-such-board", f"{name!r} is not a game played on a board")
    return answer(drawn)
