"""What every view shares: the store, the game it is about, reading input, JSON answers.

Views are flask-smorest routes: `@bp.arguments(Schema)` loads a body, a query string or headers
and documents them in /openapi.json from the same schema, so input is described once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

import flask_smorest
import orjson
from flask import Response, current_app, g, request
from marshmallow import Schema, ValidationError
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Request

from schemas import api, loader, remembered
from service import limits
from service.auth import RememberedGames, callers_game, operator
from service.problems import PROBLEM_JSON, Problem
from service.signing import Keyring
from service.written import Written
from store import Store

# The caller's token, as an OpenAPI security requirement: optional (`{}`), since a caller
# without one is a spectator.
TOKEN = "token"
# The operator's token (TABLELOG_IMPORT_TOKEN), which alone may import games.
OPERATOR = "operator"
TOO_SLOW = (f"the body did not arrive in time (`body-too-slow`): by default it has"
            f" {api.BODY_SECONDS} s, and a second more for every {api.BODY_RATE} bytes of it"
            " received; the connection is closed")


def store() -> Store:
    return current_app.extensions["store"]


def keyring() -> Keyring:
    """The server's signing key and the keys it published (service.signing)."""
    return current_app.extensions["keyring"]


def with_receipt(log_id: str, imported: dict[str, Any]) -> dict[str, Any]:
    """An import's answer with the server's receipt for the last entry of the log it holds
    (CONTRACT.md section 11: every answer that appends carries one)."""
    return {**imported, "receipt": keyring().receipt(log_id, imported["version"],
                                                     imported["hash"])}


# Whatever a route about a game does, its game may be missing, its token wrong, or its rules
# unknown to this server (engine.log.UnknownRules).
_ABOUT_GAME = {str(s.value): s.name for s in (
    HTTPStatus.UNAUTHORIZED, HTTPStatus.NOT_FOUND, HTTPStatus.UNPROCESSABLE_ENTITY)}


def about_game(view: Callable[..., Response]) -> Callable[..., Response]:
    """Put right under the route: the view gets the game as its caller sees it instead of
    `game_id`, looked up (and the token checked, and the rate limits counted, in one round
    trip) before any input is read, and the route documents the token and the refusals any
    route about a game may give."""

    @functools.wraps(view)
    def looked_up(game_id: str, **rest: Any) -> Response:
        game = callers_game(store(), game_id, request.headers.get("Authorization", ""),
                    limits.asked(game_id))
        return view(game, **rest)

    return _documented(looked_up)


def about_played_game(view: Callable[..., Response]) -> Callable[..., Response]:
    """`about_game` for posting a move: a game this process took moves for before is not
    looked up again (`service.auth.RememberedGames`), and the request's rate limits' counts go
    with the move's append, or are taken before its refusal."""

    @functools.wraps(view)
    def looked_up(game_id: str, **rest: Any) -> Response:
        authorization = request.headers.get("Authorization", "")
        asked = limits.asked(game_id)
        remembered = remembered_games().recall(game_id, authorization, asked)
        if remembered is None:
            game = callers_game(store(), game_id, authorization, asked)
            remembered_games().learn(game, authorization)
            return view(game, **rest)
        try:
            return view(remembered, **rest)
        except Exception:
            remembered.owed.settle()  # a 429 first, as when counted with the context
            raise

    return _documented(looked_up)


def _documented(looked_up: Callable[..., Response]) -> Callable[..., Response]:
    documented = flask_smorest.Blueprint.doc(security=[{}, {TOKEN: []}], responses=_ABOUT_GAME)
    return documented(limits.taken_with_context(looked_up))


def remembered_games() -> RememberedGames:
    return current_app.extensions["remembered_games"]


_BY_OPERATOR = {str(s.value): s.name for s in (HTTPStatus.UNAUTHORIZED, HTTPStatus.FORBIDDEN)}


def by_operator(view: Callable[..., Response]) -> Callable[..., Response]:
    """Put right under the route: only the operator's token passes, before any input is read,
    and the route documents it (401 without it, 403 with a token on a server that takes
    none)."""

    @functools.wraps(view)
    def checked(*args: Any, **kwargs: Any) -> Response:
        operator(current_app.config["IMPORT_TOKEN"], request.headers.get("Authorization", ""))
        return view(*args, **kwargs)

    documented = flask_smorest.Blueprint.doc(security=[{OPERATOR: []}], responses=_BY_OPERATOR)
    return documented(checked)


class Parser(FlaskParser):
    """webargs reading input as this API always has: a body sent as JSON (415 otherwise), an
    empty body as `{}`, the query string's first values, each schema's own `unknown` rule,
    cached schema instances, and a 400 problem whose `errors` are marshmallow's."""

    DEFAULT_VALIDATION_STATUS = 400
    DEFAULT_UNKNOWN_BY_LOCATION: dict[str, str | None] = {}

    def _get_schema(self, argmap: Any, req: Any) -> Schema:
        return loader(argmap)

    def load_json(self, req: Any, schema: Schema) -> dict[str, Any]:
        return _json_object(sent_body(req))

    def load_querystring(self, req: Any, schema: Schema) -> dict[str, str]:
        return req.args.to_dict()

    def handle_error(self, error: ValidationError, *args: Any, **kwargs: Any) -> None:
        # webargs files the messages under the input's location; answers never did.
        ((_, messages),) = error.messages.items()
        raise ValidationError(messages)


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = Parser()

    def arguments(
        self, schema: Any, *, location: str = "json", largest: int = api.LARGEST_BODY,
        **kwargs: Any,
    ) -> Callable[[Callable[..., Response]], Callable[..., Response]]:
        """flask-smorest's, and for a JSON body its limits too: the route reads at most
        `largest` bytes (`refuse_large_bodies`), and documents its 413 and 415, and the 408
        of a body that does not arrive in time (`service.server`)."""
        loading = super().arguments(schema, location=location, **kwargs)
        if location != "json":
            return loading

        def limited(view: Callable[..., Response]) -> Callable[..., Response]:
            view = self.alt_response(413, schema=api.Problem, content_type=PROBLEM_JSON,
                                     description=f"the body is over {largest} bytes")(view)
            view = self.alt_response(415, schema=api.Problem, content_type=PROBLEM_JSON,
                                     description="the body is not sent as application/json")(view)
            view = self.alt_response(408, schema=api.Problem, content_type=PROBLEM_JSON,
                                     description=TOO_SLOW)(view)
            view = loading(view)
            view.largest_body = largest  # type: ignore[attr-defined]
            return view

        return limited


def documented_by(*decorators: Callable[[Callable[..., Response]], Callable[..., Response]]
                  ) -> Callable[[Callable[..., Response]], Callable[..., Response]]:
    """flask-smorest's decorators (`arguments`, `response`, ...) for what they document alone:
    the view gets the description they would give it, but none of their wrappers, and reads
    its input itself (`read_move`, `read`). For the route of every move: a dozen wrappers and
    webargs' parsing of three locations were a large share of the web's CPU on a move
    (docs/benchmarks.md, 2026-12-06)."""

    def documented(view: Callable[..., Response]) -> Callable[..., Response]:
        wrapped = functools.reduce(lambda inner, decorate: decorate(inner),
                                   reversed(decorators), view)
        view.__dict__.update({k: v for k, v in wrapped.__dict__.items() if k != "__wrapped__"})
        return view

    return documented


def read(schema: type[Schema], location: str = "json") -> dict[str, Any]:
    """What `Blueprint.arguments(schema, location=location)` gives a view, read and loaded
    as it reads and loads it (`Parser`), for a view `documented_by` it.

    The query string of a move is nearly always the same few bytes (`wait=5`), and its
    headers' values too: what they load to is remembered, by the bytes themselves: parsing
    and loading them again and again was a measurable share of the web's work on a move. A
    move's body is one of a few hundred (a seat, and one of its game's moves): what it loads to
    is remembered too, as JSON, so that each request gets a copy of its own (loading it was as
    much again; docs/benchmarks.md, "Counting instructions").
    The body's checks (its media type, its size, that it is a JSON object) run every time,
    and only what is at most `api.REMEMBERED_BODY` bytes is remembered."""
    if location == "json":
        return read_body(schema, sent_body(request))
    if location == "query":
        return read_query(schema, request.query_string)
    return read_headers(schema, request.headers.get)


def read_move(raw: bytes, query: bytes, header: Callable[[str], str | None]
              ) -> tuple[dict[str, Any], float, str | None]:
    """A posted move's body, its `wait` and its `Idempotency-Key`, loaded in that order."""
    return (read_body(api.Submission, raw), read_query(api.Wait, query)["wait"],
            read_headers(api.IdempotencyKey, header).get("key"))


def read_body(schema: type[Schema], raw: bytes) -> dict[str, Any]:
    """What a JSON body sent within its route's limit loads to."""
    return orjson.loads(_loaded_body(schema, raw))


def read_query(schema: type[Schema], raw: bytes) -> dict[str, Any]:
    """What a query string loads to."""
    return dict(_loaded(schema, "query", raw))


def read_headers(schema: type[Schema], header: Callable[[str], str | None]) -> dict[str, Any]:
    """What the headers `schema` reads load to, each header's value got by its name."""
    names = _header_names(loader(schema))
    return dict(_loaded(schema, "headers", orjson.dumps([header(name) for name in names])))


@remembered(4096, api.REMEMBERED_BODY)
def _loaded_body(schema: type[Schema], raw: bytes) -> bytes:
    """What a JSON body loads to, written as JSON."""
    return orjson.dumps(loader(schema).load(_json_object(raw)))


def sent_body(req: Any) -> bytes:
    """The body, sent as JSON (415 otherwise) and within its route's limit (413)."""
    if not req.is_json and (req.content_length or req.headers.get("Transfer-Encoding")):
        raise Problem(415, "unsupported-media-type",
                      "the body must be JSON, sent with Content-Type application/json")
    raw = req.get_data()
    if len(raw) > g.largest_body:
        raise RequestEntityTooLarge()
    return raw


def _json_object(raw: bytes) -> dict[str, Any]:
    """A body's JSON object; an empty body is `{}` (one of blanks is not JSON: 400)."""
    try:
        data = orjson.loads(raw) if raw else {}
    except orjson.JSONDecodeError as bad:
        raise Problem(400, "invalid-json", f"the body is not JSON: {bad}") from None
    if not isinstance(data, dict):
        raise Problem(400, "invalid-request", "the body must be a JSON object")
    if (unheld := _beyond_interchange(data)) is not None:
        raise Problem(400, "invalid-json",
                      f"the body is not JSON every parser reads alike: {unheld}")
    return data


def _beyond_interchange(data: Any) -> str | None:
    """Why a body is not I-JSON (RFC 7493) as this API reads it: nested deeper than
    `api.DEEPEST_BODY`, or an integer no IEEE double holds exactly (a browser would read
    another number, and a log holding one would not verify there); None when it is."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list):
            children = value
        elif isinstance(value, int) and not -api.LARGEST_INTEGER <= value <= api.LARGEST_INTEGER:
            return f"{value} is beyond ±(2^53 - 1), the integers a JSON parser holds exactly"
        else:
            continue
        if depth > api.DEEPEST_BODY:
            return f"it nests deeper than {api.DEEPEST_BODY} arrays and objects"
        stack.extend((child, depth + 1) for child in children)
    return None


@remembered(1024, api.REMEMBERED_BODY)
def _loaded(schema: type[Schema], location: str, raw: bytes) -> dict[str, Any]:
    """What a `raw` query string, or the values of `schema`'s headers (as JSON), load to, read
    as webargs reads them off a request that sent just those."""
    return loader(schema).load(_SENT[location](loader(schema), raw))


@functools.cache
def _header_names(schema: Schema) -> tuple[str, ...]:
    return tuple(f.data_key or name for name, f in schema.load_fields.items())


def _sent_query(schema: Schema, raw: bytes) -> Any:
    request_of = Request({"QUERY_STRING": raw.decode("latin-1")})
    return Blueprint.ARGUMENTS_PARSER.load_querystring(request_of, schema)


def _sent_headers(schema: Schema, raw: bytes) -> Any:
    values = zip(_header_names(schema), orjson.loads(raw), strict=True)
    request_of = Request({environ_key(name): v for name, v in values if v is not None})
    return Blueprint.ARGUMENTS_PARSER.load_headers(request_of, schema)


def environ_key(header: str) -> str:
    """Where a WSGI environment holds a request header's value (as Werkzeug reads it)."""
    key = header.upper().replace("-", "_")
    return key if key in ("CONTENT_TYPE", "CONTENT_LENGTH") else "HTTP_" + key


_SENT = {"query": _sent_query, "headers": _sent_headers}


def refuse_large_bodies() -> None:
    """Before anything reads a body: past its route's limit it is a 413, at once when its
    Content-Length says so; a body sent in chunks is read one byte past the limit at most
    (Werkzeug stops there), and that byte makes it a 413 (`Parser.load_json`). So no body
    larger than the limit is ever held."""
    g.largest_body = largest_body(current_app.view_functions.get(request.endpoint or ""))
    if (request.content_length or 0) > g.largest_body:
        raise RequestEntityTooLarge()
    request.max_content_length = g.largest_body + 1


def largest_body(view: Callable[..., Any] | None) -> int:
    """The most bytes of body a view reads (`Blueprint.arguments`' `largest`)."""
    return getattr(view, "largest_body", api.LARGEST_BODY)


def answer(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return written(payload, status, headers).response()


def written(payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> Written:
    """A JSON answer."""
    data = payload if isinstance(payload, bytes) else orjson.dumps(payload)
    return Written(status, data, (("Content-Type", "application/json"), *(headers or {}).items()))
