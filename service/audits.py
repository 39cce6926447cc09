"""Audits of stored games, and uploaded replay documents: verified, or stepped through."""

from http import HTTPStatus

from flask import current_app

from schemas import api
from service import handlers, timeline, uploads
from service.auth import CallersGame
from service.problems import PROBLEM_JSON
from service.web import Blueprint, about_game, answer, keyring, store

bp = Blueprint("audits", __name__, url_prefix="/v1", description=__doc__)


@bp.post("/games/<game_id>/audit")
@about_game
@bp.arguments(api.AuditRequest, required=False)
@bp.arguments(api.Wait, location="query")
@bp.response(200, api.AuditReport)
@bp.alt_response(202, schema=api.AuditReport, description="still running", success=True)
@bp.alt_response(503, HTTPStatus.SERVICE_UNAVAILABLE.name)
def audit(game: CallersGame, body: dict, query: dict):
    """Rebuild the game from its log in a worker and explain the claimed totals (503
    `audits-busy` while too many audits wait for an auditor)."""
    status, report = handlers.request_audit(
        store(), game, body["claimed"], query["wait"], current_app.config["AUDITS_WAITING"]
    )
    return answer(report, status, {"Location": report["links"]["self"]})


@bp.get("/games/<game_id>/audits/<int:number>")
@about_game
@bp.arguments(api.Wait, location="query")
@bp.response(200, api.AuditReport)
@bp.alt_response(202, schema=api.AuditReport, description="still running", success=True)
def audit_report(game: CallersGame, query: dict, number: int):
    """An audit's progress or report."""
    status, report = handlers.audit_report(store(), game, number, query["wait"])
    return answer(report, status)


@bp.post("/replays/verify")
@uploads.bounded
@bp.arguments(api.ReplayDocument, largest=api.LARGEST_UPLOAD)
@bp.response(200, api.AuditReport)
@bp.alt_response(422, schema=api.Problem, content_type=PROBLEM_JSON, description=(
    "a game recorded under rules this server does not hold (`unknown-rules-version`); a"
    " document that is not a replay at all is a 400 (`malformed-replay`)"))
def verify(document: dict):
    """Verify an uploaded replay document: no stored game needed.

    Besides the audit, the seats' signatures (`signatures_ok`, null when no seat registered a
    key) and its `head` against this server's keys, earlier ones included (`head_ok`, null
    when it has none).
    """
    return answer(handlers.verify(document, keyring().published))


@bp.post("/replays/views")
@uploads.bounded
@bp.arguments(api.ReplayDocument, largest=api.LARGEST_UPLOAD)
@bp.arguments(api.ViewsQuery, location="query")
@bp.response(200, api.Views)
@bp.alt_response(422, schema=api.Problem, content_type=PROBLEM_JSON, description=(
    "a replay that reveals neither its seed nor its deal (`replay-not-rebuildable`: one a"
    " seat or a spectator downloaded while the game ran), or a game recorded under rules this"
    " server does not hold (`unknown-rules-version`)"))
def replay_views(document: dict, query: dict):
    """The table at every step of an uploaded replay (one that reveals its seed or deal)."""
    return answer(timeline.uploaded(document, query))
