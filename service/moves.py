"""Moves: submit one (optionally waiting for its verdict) and look a verdict up."""

from collections.abc import Callable
from http import HTTPStatus

from flask import request

from schemas import api
from service import handlers
from service.auth import CallersGame, RememberedGames
from service.problems import PROBLEM_JSON, problem_written
from service.signing import Keyring
from service.traced import current_id, note
from service.web import (
    Blueprint,
    about_game,
    about_played_game,
    answer,
    documented_by,
    keyring,
    read_move,
    remembered_games,
    sent_body,
    store,
    written,
)
from service.written import Written
from store import Store

bp = Blueprint("moves", __name__, url_prefix="/v1/games", description=__doc__)


@bp.post("/<game_id>/moves")
@about_played_game
@documented_by(
    bp.arguments(api.Submission),
    bp.arguments(api.Wait, location="query"),
    bp.arguments(api.IdempotencyKey, location="headers"),
    bp.response(201, api.Verdict, description="accepted, with the effects of the move"),
    bp.alt_response(202, schema=api.Pending, description="not judged yet", success=True),
    bp.alt_response(409, HTTPStatus.CONFLICT.name),
    bp.alt_response(422, HTTPStatus.UNPROCESSABLE_ENTITY.name),
    bp.alt_response(503, schema=api.Problem, content_type=PROBLEM_JSON, description=(
        "`outcome-unknown`: the move reached the game store but its answer was lost, so it may"
        " be in the log, as entry `seq`: post it again with the same `Idempotency-Key` and it"
        " counts once (without one, read `GET /moves/{seq}` first); `store-unavailable`:"
        " nothing of it was written (Redis away, or full), post it again")),
)
def submit(game: CallersGame):
    """Submit a move; `wait` answers with its verdict (a 422 names the rule it broke).

    Besides each title's moves, every title takes the table actions (docs/api.md, Table
    actions): `takeback` `{to}` (the table: at once; a seat: a proposal the other seats
    `takeback-accept` or `takeback-decline` `{of}`), `concede`, `abandon` `{reason}` (the
    table, or every seat) and `claim-timeout` (option `turn_limit_s`). With the table token,
    `takeback`, `abandon` and `claim-timeout` need no `seat`. Their refusals are 422s:
    `takeback-bad-entry`, `takeback-pending`, `no-such-proposal`, `own-proposal`,
    `already-accepted`, `seat-conceded`, `already-voted`, `no-turn-clock`, `claim-too-early`,
    `claim-own-timeout`, `not-conceded-turn`, `seat-required`.

    Every answer that appended carries the server's `receipt` for the last entry written.
    A seat that registered a key signs each move (`signature`, with `expected_version`):
    422 `signature-required`, `bad-signature` or `expected-version-required` otherwise, and
    403 `seat-signs-its-moves` when the table token acts for it; nothing is appended.
    """
    return answered(store(), remembered_games(), keyring(), game, sent_body(request),
                    request.query_string, request.headers.get).response()


def answered(store: Store, remembered: RememberedGames, signer: Keyring, game: CallersGame,
             raw: bytes, query: bytes, header: Callable[[str], str | None]) -> Written:
    """The answer to a move posted: this route's, and the move lane's (`service.move_lane`),
    from the body, the query string and a header's value by its name. The move, its `wait`
    and its `Idempotency-Key` are loaded (`service.web.read_move`), the move submitted by the
    one handler (`service.handlers.submit`), its request's id going with it, and its seq and
    outcome noted on the request's log line (`service.traced`)."""
    submission, wait, key = read_move(raw, query, header)
    status, verdict = handlers.submit(store, signer, game, submission, key, wait, remembered,
                                      current_id())
    note(game=game.id, seq=verdict["seq"], outcome=verdict["status"])
    if status == 422:
        return problem_written(422, verdict["code"], verdict["detail"], **_rest(verdict))
    return written(verdict, status, {"Location": f"/v1/games/{game.id}/moves/{verdict['seq']}"})


def _rest(verdict: dict) -> dict:
    """The verdict's other fields; its `status` is spelled `verdict` beside the HTTP status."""
    return {"seq": verdict["seq"], "verdict": verdict["status"], "version": verdict["version"],
            "receipt": verdict["receipt"]}


@bp.get("/<game_id>/moves/<int:seq>")
@about_game
@bp.response(200, api.Verdict)
def lookup(game: CallersGame, seq: int):
    """The verdict on one submission."""
    return answer(handlers.lookup(store(), game, seq))
