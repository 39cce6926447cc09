"""Games: create, list, summary, state, legal moves, score, the log and the views of a range."""

from http import HTTPStatus

from flask import current_app, request

from schemas import api
from service import handlers, imports, streams, timeline
from service.auth import CallersGame
from service.headers import NO_STORE
from service.openapi import game_links
from service.problems import PROBLEM_JSON
from service.web import (
    Blueprint,
    about_game,
    answer,
    by_operator,
    keyring,
    remembered_games,
    store,
    with_receipt,
)

bp = Blueprint("games", __name__, url_prefix="/v1/games", description=__doc__)


@bp.post("")
@bp.arguments(api.CreateGame)
@bp.response(201, api.Created)
@bp.doc(responses={201: game_links()})
def create(body: dict):
    """Create a game.

    Keep the seat tokens and the table token: they are shown only once. `public_keys` gives
    seats' Ed25519 keys: those seats' moves must then be signed (docs/api.md, Receipts).
    """
    created = handlers.create_game(store(), keyring(), body)
    return answer(created, 201, {"Location": f"/v1/games/{created['id']}", **NO_STORE})


@bp.get("")
@bp.arguments(api.GamesQuery, location="query")
@bp.response(200, api.GameList)
def index(query: dict):
    """List games, oldest or newest first."""
    return answer(handlers.list_games(store(), query))


@bp.get("/<game_id>")
@about_game
@bp.response(200, api.Summary)
def summary(game: CallersGame):
    """Summary of a game."""
    return answer(handlers.summary(store(), game))


@bp.get("/<game_id>/state")
@about_game
@bp.arguments(api.At, location="query")
@bp.response(200, api.State)
def state(game: CallersGame, query: dict):
    """The state as the caller may see it."""
    return answer(handlers.state(store(), game, query.get("at")))


@bp.get("/<game_id>/views")
@about_game
@bp.arguments(api.ViewsQuery, location="query")
@bp.response(200, api.Views)
def views(game: CallersGame, query: dict):
    """The caller's view at every step of a range of the log."""
    return answer(timeline.stored(store(), game, query))


@bp.get("/<game_id>/legal-moves")
@about_game
@bp.response(200, api.LegalMoves)
def legal_moves(game: CallersGame):
    """Legal moves of the caller's seat(s)."""
    return answer(handlers.legal_moves(store(), game))


@bp.get("/<game_id>/score")
@about_game
@bp.arguments(api.At, location="query")
@bp.response(200, api.ScoreBreakdown)
def score(game: CallersGame, query: dict):
    """The score breakdown with provenance (provisional until the game is finished)."""
    return answer(handlers.score(store(), game, query.get("at")))


@bp.get("/<game_id>/replay")
@about_game
@bp.response(200, api.ReplayDocument)
def replay(game: CallersGame):
    """The replay document, as a download (redacted for the caller while the game runs)."""
    document = handlers.replay_document(store(), keyring(), game)
    return answer(
        document, headers={"Content-Disposition": f'attachment; filename="tablelog-{game.id}.json"'}
    )


@bp.get("/<game_id>/head")
@about_game
@bp.response(200, api.Receipt)
def head(game: CallersGame):
    """The server's signed receipt for the log's last entry, as every answer that appends
    carries one."""
    return answer(handlers.head(keyring(), game), headers=NO_STORE)


@bp.put("/<game_id>/seats/<int:seat>/key")
@about_game
@bp.arguments(api.SeatKey)
@bp.response(201, api.SeatKeyRegistered)
@bp.alt_response(403, schema=api.Problem, content_type=PROBLEM_JSON,
                 description="not this seat's own token (`not-your-seat`)")
@bp.alt_response(409, schema=api.Problem, content_type=PROBLEM_JSON, description=(
    "the seat registered a key already (`seat-key-registered`), or the game is over"
    " (`game-finished`)"))
def register_key(game: CallersGame, body: dict, seat: int):
    """Register the seat's Ed25519 public key, once, with the seat's own token.

    From then on every move for the seat must carry its `signature` and `expected_version`,
    and the table token can no longer act for it. The key is written to the log as a
    `seat-key-registered` entry, so a replay proves which key each move was checked against.
    """
    registered = handlers.register_key(store(), keyring(), game, seat,
                                       body["public_key"], remembered_games())
    return answer(registered, 201)


@bp.put("/<game_id>/replay")
@by_operator
@bp.arguments(api.ReplayDocument, largest=api.LARGEST_REPLAY)
@bp.response(201, api.Imported)
@bp.alt_response(200, schema=api.Imported, description="already here: nothing written",
                 success=True)
@bp.alt_response(409, schema=api.Problem, content_type=PROBLEM_JSON, description=(
    "the id holds another game here (`game-exists`), or this game is here already under"
    " another id (`game-copied`: `existing` names it)"))
@bp.alt_response(422, schema=api.Problem, content_type=PROBLEM_JSON, description=(
    "the replay does not verify (`replay-not-verified`: `seq` is the first entry that does"
    " not, `mismatches` all of them), the game is not finished (`game-not-finished`), or it was"
    " played under rules this server does not hold (`unknown-rules-version`); nothing is"
    " written"))
def import_replay(document: dict, game_id: str):
    """Import a finished game's replay document from another server (the operator's token).

    It is stored under its id, which the document must name (400 `import-needs-id`,
    `id-mismatch`), with its entries and hashes unchanged once it verifies in full (hash chain,
    seed commitment, every verdict and the score re-judged); else 422 naming the first entry
    that does not. The same game again is a 200 that writes nothing; an id held by another
    game is a 409 `game-exists`, and the same game under another id a 409 `game-copied`.
    """
    status, imported = imports.import_game(store(), game_id, document)
    headers = {"Location": f"/v1/games/{game_id}"} if status == 201 else None
    return answer(with_receipt(game_id, imported), status, headers)


@bp.get("/<game_id>/events")
@about_game
@bp.arguments(api.EventsQuery, location="query")
@bp.arguments(api.LastEventId, location="headers")
@bp.response(200, api.Events)
@bp.alt_response(200, schema=streams.NDJSON_LINES, content_type=streams.NDJSON, success=True)
@bp.alt_response(200, schema=streams.SSE_EVENTS, content_type=streams.SSE, success=True)
@bp.alt_response(406, HTTPStatus.NOT_ACCEPTABLE.name)
@bp.alt_response(503, schema=api.Problem, content_type=PROBLEM_JSON, headers={
    "Retry-After": {"schema": {"type": "integer"}, "description": "seconds"}}, description=(
    "`followers-full`: the web process answering serves as many followers as it may (a share"
    " of its connections, the rest kept for every other request); try again after"
    " Retry-After. The connection is closed"))
def events(game: CallersGame, page: dict, headers: dict):
    """The log, redacted for the caller.

    JSON pages (`after`, `limit`, `next`), one entry a line with
    `Accept: application/x-ndjson`, or followed as it is written with `follow` (503
    `followers-full` when the web process serves as many followers as it may).
    """
    after = streams.resume_point(page.get("after"), headers.get("last_event_id"))
    form = request.accept_mimetypes.best
    if page["follow"]:
        stream = streams.followed_form(request.accept_mimetypes)
        return streams.follow(store(), current_app.extensions["audiences"], game, after,
                              current_app.config["FOLLOW_SECONDS"], request.environ, stream)
    found, following = handlers.events(store(), game, after, page["limit"])
    if form == streams.NDJSON:
        return streams.LINES.response([streams.LINES.piece(streams.batch_of(found))])
    return answer({"events": found, "next": following})
