"""The log as a stream: NDJSON a line an entry, or server-sent events that follow a live game.

Following (`?follow=1`) sends the entries after `after`, then waits on the process's hub
(`store.hub`: one `XREAD BLOCK` for every followed game, no polling, no Redis connection held
by a follower) and sends each entry as it lands, redacted for the caller like every read. A
connection lives at most `FOLLOW_SECONDS` (and ends once the game is finished), so a greenlet
is never held for good: the client reconnects with `after` set to the last seq it got, or,
with server-sent events, with the `Last-Event-ID` header that EventSource sends by itself.
"""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Iterable, Iterator
from typing import Any

import gevent
import orjson
from flask import Response
from gevent.monkey import is_module_patched

from engine import log
from engine.game import Viewer
from engine.visibility import redact
from schemas import api
from service.auth import Seen
from service.problems import Problem
from store import Store
from store.hub import Waiter

NDJSON = "application/x-ndjson"
SSE = "text/event-stream"
# The two forms as /openapi.json describes them.
NDJSON_LINES = {"type": "string", "description": "one redacted entry a line"}
SSE_EVENTS = {
    "type": "string",
    "description": "server-sent events: `id` is the entry's seq, `data` its JSON",
}
# A follower waiting this long with nothing new gets a comment line (an event stream) or an
# empty one, so a client that went away is noticed then.
_SLICE_S = 5
_PAGE = 500


# A batch of entries as sent: each one's seq and its JSON, redacted for the caller. A follower
# gets what landed at once in one batch, written to its socket in one piece.
Batch = list[tuple[int, bytes]]


def batch_of(entries: Iterable[dict[str, Any]]) -> Batch:
    return [(entry["seq"], orjson.dumps(entry)) for entry in entries]


def ndjson(batches: Iterable[Batch | None]) -> Response:
    def lines() -> Iterator[bytes]:
        for batch in batches:
            if batch:
                yield b"".join(line + b"\n" for _, line in batch)

    return Response(lines(), mimetype=NDJSON)


def server_sent(batches: Iterable[Batch | None]) -> Response:
    def events() -> Iterator[bytes]:
        yield b"retry: 1000\n\n"
        for batch in batches:
            if batch is None:
                yield b": waiting\n\n"
            elif batch:
                yield b"".join(b"id: %d\ndata: %s\n\n" % event for event in batch)

    return Response(events(), mimetype=SSE, headers={"Cache-Control": "no-cache"})


# A seq as Last-Event-ID sends it: ASCII digits, within what a log can hold (api.HIGHEST_SEQ).
_SEQ = re.compile(api.LAST_EVENT_ID)


# Each entry a process sends followers is redacted and encoded once for each viewer, not once
# for each follower: 5,000 spectators of a game share one encoding of each new entry. Keyed by
# the entry's hash too (a failover that lost entries may give their seqs to others); emptied
# past this many.
_ENCODINGS_KEPT = 4096
_encodings: dict[tuple[str, int, str, Viewer], bytes] = {}


def _encoded(game_id: str, entry: dict[str, Any], viewer: Viewer) -> bytes:
    key = (game_id, entry["seq"], entry["hash"], viewer)
    found = _encodings.get(key)
    if found is None:
        if len(_encodings) >= _ENCODINGS_KEPT:
            _encodings.clear()
        found = _encodings[key] = orjson.dumps(redact(entry, viewer))
    return found


def resume_point(after: int | None, last_event_id: str | None) -> int:
    """Where a stream starts: `after`, else the Last-Event-ID of a reconnecting EventSource
    (checked even when `after` wins: a request is refused for what it sends, whatever it
    uses)."""
    if last_event_id is not None and not _SEQ.fullmatch(last_event_id):
        raise Problem(400, "bad-last-event-id", "Last-Event-ID must be the seq of an entry")
    if after is not None:
        return after
    return int(last_event_id or 0)


class Client:
    """A follower's client: its waiter is let go the moment the client closes the connection.

    Under gunicorn's gevent worker (the Procfile's web) a greenlet watches the client's
    socket for its end; elsewhere (the Flask test client, werkzeug's server) a client that
    left is noticed when the next line is written to it."""

    def __init__(self, environ: dict[str, Any]):
        self.waiter = Waiter()
        sock = environ.get("gunicorn.socket")
        self._watch = (gevent.spawn(self._watch_end, sock)
                       if sock is not None and is_module_patched("socket") else None)

    def _watch_end(self, sock: socket.socket) -> None:
        try:
            gevent.socket.wait_read(sock.fileno())
            # Readable: its end (nothing to peek), or bytes a follower should not send.
            if sock.recv(1, socket.MSG_PEEK):
                return
        except OSError:
            pass
        self.waiter.leave()

    def forget(self) -> None:
        if self._watch is not None:
            self._watch.kill(block=False)


def following(
    store: Store, seen: Seen, after: int, lifetime_s: float, client: Client
) -> Iterator[Batch | None]:
    """Entries after `after` as they land, in batches, for at most `lifetime_s`; None while
    waiting.

    It reads the log itself until it has caught up, then waits on the process's hub, which
    hands it what lands: a follower holds no Redis connection while it waits."""
    deadline = time.monotonic() + lifetime_s
    finished, caught_up = seen.finished, False
    try:
        while True:
            if caught_up:
                left = min(deadline - time.monotonic(), _SLICE_S)
                found = store.hub.wait(seen.id, after, left, client.waiter) if left > 0 else []
            else:
                found = store.log.entries(seen.id, after, limit=_PAGE)
                caught_up = len(found) < _PAGE
            if found:
                yield [(e["seq"], _encoded(seen.id, e, seen.viewer)) for e in found]
                after, finished = found[-1]["seq"], found[-1]["type"] == log.FINISHED
            if finished or client.waiter.gone or time.monotonic() >= deadline:
                return
            if not found and caught_up:
                yield None
    finally:
        client.forget()
