"""Uploaded replay documents, checked for anyone: how much of a web process one address may take.

Verifying an upload (`POST /v1/replays/verify`) or stepping through one (`/v1/replays/views`)
rebuilds a whole game in the web's own process, on its request path: the longest game the options
allow, and more so an upload at its size limit (`schemas.api.LARGEST_UPLOAD`), costs many verdicts'
worth of CPU to load and re-judge. A gevent process runs one request's Python at a time, so a few
clients of one address uploading without pause held a player's verdicts up many times over
(docs/benchmarks.md, 2026-12-06, figures moved out of the code). No token is needed, so the rate
limit of an address bounds how many it asks a second, not how many run at once. So each web process
lets an address have `UPLOADS_AT_ONCE` of them running (2 unless configured), counted together
across both routes; past that, 429 `uploads-busy` with Retry-After, before the body is read. The
count is the process's own (a dict under a lock, which gevent's monkey-patching makes a greenlet's
lock), so it costs no round trip; an address gets that many in each web process.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import flask_smorest
from flask import Response, current_app

from schemas import api
from service.at_once import AtOnce
from service.limits import address
from service.problems import PROBLEM_JSON, Problem

# What a refused upload is told to wait: a verification takes a fraction of a second.
RETRY_AFTER_S = "1"


_BUSY = {"429": {
    "description": "this address has as many uploads being checked as it may (`uploads-busy`),"
                   " or is past a rate limit (`rate-limited`); Retry-After says when to ask again",
    "content": {PROBLEM_JSON: {"schema": api.Problem}},
    "headers": {"Retry-After": {"schema": {"type": "integer"}, "description": "seconds"}},
}}


def bounded(view: Callable[..., Response]) -> Callable[..., Response]:
    """Put right under the route: the upload runs only in one of its address's places
    (`AtOnce`), taken before the body is read and given back once answered."""

    @functools.wraps(view)
    def in_place(*args: Any, **kwargs: Any) -> Response:
        places: AtOnce = current_app.extensions["uploads"]
        who = address()
        if not places.enter(who):
            raise Problem(429, "uploads-busy", f"this address has {places.most} uploaded"
                          " replays being checked here already: send the next once one is"
                          " answered", headers={"Retry-After": RETRY_AFTER_S})
        try:
            return view(*args, **kwargs)
        finally:
            places.leave(who)

    return flask_smorest.Blueprint.doc(responses=_BUSY)(in_place)
