"""A followed game's audience on the Procfile's web: one greenlet writes each batch to every
follower's socket, each viewer's own bytes, and a follower that does not read holds up nobody.

Over real sockets against one gunicorn process (`service.audience`); the streams are read raw,
chunked framing included, so a piece written past gunicorn that broke the framing would show.
A socket that would block (which hands its follower back to its own greenlet) is not reached
here: loopback's send buffers grow to megabytes before a reader that stopped holds one up.
"""

from __future__ import annotations

import random
import socket
import time
from urllib.parse import urlsplit

import orjson
import pytest

from tests.api import Game, bearer
from tests.e2e.served import serve


@pytest.fixture(scope="module")
def http(redis_url):
    with serve({"REDIS_URL": redis_url, "TABLELOG_FOLLOW_SECONDS": "60"}) as client:
        yield client


def _game(http, seed: str) -> Game:
    created = http.post("/v1/games", json={"game": "coloretto", "players": ["ann", "bob", "cid"],
                                            "seed": seed}).json
    return Game(http, created, {s["seat"]: s["token"] for s in created["seats"]})


def _follow(http, game: Game, accept: str, token: str | None = None, address: int = 2,
            receive_buffer: int | None = None, version: str = "1.1") -> socket.socket:
    base = urlsplit(http.base)
    follower = socket.socket()
    if receive_buffer:  # set before connecting: the window the server may fill
        follower.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    follower.settimeout(10)
    follower.bind((f"127.0.0.{address}", 0))
    follower.connect((base.hostname, base.port))
    authorization = f"Authorization: {bearer(token)['Authorization']}\r\n" if token else ""
    follower.sendall(f"GET {game.url('/events?follow=1')} HTTP/{version}\r\nHost: t\r\n"
                     f"Accept: {accept}\r\n{authorization}\r\n".encode())
    return follower


def _entries(follower: socket.socket, last: int, chunked: bool = True) -> list[dict]:
    """The stream's entries up to seq `last`, read through HTTP/1.1's chunked framing (or
    HTTP/1.0's body as it is)."""
    raw = b""
    while True:
        raw += follower.recv(65536)
        head, _, body = raw.partition(b"\r\n\r\n")
        entries = _unchunked(body) if chunked else _parsed(body)
        if entries and entries[-1]["seq"] >= last:
            assert head.startswith(b"HTTP/1.") and b" 200 " in head.split(b"\r\n")[0]
            assert (b"transfer-encoding: chunked" in head.lower()) == chunked
            return entries


def _unchunked(body: bytes) -> list[dict]:
    """The entries in the whole chunks received so far."""
    data = b""
    while b"\r\n" in body:
        size_line, _, rest = body.partition(b"\r\n")
        size = int(size_line, 16)
        if len(rest) < size + 2:
            break
        assert rest[size:size + 2] == b"\r\n", "a chunk's data ends with CRLF"
        data, body = data + rest[:size], rest[size + 2:]
    return _parsed(data)


def _parsed(data: bytes) -> list[dict]:
    """The entries of the whole lines of a stream's body, NDJSON or server-sent events."""
    lines = [line.removeprefix(b"data: ") for line in data.split(b"\n")[:-1]]
    return [orjson.loads(line) for line in lines if line.startswith(b"{")]


def test_a_seat_and_spectators_in_one_audience_each_get_their_own_view(http):
    game = _game(http, "audience-views")
    seat = _follow(http, game, "text/event-stream", game.tokens[0])
    spectators = [_follow(http, game, accept, address=3 + i)
                  for i, accept in enumerate(["text/event-stream", "application/x-ndjson"] * 3)]
    time.sleep(0.5)  # all of them caught up and in the audience
    version = http.get(game.url()).json["version"]
    assert game.move(0, {"type": "draw"}).status_code == 201
    last = http.get(game.url()).json["version"]
    mine = {e["seq"]: e for e in _entries(seat, last)}
    assert mine[version + 1]["move"] == {"type": "draw"}
    for spectator in spectators:
        theirs = {e["seq"]: e for e in _entries(spectator, last)}
        assert sorted(theirs) == list(range(1, last + 1))
        assert theirs[version + 1]["type"] == "move-submitted"
        assert theirs[version + 1]["move"] is None, "a spectator never sees it before accepted"
    for follower in (seat, *spectators):
        follower.close()


def test_a_follower_that_does_not_read_holds_up_nobody_and_gets_every_entry_once_it_reads(http):
    game = _game(http, "audience-slow")
    slow = _follow(http, game, "text/event-stream", receive_buffer=2048)
    readers = [_follow(http, game, "text/event-stream", address=3 + i) for i in range(20)]
    time.sleep(0.5)
    game.play(random.Random(4), 60)
    last = http.get(game.url()).json["version"]
    started = time.monotonic()
    for reader in readers:  # not held up by the one that does not read
        assert [e["seq"] for e in _entries(reader, last)] == list(range(1, last + 1))
    assert time.monotonic() - started < 5
    assert [e["seq"] for e in _entries(slow, last)] == list(range(1, last + 1))
    for follower in (slow, *readers):
        follower.close()


def test_an_http_1_0_follower_gets_its_entries_unchunked(http):
    game = _game(http, "audience-http-1.0")
    old, new = (_follow(http, game, "text/event-stream", address=2 + i, version=version)
                for i, version in enumerate(["1.0", "1.1"]))
    time.sleep(0.5)
    assert game.move(0, {"type": "draw"}).status_code == 201
    last = http.get(game.url()).json["version"]
    assert [e["seq"] for e in _entries(old, last, chunked=False)] == list(range(1, last + 1))
    assert [e["seq"] for e in _entries(new, last)] == list(range(1, last + 1))
    old.close()
    new.close()
