"""Small helpers every view uses: the store, the caller, loading input, JSON answers."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response, current_app, request
from marshmallow import Schema

from schemas import loader
from service.auth import Seen, seen
from service.problems import Problem
from store import Store


def store() -> Store:
    return current_app.extensions["store"]


def game(game_id: str) -> Seen:
    """The game a request is about, as its caller may see it."""
    return seen(store(), game_id, request.headers.get("Authorization", ""))


def body(schema: type[Schema]) -> dict[str, Any]:
    """The JSON body loaded with `schema`; an empty body counts as `{}`."""
    raw = request.get_data()
    try:
        data = orjson.loads(raw) if raw.strip() else {}
    except orjson.JSONDecodeError as bad:
        raise Problem(400, "invalid-json", f"the body is not JSON: {bad}") from None
    if not isinstance(data, dict):
        raise Problem(400, "invalid-request", "the body must be a JSON object")
    return loader(schema).load(data)


def query(schema: type[Schema]) -> dict[str, Any]:
    return loader(schema).load(request.args.to_dict())


def answer(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    data = payload if isinstance(payload, bytes) else orjson.dumps(payload)
    return Response(data, status=status, mimetype="application/json", headers=headers)
