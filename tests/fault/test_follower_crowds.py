"""Crowds of followers against the Procfile's own web: past its share of the process's
connections a new follower is refused 503 `followers-full` at once, while `/healthz` and moves
are answered; and a thousand streams cut off abruptly leave no traceback in the web's log and
nothing held (no follow stream counted, no request waiting on the hub).

One gunicorn process on loopback (127.0.0.x are all loopback on Linux: a socket bound to one
connects from it); every socket has a timeout and every loop a bound. The budget is set small
(50 followers of 100 connections) so that the test is quick; follow streams live a minute, so
no place frees up while the test runs.
"""

from __future__ import annotations

import json
import socket
import struct
import time

from tests.api import create
from tests.e2e.served import serve
from tests.e2e.test_refusals_over_http import read_answer
from tests.e2e.test_slow_clients import address_of, table_move

CONNECTIONS, SHARE = 100, 0.5
FOLLOWERS = int(CONNECTIONS * SHARE)
ABRUPT = 1000


def _following(http) -> dict:
    return http.get("/healthz").json["following"]


def _follow(http, path: str, address: int) -> socket.socket:
    sock = socket.socket()
    sock.settimeout(10)  # a bound, not a timing: no read waits for good
    sock.bind((f"127.0.0.{address}", 0))
    sock.connect(address_of(http))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\n\r\n".encode())
    return sock


def _head(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        got = sock.recv(4096)
        assert got, "closed before its answer's head"
        data += got
    return data.partition(b"\r\n\r\n")[0]


def _until(condition, times: int = 100) -> None:
    for _ in range(times):
        if condition():
            return
        time.sleep(0.1)


def test_past_its_share_a_follower_is_refused_at_once_while_healthz_and_moves_answer(redis_url):
    budget = {"WEB_CONNECTIONS": str(CONNECTIONS), "TABLELOG_FOLLOWERS_SHARE": str(SHARE),
              "TABLELOG_FOLLOW_SECONDS": "60"}
    with serve({"REDIS_URL": redis_url, **budget}) as http:
        game = create(http)
        path = game.url("/events?follow=1")
        held = []
        try:
            for i in range(FOLLOWERS):
                held.append(_follow(http, path, 2 + i % 10))
                assert _head(held[-1]).startswith(b"HTTP/1.1 200 ")
            # More than the process's connections in all: each refused one is answered while
            # every place is held (none frees for a minute), and its connection closed.
            for i in range(CONNECTIONS):
                with _follow(http, path, 20 + i % 10) as refused:
                    status, headers, body = read_answer(refused)
                    assert status == 503 and json.loads(body)["code"] == "followers-full"
                    assert int(headers["Retry-After"]) > 0
                    assert headers["Connection"] == "close"
                    assert refused.recv(1) == b""
            assert _following(http)["streams"] == FOLLOWERS
            assert _following(http)["most_streams"] == FOLLOWERS
            assert http.get("/healthz").status_code == 200
            assert http.get(game.url("/legal-moves"), headers=game.table).status_code == 200
            assert table_move(http, game).status_code == 201
            version = http.get(game.url()).json["version"]
            for follower in held:  # the followers held were served meanwhile
                got = b""
                while f'"seq":{version},'.encode() not in got:
                    piece = follower.recv(65536)
                    assert piece, "a held follower's stream ended"
                    got += piece
        finally:
            for follower in held:
                follower.close()
        _until(lambda: _following(http)["streams"] == 0)
        assert _following(http)["streams"] == 0


def test_streams_closed_abruptly_leave_no_traceback_and_nothing_held(redis_url, tmp_path):
    """Each client resets its connection (SO_LINGER 0): half as soon as the request is sent,
    often before the server wrote anything, half once the answer's first byte arrived."""
    log = tmp_path / "web.log"
    with serve({"REDIS_URL": redis_url, "TABLELOG_FOLLOW_SECONDS": "60"}, web_log=log) as http:
        game = create(http)
        path = game.url("/events?follow=1")
        for i in range(ABRUPT):
            with _follow(http, path, 2 + i % 50) as follower:
                if i % 2:
                    follower.recv(1)
                follower.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        _until(lambda: _held(http) == (0, 0))
        held = _held(http)
        assert http.get("/healthz").status_code == 200
    written = log.read_text()
    assert "Traceback" not in written and '"level":"error"' not in written, written[-3000:]
    assert held == (0, 0), "requests waiting on the hub, follow streams counted"


def _held(http) -> tuple[int, int | None]:
    following = _following(http)
    return following["waiting"], following.get("streams")
