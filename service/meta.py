"""Health, and game boards for clients to draw."""

from redis.exceptions import RedisError
from rq import Worker

from engine.games import GAMES
from schemas import api
from service.problems import Problem
from service.web import Blueprint, answer, store
from workers.queue import queue

bp = Blueprint("meta", __name__, description=__doc__)


@bp.get("/healthz")
@bp.response(200, api.Health)
@bp.alt_response(503, schema=api.Health, description="Redis is unreachable")
def healthz():
    """Health of Redis and the workers."""
    client = store().redis
    try:
        client.ping()
        workers = Worker.count(connection=client)
        queued = len(queue(client))
    except RedisError as down:
        return answer({"status": "down", "redis": f"unreachable: {down}", "workers": 0}, 503)
    status = "ok" if workers else "degraded"
    return answer({"status": status, "redis": "ok", "workers": workers, "queued": queued})


@bp.get("/v1/boards/<name>")
@bp.response(200, description="the board as data (engine/boards)")
def board(name: str):
    """A game's board as data."""
    game = GAMES.get(name)
    drawn = game.board() if game else None
    if drawn is None:
        raise Problem(404, "no-such-board", f"{name!r} is not a game played on a board")
    return answer(drawn)
