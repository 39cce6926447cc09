"""The log as a stream: NDJSON a line an entry, or server-sent events that follow a live game.

Following (`?follow=1`) sends the entries after `after`, then joins the game's audience in
the process (`service.audience`: one greenlet writes each batch to every follower's socket),
or, where there is none to join, waits on the process's hub itself (`store.hub`: one `XREAD
BLOCK` for every followed game, no polling, no Redis connection held by a follower); each entry
is sent as it lands, redacted for the caller like every read. A connection lives at most
`FOLLOW_SECONDS` (and ends once the game is finished), so a greenlet is never held for good:
the client reconnects with `after` set to the last seq it got, or, with server-sent events,
with the `Last-Event-ID` header that EventSource sends by itself.

A web process serves followers only in the places it keeps for them (`Followers`, a share of its
connections that `service.server` sets): a crowd of follow streams once filled every connection of
both processes, and `/healthz`, reads and moves waited behind them in the listen queue
(docs/benchmarks.md, 2026-12-06, figures moved out of the code). Past it a new follower is answered
503 `followers-full` with Retry-After at once, and its connection closed; the connections left are
every other request's.
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import gevent
import orjson
from flask import Response
from gevent.monkey import is_module_patched
from werkzeug.datastructures import MIMEAccept

from engine import log
from engine.game import Viewer
from engine.visibility import redact
from schemas import api
from service.audience import HEARTBEAT_S, THROUGH, Audiences, Member
from service.auth import CallersGame
from service.problems import Problem
from store import Store
from store.hub import Waiter

# The environ's key for the process's places for followers, where it keeps some
# (`service.server`); elsewhere (Flask's test client, werkzeug's server) followers are not
# counted.
FOLLOWERS = "tablelog.followers"
# What a follower refused for want of a place is told to wait: a stream lives at most
# FOLLOW_SECONDS (25 s), so places free up all the time under a crowd.
FOLLOWERS_RETRY_S = "5"

NDJSON = "application/x-ndjson"
SSE = "text/event-stream"
# The two forms as /openapi.json describes them.
NDJSON_LINES = {"type": "string", "description": "one redacted entry a line"}
SSE_EVENTS = {
    "type": "string",
    "description": "server-sent events: `id` is the entry's seq, `data` its JSON",
}
_PAGE = 500


# A batch of entries as sent: each one's seq and its JSON, redacted for the caller. A follower
# gets what landed at once in one batch, written to its socket in one piece.
Batch = list[tuple[int, bytes]]


def batch_of(entries: Iterable[dict[str, Any]]) -> Batch:
    return [(entry["seq"], orjson.dumps(entry)) for entry in entries]


@dataclass(frozen=True)
class Form:
    """How a stream writes its batches: NDJSON, or server-sent events."""

    mimetype: str
    opening: bytes  # written first, which sends the answer's head at once
    heartbeat: bytes  # written after a while with nothing new
    entries: Callable[[Batch], bytes]

    def piece(self, batch: Batch | None) -> bytes:
        return self.heartbeat if batch is None else self.entries(batch)

    def response(self, pieces: Iterable[bytes]) -> Response:
        headers = {"Cache-Control": "no-cache"} if self.mimetype == SSE else None
        return Response(pieces, mimetype=self.mimetype, headers=headers)


def _lines(batch: Batch) -> bytes:
    return b"".join(line + b"\n" for _, line in batch)


def _events(batch: Batch) -> bytes:
    return b"".join(b"id: %d\ndata: %s\n\n" % event for event in batch)


LINES = Form(NDJSON, b"", b"", _lines)
EVENTS = Form(SSE, b"retry: 1000\n\n", b": waiting\n\n", _events)


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


class Followers:
    """The follow streams a web process serves at once, at most `most`: counted in the process
    (a lock, which gevent's monkey-patching makes a greenlet's), so it costs no round trip."""

    def __init__(self, most: int):
        self.most = most
        self.held = 0
        self._lock = threading.Lock()

    def take(self) -> bool:
        """Take a place for a follower, if one is free."""
        with self._lock:
            if self.held >= self.most:
                return False
            self.held += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.held -= 1


def waiting_now(waiting: dict[str, int], attending: dict[str, int]) -> int:
    """The requests a web process holds waiting on games' logs, from those waiting on its hub
    (`Hub.following`) and the members of its audiences (`Audiences.following`): an audience
    waits on the hub as one request."""
    return max(sum(waiting.values()) - len(attending), 0) + sum(attending.values())


def follow(store: Store, audiences: Audiences, seen: CallersGame, after: int, lifetime_s: float,
           environ: dict[str, Any], form: Form, idle: Callable[[], object] | None = None
           ) -> Response:
    """A follow stream's answer, in one of the process's places for followers, or 503
    `followers-full` (its connection closed after it) when none is free. The place and the
    watch on the client's socket are given up once the answer is closed, whether or not its
    stream ever began (a client gone before its first piece is written closes it unstarted)."""
    places: Followers | None = environ.get(FOLLOWERS)
    if places is not None and not places.take():
        through = environ.get(THROUGH)
        if through is not None:
            through.close_after()  # a crowd's refused followers hold no connection
        raise Problem(503, "followers-full", (
            f"this web process serves {places.most} followers already, the most it may: try"
            f" again in {FOLLOWERS_RETRY_S} s"), headers={"Retry-After": FOLLOWERS_RETRY_S})
    try:
        client = Client(environ)
        response = form.response(following(store, audiences, seen, after, lifetime_s, client,
                                           form, idle))
    except BaseException:
        if places is not None:
            places.give_back()
        raise
    response.call_on_close(client.forget)
    if places is not None:
        response.call_on_close(places.give_back)
    return response


def followed_form(accepted: MIMEAccept) -> Form:
    """The form a follow stream is written in, by the request's Accept. A client that takes
    any type (`*/*`, or no Accept) gets NDJSON: 406 only when it takes neither stream (RFC 9110
    section 12.5.1)."""
    form = accepted.best_match([NDJSON, SSE]) if accepted else NDJSON
    if form not in (NDJSON, SSE):
        raise Problem(406, "not-acceptable", f"following streams the log: accept {SSE} or {NDJSON}")
    return LINES if form == NDJSON else EVENTS


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
        served = sock is not None and is_module_patched("socket")
        self._sock = sock
        self._watch = gevent.spawn(self._watch_end, sock) if served else None
        self._through = environ.get(THROUGH) if served else None  # service.server.Through

    def member(self, seen: CallersGame, after: int, form: Form) -> Member | None:
        """The follower as a member of its game's audience, where its socket may be written
        past the server (its answer's head sent); None where it may not."""
        framing = self._through.framing() if self._through is not None else None
        if framing is None:
            return None

        def wire(entries: list[dict[str, Any]] | None) -> bytes:
            piece = form.piece(None if entries is None else _batch(seen, entries))
            return framing(piece) if piece else b""  # an empty chunk would end the answer

        return Member(self.waiter, self._sock, (seen.viewer, form, framing), wire, after)

    def _watch_end(self, sock: socket.socket) -> None:
        """Wait for the client's socket to be readable, then let the waiter go, however the
        wait ends: the client closed its end, sent bytes a follower should not send, the
        socket was closed already (by the server, the stream over: its descriptor -1), or
        the watch was given up (`forget`)."""
        try:
            descriptor = sock.fileno()
            if descriptor >= 0:
                gevent.socket.wait_read(descriptor)
        except OSError:
            pass  # reset: its end too
        finally:
            self.waiter.leave()

    def forget(self) -> None:
        """The stream is over: its waiter leaves, and the watch on the socket is given up
        before the server closes it (one not yet started never starts)."""
        self.waiter.leave()
        if self._watch is not None:
            self._watch.kill(block=False)


def following(store: Store, audiences: Audiences, seen: CallersGame, after: int, lifetime_s: float,
              client: Client, form: Form, idle: Callable[[], object] | None = None
              ) -> Iterator[bytes]:
    """The stream's pieces: entries after `after` as they land, for at most `lifetime_s`;
    `idle` is called at each heartbeat of a stream waiting on the hub (an event's follower
    records the results of its games that ended: `service.event_handlers.follow`).

    It reads the log itself until it has caught up, then joins the game's audience, which
    writes to it until it hands it back; where there is no audience to join (not under
    gunicorn, or the audience is elsewhere in the log) it waits on the process's hub, which
    hands it what lands. A follower holds no Redis connection while it waits."""
    deadline = time.monotonic() + lifetime_s
    finished, caught_up = seen.finished, False
    try:
        yield form.opening
        while True:
            member = client.member(seen, after, form) if caught_up else None
            if not caught_up:
                found = store.log.entries(seen.id, after, limit=_PAGE)
                caught_up = len(found) < _PAGE
            elif member is not None and audiences.attend(seen.id, member, deadline):
                after, finished, found = member.after, member.finished, None
            else:
                left = min(deadline - time.monotonic(), HEARTBEAT_S)
                found = store.hub.wait(seen.id, after, left, client.waiter) if left > 0 else []
            if found:
                yield form.piece(_batch(seen, found))
                after, finished = found[-1]["seq"], found[-1]["type"] == log.FINISHED
            if finished or client.waiter.gone or time.monotonic() >= deadline:
                return
            if found == [] and caught_up:
                if idle is not None:
                    idle()
                yield form.heartbeat
    finally:
        client.forget()


def _batch(seen: CallersGame, entries: list[dict[str, Any]]) -> Batch:
    """Entries redacted for the caller and encoded (once a process for each viewer)."""
    return [(e["seq"], _encoded(seen.id, e, seen.viewer)) for e in entries]
