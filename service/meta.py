"""Health, the titles a server plays (each game's spec), and game boards for clients to draw."""

from typing import Any

from flask import current_app, request
from redis.exceptions import RedisError

from engine.game import Game
from engine.games import GAMES
from schemas import api
from service.problems import RETRY_AFTER_S, Problem
from service.streams import FOLLOWERS, Followers, waiting_now
from service.web import Blueprint, answer, keyring, store
from store.health import memory, pending, persistence
from workers.queue import audit_queue, queue

bp = Blueprint("meta", __name__, description=__doc__)


@bp.get("/healthz")
@bp.response(200, api.Health)
@bp.alt_response(503, schema=api.Health, description="Redis is unreachable, or judging stalled")
def healthz():
    """Whether moves get judged: 503 when Redis does not answer, or when moves have waited
    longer than HEALTH_STALLED_S with no live worker to judge them; `degraded` while Redis is
    full (it refuses writes: no move can be taken, reads are answered)."""
    current = store()
    try:
        waiting = pending(current.redis)
        held = memory(current.redis)
        report = {
            "redis": "ok" if held.writable else "full",
            "memory": {"used": held.used, "maxmemory": held.most,
                       "used_of_max": held.used_of_most, "policy": held.policy},
            "persistence": persistence(current.redis),
            "workers": current.scheduler.live_workers(),
            "auditors": current.audits.live_auditors(),
            "queued": len(queue(current.queues)),
            "audits_queued": len(audit_queue(current.queues)),
            "pending": {"submissions": waiting.submissions, "games": waiting.games,
                        "oldest_s": waiting.oldest_s},
            "following": _following(current.hub.following(),
                                    current_app.extensions["audiences"].following(),
                                    request.environ.get(FOLLOWERS)),
        }
    except RedisError:
        # Which Redis, and why, is for the logs: the answer is public.
        return answer({"status": "down", "redis": "unreachable", "workers": 0}, 503,
                      {"Retry-After": RETRY_AFTER_S})
    late = (waiting.oldest_s or 0) > current_app.config["HEALTH_STALLED_S"]
    if late and not report["workers"]:
        return answer({"status": "stalled", **report}, 503, {"Retry-After": RETRY_AFTER_S})
    degraded = late or not held.writable or not report["workers"] or not report["auditors"]
    return answer({"status": "degraded" if degraded else "ok", **report})


def _following(waiting: dict[str, int], attending: dict[str, int],
               places: Followers | None) -> dict[str, Any]:
    """What this web process serves followers: the games followed and the requests waiting,
    on the hub or in a game's audience (which waits on the hub as one request); the follow
    streams it serves and the most it may (where it counts them)."""
    return {"games": len(waiting.keys() | attending.keys()),
            "waiting": waiting_now(waiting, attending),
            "streams": None if places is None else places.held,
            "most_streams": None if places is None else places.most}


@bp.get("/v1/keys")
@bp.response(200, api.Keys)
def keys():
    """The keys this server signs receipts with: the current one and every earlier one, each
    with the time it was in use (`until` null for the current), so that a receipt or a replay's
    head signed before a rotation still verifies. Keep a copy to verify offline."""
    return answer(keyring().document)


@bp.get("/v1/titles")
@bp.response(200, api.Titles)
def titles():
    """Every title this server plays, as its game declares it: seats, options with defaults
    and bounds, move shapes and the sentences its moves and facts read as. The pages and the
    command line offer and say the games from this, so they name no title themselves."""
    return answer(TITLES)


def declared(game: Game) -> dict[str, Any]:
    """A title as served: its spec, and which way its ranking runs."""
    return {**game.spec.to_json(), "lowest_wins": game.lowest_wins}


# The specs never change while the process runs: said once.
TITLES = {"titles": [declared(game) for game in GAMES.values()]}


@bp.get("/v1/boards/<name>")
@bp.response(200, description="the board as data (its game package's board.json)")
def board(name: str):
    """A game's board as data."""
    game = GAMES.get(name)
    drawn = game.board() if game else None
    if drawn is None:
        raise Problem(404, "no-such-board", f"{name!r} is not a game played on a board")
    return answer(drawn)
