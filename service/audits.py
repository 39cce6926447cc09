"""Audits of stored games, and verification of uploaded replay documents."""

from flask import Blueprint

from schemas import api
from service import handlers, timeline
from service.web import answer, body, game, query, store

bp = Blueprint("audits", __name__, url_prefix="/v1")


@bp.post("/games/<game_id>/audit")
def audit(game_id: str):
    seen = game(game_id)
    claims = body(api.AuditRequest)["claimed"]
    status, report = handlers.request_audit(store(), seen, claims, query(api.Wait)["wait"])
    return answer(report, status, {"Location": report["links"]["self"]})


@bp.get("/games/<game_id>/audits/<int:number>")
def audit_report(game_id: str, number: int):
    status, report = handlers.audit_report(
        store(), game(game_id), number, query(api.Wait)["wait"]
    )
    return answer(report, status)


@bp.post("/replays/verify")
def verify():
    return answer(handlers.verify(body(api.ReplayDocument)))


@bp.post("/replays/views")
def replay_views():
    return answer(timeline.uploaded(body(api.ReplayDocument), query(api.ViewsQuery)))
