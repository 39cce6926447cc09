"""Errors as RFC 9457 problem+json, each with a stable kebab-case `code`.

Every problem the app answers is counted by status and code (`telemetry.metrics.REFUSALS`);
the web's gunicorn worker counts those it writes itself (`service.server`, gunicorn.conf.py).
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import orjson
from flask import Flask, Response, g
from marshmallow import ValidationError
from redis.exceptions import RedisClusterException, RedisError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from engine.log import UnknownRules
from service.written import Written
from store.compacted import Broken
from store.connection import FULL
from store.log import OutcomeUnknown
from telemetry.metrics import REFUSALS

PROBLEM_TYPES = "https://tablelog.example/problems/"
PROBLEM_JSON = "application/problem+json"
# Seconds a client is asked to wait before trying again when the game store is away.
RETRY_AFTER_S = "1"


class Problem(Exception):
    def __init__(self, status: int, code: str, detail: str,
                 headers: dict[str, str] | None = None, **extra: Any):
        super().__init__(detail)
        self.status, self.code, self.detail, self.extra = status, code, detail, extra
        self.headers = headers or {}


def problem_bytes(status: int, code: str, detail: str, **extra: Any) -> bytes:
    body = {
        "type": PROBLEM_TYPES + code,
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }
    # Marshmallow keys the errors of a list's items by their index.
    return orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS)


def problem_response(status: int, code: str, detail: str, **extra: Any) -> Response:
    return problem_written(status, code, detail, **extra).response()


def problem_written(status: int, code: str, detail: str, **extra: Any) -> Written:
    REFUSALS.labels(str(status), code).inc()
    headers = (("Content-Type", PROBLEM_JSON),)
    if status == 503:
        headers += (("Retry-After", RETRY_AFTER_S),)
    return Written(status, problem_bytes(status, code, detail, **extra), headers)


def code_of(status: int) -> str:
    """The `code` of a refusal that has none of its own: its status's phrase, kebab-cased."""
    return HTTPStatus(status).phrase.lower().replace(" ", "-").replace("'", "")


def register(app: Flask) -> None:
    @app.errorhandler(Problem)
    def _problem(p: Problem) -> Response:
        answer = problem_response(p.status, p.code, p.detail, **p.extra)
        answer.headers.update(p.headers)
        return answer

    @app.errorhandler(UnknownRules)
    def _unknown_rules(e: UnknownRules) -> Response:
        return problem_response(422, e.code, e.detail)

    @app.errorhandler(ValidationError)
    def _invalid(e: ValidationError) -> Response:
        return problem_response(
            400, "invalid-request", "the request does not fit its schema", errors=e.messages
        )

    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(e: RequestEntityTooLarge) -> Response:
        return problem_response(413, "body-too-large", f"the body is over {g.largest_body}"
                                " bytes, the most this route reads")

    @app.errorhandler(HTTPException)
    def _http(e: HTTPException) -> Response:
        answer = problem_response(e.code, code_of(e.code),
                                  e.description or HTTPStatus(e.code).phrase)
        # Keep what the exception says beyond its body, such as a 405's `Allow`.
        answer.headers.extend((k, v) for k, v in e.get_headers() if k.lower() != "content-type")
        return answer

    @app.errorhandler(RedisError)
    @app.errorhandler(RedisClusterException)
    def _store_down(e: Exception) -> Response:
        # A Redis that went away, or a cluster while a replica takes over a dead master: the
        # client may retry (with the same Idempotency-Key for a move), nothing was half-written.
        app.logger.warning("the game store failed: %r", e)
        if isinstance(e, FULL):
            # Refused before anything was written (store.connection.FULL).
            return problem_response(
                503, "store-unavailable",
                "the game store is full and wrote nothing of this request; try again shortly")
        return problem_response(
            503, "store-unavailable", "the game store did not answer; try again shortly"
        )

    @app.errorhandler(OutcomeUnknown)
    def _outcome_unknown(e: OutcomeUnknown) -> Response:
        app.logger.warning("an append's answer was lost: %r", e.__cause__)
        return problem_response(
            503, "outcome-unknown",
            f"the move reached the game store but its answer was lost, so it may or may not be"
            f" in the log (as entry {e.seq}): post it again with the same Idempotency-Key and it"
            f" counts once (without one, read the log before posting it again)",
            seq=e.seq,
        )

    @app.errorhandler(Broken)
    def _broken(e: Broken) -> Response:
        # Never an answer from a log that does not verify: the operator must know at once.
        app.logger.error("%s", e)
        return problem_response(
            500, "log-broken",
            f"game {e.game_id}'s stored log does not chain to its head: it is not answered from",
        )

    @app.errorhandler(Exception)
    def _crash(e: Exception) -> Response:
        app.logger.exception("unhandled error")
        return problem_response(500, "internal-error", "something went wrong on our side")
