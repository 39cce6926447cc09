"""Games: create, list, summary, state, legal moves, score, the log and the views of a range."""

from flask import Blueprint, current_app, request

from schemas import api
from service import handlers, streams, timeline
from service.problems import Problem
from service.web import answer, body, game, query, store

bp = Blueprint("games", __name__, url_prefix="/v1/games")


@bp.post("")
def create():
    created = handlers.create_game(store(), body(api.CreateGame))
    return answer(created, 201, {"Location": f"/v1/games/{created['id']}"})


@bp.get("")
def index():
    return answer(handlers.list_games(store(), query(api.GamesQuery)))


@bp.get("/<game_id>")
def summary(game_id: str):
    return answer(handlers.summary(store(), game(game_id)))


@bp.get("/<game_id>/state")
def state(game_id: str):
    at = query(api.At).get("at")
    return answer(handlers.state(store(), game(game_id), at))


@bp.get("/<game_id>/views")
def views(game_id: str):
    return answer(timeline.stored(store(), game(game_id), query(api.ViewsQuery)))


@bp.get("/<game_id>/legal-moves")
def legal_moves(game_id: str):
    return answer(handlers.legal_moves(store(), game(game_id)))


@bp.get("/<game_id>/score")
def score(game_id: str):
    return answer(handlers.score(store(), game(game_id), query(api.At).get("at")))


@bp.get("/<game_id>/replay")
def replay(game_id: str):
    document = handlers.replay_document(store(), game(game_id))
    return answer(
        document, headers={"Content-Disposition": f'attachment; filename="tablelog-{game_id}.json"'}
    )


@bp.get("/<game_id>/events")
def events(game_id: str):
    page = query(api.EventsQuery)
    seen = game(game_id)
    after = streams.resume_point(page.get("after"), request.headers.get("Last-Event-ID"))
    form = request.accept_mimetypes.best
    if page["follow"]:
        if form not in (streams.NDJSON, streams.SSE):
            raise Problem(
                406,
                "not-acceptable",
                f"following streams the log: accept {streams.SSE} or {streams.NDJSON}",
            )
        entries = streams.following(store(), seen, after, current_app.config["FOLLOW_SECONDS"])
        return (streams.ndjson if form == streams.NDJSON else streams.server_sent)(entries)
    found, following = handlers.events(store(), seen, after, page["limit"])
    if form == streams.NDJSON:
        return streams.ndjson(found)
    return answer({"events": found, "next": following})
