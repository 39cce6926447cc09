"""Crowds of followers against the Procfile's own web: a thousand streams cut off abruptly
leave no traceback in the web's log and no request waiting on the hub.

One gunicorn process on loopback (127.0.0.x are all loopback on Linux: a socket bound to one
connects from it); every socket has a timeout and every loop a bound.
"""

from __future__ import annotations

import socket
import struct
import time

from tests.api import create
from tests.e2e.served import serve
from tests.e2e.test_slow_clients import address_of

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


def _until(condition, times: int = 100) -> None:
    for _ in range(times):
        if condition():
            return
        time.sleep(0.1)


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
        _until(lambda: _following(http)["waiting"] == 0)
        waiting = _following(http)["waiting"]
        assert http.get("/healthz").status_code == 200
    written = log.read_text()
    assert "Traceback" not in written and "[ERROR]" not in written, written[-3000:]
    assert waiting == 0, "requests waiting on the hub"

