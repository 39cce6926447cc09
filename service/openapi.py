"""The OpenAPI 3.1 document of the whole API, generated from the marshmallow schemas.

The routes are described once, in `_ROUTES`; request and answer bodies come from
`schemas.api`, and each game's moves from `schemas.moves`.
"""

from __future__ import annotations

import functools
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from schemas import api
from schemas.moves import MOVES

_GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
_SEQ = {"name": "seq", "in": "path", "required": True, "schema": {"type": "integer"}}
_NUMBER = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer"}}


def _header(name: str, description: str) -> dict[str, Any]:
    return {"name": name, "in": "header", "required": False, "description": description,
            "schema": {"type": "string"}}


_AUTH = _header("Authorization", "Bearer seat or table token; none makes the caller a spectator")


def _q(name: str, kind: str, description: str) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "schema": {"type": kind},
            "description": description}


_WAIT = _q("wait", "number", "seconds (at most 10) to wait for the outcome")
_AT = _q("at", "integer", "answer as of right after this log entry")

_FOLLOW = (
    "stream the entries after `after`, then each one as it lands (needs Accept"
    " text/event-stream or application/x-ndjson). A connection lasts at most about 25 s and ends"
    " once the game is finished: reconnect with `after` = the last seq received, or let"
    " EventSource send Last-Event-ID"
)
_LAST_EVENT_ID = _header(
    "Last-Event-ID", "with text/event-stream and no `after`: resume after this seq"
)
_EVENTS = {
    "application/json": api.Events,
    "application/x-ndjson": {
        "schema": {"type": "string", "description": "one redacted entry a line"},
    },
    "text/event-stream": {
        "schema": {
            "type": "string",
            "description": "server-sent events: `id` is the entry's seq, `data` its JSON",
        },
    },
}
_RANGE = [
    _q("from", "integer", "first entry of the range (default 1)"),
    _q("to", "integer", "last entry of the range (default the log's version)"),
    _q("score", "boolean", "list each step's score breakdown too (ranges of at most 200 entries)"),
]

# path, method, summary, parameters, request schema, {status: answer schema}
_ROUTES: list[tuple[str, str, str, list, Any, dict[int, Any]]] = [
    ("/v1/games", "post", "Create a game", [], api.CreateGame, {201: api.Created}),
    ("/v1/games", "get", "List games", [
        _q("game", "string", "only this game"), _q("player", "string", "only with this player"),
        _q("status", "string", "in-progress or finished"), _q("cursor", "string", "from `next`"),
        _q("limit", "integer", "page size"),
        _q("order", "string", "oldest (the default) or newest first")], None, {200: api.GameList}),
    ("/v1/games/{game_id}", "get", "Summary of a game", [_GAME_ID], None, {200: api.Summary}),
    ("/v1/games/{game_id}/state", "get", "The state as the caller may see it",
     [_GAME_ID, _AT, _AUTH], None, {200: api.State}),
    ("/v1/games/{game_id}/legal-moves", "get", "Legal moves of the caller's seat(s)",
     [_GAME_ID, _AUTH], None, {200: api.LegalMoves}),
    ("/v1/games/{game_id}/moves", "post", "Submit a move", [
        _GAME_ID, _WAIT, _AUTH,
        {"name": "Idempotency-Key", "in": "header", "required": False,
         "schema": {"type": "string"}}],
     "Submission", {201: api.Verdict, 202: api.Pending, 409: api.Problem, 422: api.Problem}),
    ("/v1/games/{game_id}/moves/{seq}", "get", "The verdict on one submission",
     [_GAME_ID, _SEQ, _AUTH], None, {200: api.Verdict}),
    ("/v1/games/{game_id}/events", "get", "The log, redacted for the caller (JSON or NDJSON)",
     [_GAME_ID, _AUTH, _q("after", "integer", "entries after this seq"),
      _q("limit", "integer", "at most this many (not when following)"),
      _q("follow", "boolean", _FOLLOW), _LAST_EVENT_ID], None, {200: _EVENTS}),
    ("/v1/games/{game_id}/views", "get", "The caller's view at every step of a range of the log",
     [_GAME_ID, _AUTH, *_RANGE], None, {200: api.Views}),
    ("/v1/games/{game_id}/replay", "get", "The replay document, as a download",
     [_GAME_ID, _AUTH], None, {200: None}),
    ("/v1/games/{game_id}/score", "get", "The score breakdown with provenance",
     [_GAME_ID, _AT], None, {200: api.ScoreBreakdown}),
    ("/v1/games/{game_id}/audit", "post", "Rebuild the game from its log in a worker",
     [_GAME_ID, _WAIT, _AUTH], api.AuditRequest, {200: api.AuditReport, 202: api.AuditReport}),
    ("/v1/games/{game_id}/audits/{number}", "get", "An audit's progress or report",
     [_GAME_ID, _NUMBER, _WAIT, _AUTH], None, {200: api.AuditReport, 202: api.AuditReport}),
    ("/v1/replays/verify", "post", "Verify an uploaded replay document", [],
     api.ReplayDocument, {200: api.AuditReport}),
    ("/v1/replays/views", "post",
     "The table at every step of an uploaded replay (one that reveals its seed or deal)",
     _RANGE, api.ReplayDocument, {200: api.Views, 422: api.Problem}),
    ("/v1/boards/{name}", "get", "A game's board as data",
     [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}],
     None, {200: None}),
    ("/healthz", "get", "Health of Redis and the workers", [], None, {200: api.Health}),
]


@functools.cache
def spec() -> dict[str, Any]:
    doc = APISpec(
        title="tablelog",
        version="1",
        openapi_version="3.1.0",
        plugins=[MarshmallowPlugin()],
        info={"description": "Event-sourced record and replay of tabletop card games."},
    )
    doc.components.schema("Submission", _submission(doc))
    for path, method, summary, params, request, answers in _ROUTES:
        operation: dict[str, Any] = {"summary": summary, "parameters": params, "responses": {}}
        if request is not None:
            schema = {"$ref": "#/components/schemas/Submission"} if request == "Submission" \
                else request
            operation["requestBody"] = {
                "required": request is not api.AuditRequest,
                "content": {"application/json": {"schema": schema}},
            }
        for status, schema in answers.items():
            body = {"description": str(status)}
            if isinstance(schema, dict):
                body["content"] = {
                    kind: form if isinstance(form, dict) else {"schema": form}
                    for kind, form in schema.items()
                }
            elif schema is not None:
                kind = "application/problem+json" if schema is api.Problem else "application/json"
                body["content"] = {kind: {"schema": schema}}
            operation["responses"][str(status)] = body
        operation["responses"]["default"] = {
            "description": "an error",
            "content": {"application/problem+json": {"schema": api.Problem}},
        }
        doc.path(path=path, operations={method: operation})
    return doc.to_dict()


def _submission(doc: APISpec) -> dict[str, Any]:
    """The move body: one of every game's move schemas, registered as named components."""
    refs = []
    for game, schemas in sorted(MOVES.items()):
        for kind, schema in sorted(schemas.items()):
            name = f"{game}-{kind}".replace("-", "_")
            doc.components.schema(name, schema=schema)
            refs.append({"$ref": f"#/components/schemas/{name}"})
    return {
        "type": "object",
        "required": ["move"],
        "properties": {
            "seat": {"type": "integer", "minimum": 0},
            "expected_version": {"type": "integer", "minimum": 1},
            "move": {"oneOf": refs},
        },
    }
