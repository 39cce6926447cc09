"""Events (tournaments): create one, seat its rounds, withdraw players, its standings, its
export, and verifying an uploaded export (docs/events.md)."""

from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import orjson
from flask import Response, current_app, request
from werkzeug.routing import BaseConverter

from schemas import api
from service import event_handlers, streams, uploads
from service.headers import NO_STORE
from service.problems import PROBLEM_JSON
from service.web import TOKEN, Blueprint, answer, by_operator, keyring, store, with_receipt

bp = Blueprint("events", __name__, url_prefix="/v1/events", description=__doc__)


class EventId(BaseConverter):
    """An event's id in a path: anything but `verify`, the route that verifies an upload, so
    that `/v1/events/verify` is that route alone (its `Allow` names POST only)."""

    regex = r"(?!verify$)[^/]+"

_ORGANISER = {"security": [{TOKEN: []}], "responses": {
    "401": HTTPStatus.UNAUTHORIZED.name, "404": HTTPStatus.NOT_FOUND.name}}


@bp.post("")
@bp.arguments(api.CreateEvent)
@bp.response(201, api.EventCreated)
def create(body: dict):
    """Create an event.

    Keep the `organiser_token`: it is shown only once, and alone seats rounds and withdraws
    players. 400 `unknown-title`, `bad-table-size`, `too-few-players`, `duplicate-player`,
    `bad-points`, `bad-options`; nothing is written.
    """
    created = event_handlers.create_event(store(), keyring(), body)
    return answer(created, 201, {"Location": f"/v1/events/{created['id']}", **NO_STORE})


@bp.get("/<event:event_id>")
@bp.response(200, api.EventSummary)
@bp.alt_response(404, HTTPStatus.NOT_FOUND.name)
def show(event_id: str):
    """The event: its rounds, their tables' games and results, who withdrew."""
    return answer(event_handlers.show(store(), keyring(), event_id))


@bp.post("/<event:event_id>/rounds")
@bp.doc(**_ORGANISER)
@bp.response(201, api.RoundSeated)
@bp.alt_response(409, schema=api.Problem, content_type=PROBLEM_JSON, description=(
    "a game of the round before is still in progress (`round-in-progress`, naming them in"
    " `games`), every round is seated (`event-complete`), too few players are left"
    " (`too-few-players`), or the event changed meanwhile (`version-conflict`)"))
def seat(event_id: str):
    """Seat the next round (organiser): each table's game, its players in seat order, its
    seats' tokens and links and its `table_token`."""
    event_handlers.organiser(store(), event_id, request.headers.get("Authorization", ""))
    return answer(event_handlers.seat_next_round(store(), keyring(), event_id), 201, NO_STORE)


@bp.post("/<event:event_id>/withdrawals")
@bp.doc(**_ORGANISER)
@bp.arguments(api.Withdrawal)
@bp.response(201, api.PlayerWithdrawn)
@bp.alt_response(409, schema=api.Problem, content_type=PROBLEM_JSON,
                 description="the player withdrew already (`player-withdrawn`)")
def withdraw(body: dict, event_id: str):
    """Withdraw a player (organiser): not seated from the next round on."""
    event_handlers.organiser(store(), event_id, request.headers.get("Authorization", ""))
    return answer(event_handlers.withdraw(store(), keyring(), event_id, body["player"]), 201)


def _json_or_lines(view: Callable[..., Response]) -> Callable[..., Response]:
    """Put right under the route of a list: documents its answer one item a line, and its
    404 for an event not there."""
    lines = bp.alt_response(200, schema=streams.NDJSON_LINES, content_type=streams.NDJSON,
                            success=True)
    return lines(bp.alt_response(404, HTTPStatus.NOT_FOUND.name)(view))


def _answered(body: dict[str, Any], items: list[dict[str, Any]], number: str) -> Response:
    """`body`, or its `items` one a line (each numbered by its field `number`) when the caller
    accepts NDJSON first."""
    if request.accept_mimetypes.best == streams.NDJSON:
        numbered = [(item[number], orjson.dumps(item)) for item in items]
        return streams.LINES.response([streams.LINES.piece(numbered)])
    return answer(body)


@bp.get("/<event:event_id>/standings")
@_json_or_lines
@bp.arguments(api.StandingsQuery, location="query")
@bp.response(200, api.Standings)
def standings(query: dict, event_id: str):
    """The standings, each number citing the game it came from; `after_round` as they stood
    then; one row a line with `Accept: application/x-ndjson`."""
    ranked = event_handlers.ranked(store(), keyring(), event_id, query.get("after_round"))
    return _answered(ranked, ranked["standings"], "rank")


@bp.get("/<event:event_id>/export")
@bp.response(200, api.EventExport)
@bp.alt_response(404, HTTPStatus.NOT_FOUND.name)
def export(event_id: str):
    """The event's log, every game's replay and the standings, as a download."""
    document = event_handlers.export(store(), keyring(), event_id)
    return answer(document, headers={
        "Content-Disposition": f'attachment; filename="tablelog-event-{event_id}.json"'})


@bp.post("/verify")
@uploads.bounded
@bp.arguments(api.EventDocument, largest=api.LARGEST_REPLAY)
@bp.response(200, api.EventVerification)
def verify(document: dict):
    """Verify an uploaded event export: every game re-judged, the seating drawn again from the
    revealed seed, the standings recomputed; the first thing that differs is named (400
    `malformed-export` for a document that is not one)."""
    return answer(event_handlers.verify(document, keyring().published))


@bp.get("/<event:event_id>/log")
@_json_or_lines
@bp.arguments(api.EventLogQuery, location="query")
@bp.response(200, api.EventLog)
def log(query: dict, event_id: str):
    """The event's own log, hash-chained like a game's: the entries after `after` (one a line
    with `Accept: application/x-ndjson`), or followed as it is written with `follow` (NDJSON or
    server-sent events, as a game's log; 503 `followers-full` when the web process serves as
    many followers as it may)."""
    if query["follow"]:
        return event_handlers.follow(
            store(), keyring(), current_app.extensions["audiences"], event_id, query["after"],
            current_app.config["FOLLOW_SECONDS"], request.environ,
            streams.followed_form(request.accept_mimetypes))
    found = event_handlers.log_of(store(), keyring(), event_id, query["after"])
    following = found[-1]["seq"] if found else query["after"]
    return _answered({"entries": found, "next": following}, found, "seq")


@bp.put("/<event:event_id>/export")
@by_operator
@bp.arguments(api.EventDocument, largest=api.LARGEST_REPLAY)
@bp.response(201, api.EventImported)
@bp.alt_response(200, schema=api.EventImported, description="already here: nothing written",
                 success=True)
@bp.alt_response(409, schema=api.Problem, content_type=PROBLEM_JSON, description=(
    "the id holds another event (`event-exists`), or a game is another here (`game-exists`,"
    " `game-copied`)"))
@bp.alt_response(422, schema=api.Problem, content_type=PROBLEM_JSON, description=(
    "the event has not ended (`event-not-finished`) or its export does not verify"
    " (`event-not-verified`, with the first `difference`)"))
def import_event(document: dict, event_id: str):
    """Import an ended event exported from another server (the operator's token): verified
    whole, its games imported as `PUT /v1/games/{id}/replay` imports one, its log stored with
    its entries and hashes unchanged."""
    status, imported = event_handlers.import_event(store(), event_id, document)
    return answer(with_receipt(event_id, imported), status,
                  {"Location": f"/v1/events/{event_id}"} if status == 201 else None)
