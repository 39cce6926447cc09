"""The web's gunicorn worker (`gunicorn.conf.py`): gevent's, bounded against slow and greedy
clients, whom no setting of gunicorn's bounds.

gunicorn gives a request's head `keepalive` seconds (2) to arrive, then nothing more: a body
trickling in a byte every few seconds held its greenlet, and its connection, for as long as
the client liked, and one address could open as many as the process serves, until `/healthz`
stopped answering (docs/scaling.md, "Slow and greedy clients"). So here:

- A body has `TABLELOG_BODY_SECONDS` (10) from the request's arrival, and one second more for
  every `TABLELOG_BODY_RATE` bytes (16 KiB) of it received, as Apache's mod_reqtimeout counts:
  a client sending at that rate or faster is never cut off, whatever its body's size, and one
  sending slower is answered 408 `body-too-slow` and its connection closed. The bound runs
  while the app reads the body (`wsgi.input`), so the 408 is the app's own problem+json.
- One address holds at most `TABLELOG_CONNECTIONS_PER_ADDRESS` (100; 0 for no cap) open
  connections to one web process; past that a connection is answered 429
  `too-many-connections` and closed before any of its request is read. Per process: with
  `WEB_CONCURRENCY` processes one address holds at most that many times the cap. Loopback
  counts like any address; behind a reverse proxy every client shares the proxy's address,
  so there the cap is the proxy's to enforce (docs/scaling.md).

- Follow streams hold at most `TABLELOG_FOLLOWERS_SHARE` (0.8) of the process's connections
  (`--worker-connections`, the Procfile's `WEB_CONNECTIONS`); past it a new follower is
  answered 503 `followers-full` (`service.streams.follow`), and the connections left are every
  other request's: a crowd of spectators no longer holds every connection while `/healthz`,
  reads and moves wait in the listen queue. A follower costs a greenlet and a socket, so the
  Procfile gives a process 10,000 connections: the process's soft limit of file descriptors is
  raised to what they need (up to its hard limit), and the share is of the connections that
  fit under it.

The cost on a request is a wrapper and a timer on a request with a body (docs/benchmarks.md,
"Where a verdict's time goes", its last paragraph), and two
dict updates a connection: nothing on the path of a move grows with the load. What the process
holds (its followers, the requests waiting on games' logs) is written to its metrics once a
second (`telemetry.metrics`), by a greenlet of its own, not by the requests; the connections it
refuses are counted as they are.

It also hands the app each answer's way past its own writes (`Through`, under `THROUGH` in the
environ): a followed game's audience (`service.audience`) writes a batch to thousands of
followers' sockets itself, framed as gunicorn frames a piece of a streamed body.
"""

from __future__ import annotations

import os
import resource
import socket
import time
from collections.abc import Callable, Iterator
from http import HTTPStatus
from typing import Any

import gevent
from gunicorn.workers.ggevent import GeventWorker

from schemas.api import BODY_RATE, BODY_SECONDS, CONNECTIONS_PER_ADDRESS, FOLLOWERS_SHARE
from service.at_once import AtOnce
from service.audience import THROUGH
from service.headers import ALWAYS
from service.problems import PROBLEM_JSON, Problem, problem_bytes
from service.streams import FOLLOWERS, Followers, waiting_now
from telemetry.metrics import FOLLOWERS as FOLLOWING
from telemetry.metrics import FOLLOWERS_MOST, REFUSALS, WAITING

# How long a refused connection is read (and what it sent dropped) after its answer, so that
# closing it does not reset it before the client has read that answer.
_LINGER_S, _LINGER_BYTES = 0.5, 64 << 10
# How often a process writes what it holds to its metrics.
_SAMPLE_S = 1.0
# The file descriptors a web process holds besides its clients' connections: its Redis pool
# (store.connection.POOL_SIZE, 100), the hub's readers, the listening socket, logs.
_OWN_DESCRIPTORS = 256


def refusal(status: int, code: str, detail: str) -> bytes:
    """A whole HTTP answer refusing a request, written to the socket by the server itself:
    problem+json, like every refusal of the app, and the connection closed after it."""
    body = problem_bytes(status, code, detail)
    headers = [("Connection", "close"), ("Content-Type", PROBLEM_JSON),
               ("Content-Length", str(len(body))), *ALWAYS]
    head = "".join(f"{name}: {value}\r\n" for name, value in headers)
    return f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n{head}\r\n".encode() + body


class Through:
    """A streamed answer's body, written to its socket past gunicorn, once gunicorn has sent
    the answer's head: each piece framed as gunicorn frames it (a chunk of HTTP/1.1's chunked
    encoding, or as it is for HTTP/1.0). Only while the app holds the answer's iterator, so
    that gunicorn writes nothing meanwhile."""

    def __init__(self, response: Any):
        self._response = response

    def framing(self) -> Callable[[bytes], bytes] | None:
        """How a piece is framed on the socket; None while the head is not sent."""
        if not self._response.headers_sent:
            return None
        return _chunk if self._response.chunked else _as_is

    def close_after(self) -> None:
        """Have gunicorn close the connection once this answer is sent (`Connection: close`,
        a header it does not take from the app)."""
        self._response.force_close()


def _chunk(piece: bytes) -> bytes:
    return b"%X\r\n%s\r\n" % (len(piece), piece)


def _as_is(piece: bytes) -> bytes:
    return piece


def _setting(name: str, default: float) -> float:
    return float(os.environ.get(f"TABLELOG_{name}", default))


class WebProcess(GeventWorker):
    """gunicorn's gevent worker, counting each address's connections and timing bodies."""

    def init_process(self) -> None:
        self.body_seconds = _setting("BODY_SECONDS", BODY_SECONDS)
        self.body_rate = _setting("BODY_RATE", BODY_RATE)
        self.most = int(_setting("CONNECTIONS_PER_ADDRESS", CONNECTIONS_PER_ADDRESS))
        self.too_many = refusal(429, "too-many-connections", (
            f"this address holds {self.most} connections to this web process already, the"
            " most one address may: close one, or wait for one to end"))
        self.held = AtOnce(self.most)
        share = _setting("FOLLOWERS_SHARE", FOLLOWERS_SHARE)
        if not 0 <= share <= 1:
            raise SystemExit(f"TABLELOG_FOLLOWERS_SHARE is {share:g}: a share, from 0 to 1")
        self.followers = Followers(int(share * self._connections()))
        super().init_process()

    def _connections(self) -> int:
        """The connections this process can hold: `worker_connections`, or as many as its
        file descriptors allow, once its soft limit is raised as far as its hard one lets."""
        wanted = self.worker_connections + _OWN_DESCRIPTORS
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != resource.RLIM_INFINITY and soft < wanted:
            soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        if soft == resource.RLIM_INFINITY or soft >= wanted:
            return self.worker_connections
        fit = max(soft - _OWN_DESCRIPTORS, 0)
        self.log.warning("%d connections fit in this process's %d file descriptors (ulimit -n),"
                         " not %d: followers get a share of those", fit, soft,
                         self.worker_connections)
        return fit

    def load_wsgi(self) -> None:
        super().load_wsgi()
        app, followers = self.wsgi, self.followers

        def through(environ: dict[str, Any], start_response: Any) -> Any:
            # gunicorn's start_response is its answer's method: the answer is what frames.
            environ[THROUGH] = Through(start_response.__self__)
            environ[FOLLOWERS] = followers
            return app(environ, start_response)

        self.wsgi = through
        gevent.spawn(_sample, app, followers)

    def handle(self, listener: Any, client: socket.socket, addr: Any) -> None:
        # A Unix socket's peer has no address: all of them count as one.
        peer = addr[0] if isinstance(addr, tuple) else None
        if not self.most:
            super().handle(listener, client, addr)
        elif not self.held.enter(peer):
            REFUSALS.labels("429", "too-many-connections").inc()
            _refuse(client, self.too_many)
        else:
            try:
                super().handle(listener, client, addr)
            finally:
                self.held.leave(peer)

    def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> bool:
        body = req.body
        # gunicorn hands the app `req.body` as wsgi.input; put back once answered, so that what
        # the app left unread is drained (under gunicorn's keepalive timeout) untimed here.
        req.body = Arriving(req, body, self.body_seconds, self.body_rate)
        try:
            return super().handle_request(listener_name, req, sock, addr)
        finally:
            req.body = body


def _sample(app: Any, followers: Followers) -> None:
    """Write what the process holds to its metrics, every `_SAMPLE_S`, for as long as it
    lives."""
    hub, audiences = app.extensions["store"].hub, app.extensions["audiences"]
    following, waiting = FOLLOWING.labels("web"), WAITING.labels("web")
    FOLLOWERS_MOST.labels("web").set(followers.most)
    while True:
        following.set(followers.held)
        waiting.set(waiting_now(hub.following(), audiences.following()))
        gevent.sleep(_SAMPLE_S)


def _refuse(client: socket.socket, answer: bytes) -> None:
    """Answer a connection refused before its request is read, then close it: its writing
    side at once, and, once what it sent is read or `_LINGER_S` has passed, the rest."""
    try:
        client.sendall(answer)
        client.shutdown(socket.SHUT_WR)
        with gevent.Timeout(_LINGER_S, False):
            dropped = 0
            while dropped < _LINGER_BYTES and (sent := client.recv(8192)):
                dropped += len(sent)
    except OSError:
        pass  # gone already: nothing to tell it
    finally:
        client.close()


class Arriving:
    """A request's body (gunicorn's `Body`), each read of it bounded by the time the body has
    left: `seconds` from the request's arrival, and a second more per `rate` bytes received.
    Past it the request is answered 408 and its connection closed."""

    def __init__(self, req: Any, body: Any, seconds: float, rate: float):
        self.req, self.body, self.seconds, self.rate = req, body, seconds, rate
        self.deadline = time.monotonic() + seconds
        # Reads of a large body are cut into pieces small enough that a client at `rate`
        # sends each well within the time it has left, however little was received before.
        self.piece = max(1024, min(64 << 10, int(seconds * rate / 2)))

    def read(self, size: int | None = None) -> bytes:
        left = None if size is None or size < 0 else size  # None: to the end
        pieces = []
        while True:
            want = self.piece if left is None else min(left, self.piece)
            piece = self._timed(self.body.read, want)
            pieces.append(piece)
            if left is not None:
                left -= len(piece)
            if len(piece) < want or left == 0:
                return b"".join(pieces)

    def readline(self, size: int | None = None) -> bytes:
        return self._timed(self.body.readline, size)

    def readlines(self, hint: int | None = None) -> list[bytes]:
        return list(self)

    def __iter__(self) -> Iterator[bytes]:
        while line := self.readline():
            yield line

    def _timed(self, read: Any, size: int | None) -> bytes:
        left = self.deadline - time.monotonic()
        if left <= 0:
            self._too_slow()
        timer = gevent.Timeout.start_new(left)
        try:
            got = read(size)
        except gevent.Timeout as fired:
            if fired is not timer:
                raise
            self._too_slow()
        finally:
            timer.close()
        self.deadline += len(got) / self.rate
        return got

    def _too_slow(self) -> None:
        self.req.force_close()
        raise Problem(408, "body-too-slow", (
            f"the body did not arrive in time: a body has {self.seconds:g} s, and a second more"
            f" for every {self.rate:g} bytes of it received"))
