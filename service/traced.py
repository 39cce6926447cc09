"""Every request's id, its log line and its metrics: WSGI middleware outside everything else.

A request's id is its client's `X-Request-Id` when that is plain text of at most 64
characters, else one made here (`telemetry.logs.request_id`); it is answered in `X-Request-Id`
and named on every line logged while the request is answered (`telemetry.logs.REQUEST`). A
move carries it with its submission (`store.log`, off the chain) to the worker that judges
it, whose verdict line names it too: "my move vanished at 21:04" is found by its id.

Once the app has answered, one line says what the request came to: the method, the route (its
URL rule, never its path: no id or token of a path is in a metric's label), the status, the
milliseconds, the game it was about and, for a move, the seq of its submission and what came
of it (`note`); and the request's duration is observed by route, method and status
(`telemetry.metrics.REQUEST_SECONDS`). A stream's duration is to its answer's head: the
stream's life is its follower's.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, request

from service.headers import ALWAYS, SECRET
from telemetry import logs
from telemetry.metrics import REQUEST_SECONDS

_UNMATCHED = "unmatched"  # a path no route takes (a 404)
_HEADER = "X-Request-Id"
_log = logging.getLogger("tablelog.web")


def note(**fields: Any) -> None:
    """Add fields (its route, a move's seq and outcome) to the line of the request being
    answered."""
    found = logs.REQUEST.get()
    if found is not None:
        found.update(fields)


def register(app: Flask) -> None:
    """Each request Flask routes notes its route (its URL rule) and the game it is about."""
    app.before_request(_routed)


def _routed() -> None:
    rule = request.url_rule
    if rule is not None:
        game = (request.view_args or {}).get("game_id")
        note(route=rule.rule, **({} if game is None else {"game": game}))


def current_id() -> str | None:
    """The id of the request being answered, None outside one."""
    found = logs.REQUEST.get()
    return None if found is None else found["request_id"]


class Traced:
    """The outermost WSGI middleware: the request's id, its line and its duration, and the
    security headers every answer carries (`service.headers`: `ALWAYS`, and `SECRET` when the
    request carried a token)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]):
        self.app = app
        # Each (route, method, status)'s histogram, looked up once: a few dozen of them.
        self._timers: dict[tuple[str, str, str], Any] = {}

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        began = time.perf_counter()
        rid = logs.request_id(environ.get("HTTP_X_REQUEST_ID"))
        fields: dict[str, Any] = {"request_id": rid}
        token = logs.REQUEST.set(fields)
        status = ["500"]
        secure = SECRET if "HTTP_AUTHORIZATION" in environ else ALWAYS

        def started(line: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            status[0] = line[:3]
            headers.extend(secure)
            headers.append((_HEADER, rid))
            return start_response(line, headers, *exc_info)

        try:
            return self.app(environ, started)
        finally:
            took = time.perf_counter() - began
            method, route = environ["REQUEST_METHOD"], fields.setdefault("route", _UNMATCHED)
            key = (route, method, status[0])
            timer = self._timers.get(key)
            if timer is None:
                timer = self._timers[key] = REQUEST_SECONDS.labels(*key)
            timer.observe(took)
            logs.event(_log, "request", method=method, status=int(status[0]),
                       ms=round(took * 1000, 2))
            logs.REQUEST.reset(token)
