"""Games: create, list, summary, state, legal moves, score."""

from flask import Blueprint, request

from schemas import api
from service import handlers
from service.streams import ndjson
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
    found, following = handlers.events(store(), game(game_id), page["after"], page["limit"])
    if request.accept_mimetypes.best == "application/x-ndjson":
        return ndjson(found)
    return answer({"events": found, "next": following})
