"""Errors as RFC 9457 problem+json, each with a stable kebab-case `code`."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

import orjson
from flask import Flask, Response, g
from marshmallow import ValidationError
from redis.exceptions import RedisClusterException, RedisError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from engine.log import UnknownRules

PROBLEM_TYPES = "https://tablelog.example/problems/"
PROBLEM_JSON = "application/problem+json"


class Problem(Exception):
    def __init__(self, status: int, code: str, detail: str, **extra: Any):
        super().__init__(detail)
        self.status, self.code, self.detail, self.extra = status, code, detail, extra


def problem_response(status: int, code: str, detail: str, **extra: Any) -> Response:
    body = {
        "type": PROBLEM_TYPES + code,
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }
    # Marshmallow keys the errors of a list's items by their index.
    return Response(
        orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS),
        status=status,
        mimetype=PROBLEM_JSON,
    )


def register(app: Flask) -> None:
    @app.errorhandler(Problem)
    def _problem(p: Problem) -> Response:
        return problem_response(p.status, p.code, p.detail, **p.extra)

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
        code = HTTPStatus(e.code).phrase.lower().replace(" ", "-").replace("'", "")
        answer = problem_response(e.code, code, e.description or HTTPStatus(e.code).phrase)
        # Keep what the exception says beyond its body, such as a 405's `Allow`.
        answer.headers.extend((k, v) for k, v in e.get_headers() if k.lower() != "content-type")
        return answer

    @app.errorhandler(RedisError)
    @app.errorhandler(RedisClusterException)
    def _store_down(e: Exception) -> Response:
        # A Redis that went away, or a cluster while a replica takes over a dead master: the
        # client may retry (with the same Idempotency-Key for a move), nothing was half-written.
        app.logger.warning("the game store failed: %r", e)
        return problem_response(
            503, "store-unavailable", "the game store did not answer; try again shortly"
        )

    @app.errorhandler(Exception)
    def _crash(e: Exception) -> Response:
        app.logger.exception("unhandled error")
        return problem_response(500, "internal-error", "something went wrong on our side")
