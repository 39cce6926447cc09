"""The log as a stream: NDJSON a line an entry, or server-sent events that follow a live game.

Following (`?follow=1`) sends the entries after `after`, then blocks on the log stream
(`XREAD BLOCK`, no polling) and sends each entry as it lands, redacted for the caller like
every read. A connection lives at most `FOLLOW_SECONDS` (and ends once the game is finished),
so a gunicorn thread is never held for good: the client reconnects with `after` set to the last
seq it got, or, with server-sent events, with the `Last-Event-ID` header that EventSource sends
by itself.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import Any

import orjson
from flask import Response

from engine import log
from engine.visibility import redact
from service.auth import Seen
from service.problems import Problem
from store import Store
from store.connection import LONGEST_WAIT_S

NDJSON = "application/x-ndjson"
SSE = "text/event-stream"
# The two forms as /openapi.json describes them.
NDJSON_LINES = {"type": "string", "description": "one redacted entry a line"}
SSE_EVENTS = {
    "type": "string",
    "description": "server-sent events: `id` is the entry's seq, `data` its JSON",
}
# Each blocking read stays under the Redis client's read timeout; between reads an event
# stream gets a comment line, so a client that went away is noticed then, not at the end.
_SLICE_S = min(LONGEST_WAIT_S, 5)
_PAGE = 500


def ndjson(entries: Iterable[dict[str, Any] | None]) -> Response:
    def lines() -> Iterator[bytes]:
        for entry in entries:
            if entry is not None:
                yield orjson.dumps(entry) + b"\n"

    return Response(lines(), mimetype=NDJSON)


def server_sent(entries: Iterable[dict[str, Any] | None]) -> Response:
    def events() -> Iterator[bytes]:
        yield b"retry: 1000\n\n"
        for entry in entries:
            if entry is None:
                yield b": waiting\n\n"
            else:
                yield b"id: %d\ndata: %s\n\n" % (entry["seq"], orjson.dumps(entry))

    return Response(events(), mimetype=SSE, headers={"Cache-Control": "no-cache"})


def resume_point(after: int | None, last_event_id: str | None) -> int:
    """Where a stream starts: `after`, else the Last-Event-ID of a reconnecting EventSource."""
    if after is not None:
        return after
    if last_event_id is None:
        return 0
    if not last_event_id.isdigit():
        raise Problem(400, "bad-last-event-id", "Last-Event-ID must be the seq of an entry")
    return int(last_event_id)


def following(
    store: Store, seen: Seen, after: int, lifetime_s: float
) -> Iterator[dict[str, Any] | None]:
    """Entries after `after` as they land, for at most `lifetime_s`; None while waiting."""
    deadline = time.monotonic() + lifetime_s
    finished = seen.finished
    while True:
        found = store.log.entries(seen.id, after, limit=_PAGE)
        for entry in found:
            yield redact(entry, seen.viewer)
        if found:
            after, finished = found[-1]["seq"], found[-1]["type"] == log.FINISHED
        left = deadline - time.monotonic()
        if finished or left <= 0:
            return
        if len(found) < _PAGE:
            # Returns at once when more has landed since the read above.
            timeout_ms = max(1, int(min(left, _SLICE_S) * 1000))
            if store.log.wait(seen.id, after, timeout_ms) == after:
                yield None
