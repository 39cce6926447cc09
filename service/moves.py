"""Moves: submit one (optionally waiting for its verdict) and look a verdict up."""

from flask import Blueprint, request

from schemas import api
from service import handlers
from service.problems import problem_response
from service.web import answer, body, game, query, store

bp = Blueprint("moves", __name__, url_prefix="/v1/games")


@bp.post("/<game_id>/moves")
def submit(game_id: str):
    seen = game(game_id)
    submission = body(api.Submission)
    status, verdict = handlers.submit(
        store(),
        seen,
        submission,
        request.headers.get("Idempotency-Key"),
        query(api.Wait)["wait"],
    )
    if status == 422:
        return problem_response(422, verdict["code"], verdict["detail"], **_rest(verdict))
    return answer(verdict, status, {"Location": f"/v1/games/{game_id}/moves/{verdict['seq']}"})


def _rest(verdict: dict) -> dict:
    """The verdict's other fields; its `status` is spelled `verdict` beside the HTTP status."""
    return {"seq": verdict["seq"], "verdict": verdict["status"], "version": verdict["version"]}


@bp.get("/<game_id>/moves/<int:seq>")
def lookup(game_id: str, seq: int):
    return answer(handlers.lookup(store(), game(game_id), seq))
