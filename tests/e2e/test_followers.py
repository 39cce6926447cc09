"""Many followers on the Procfile's web: they share one reader of the log, hold no Redis
connection, and are forgotten the moment they leave.

Measured at scale (5,000 followers of a game and 100 of each of 20 others) by
`bench/followers.py`; here a few hundred, over real sockets, against one gunicorn process
whose pool (store.connection.POOL_SIZE) they outnumber.
"""

from __future__ import annotations

import random
import socket
import time
from urllib.parse import urlsplit

import pytest
import redis

from store.connection import POOL_SIZE
from tests.api import Game
from tests.e2e.served import serve

FOLLOWERS = POOL_SIZE * 2 + 50


@pytest.fixture(scope="module")
def http(redis_url):
    with serve({"REDIS_URL": redis_url, "TABLELOG_FOLLOW_SECONDS": "60"}) as client:
        yield client


def _game(http) -> Game:
    created = http.post("/v1/games", json={"game": "coloretto", "players": ["ann", "bob", "cid"],
                                            "seed": "followed"}).json
    return Game(http, created, {s["seat"]: s["token"] for s in created["seats"]})


def _follow(http, game: Game, count: int) -> list[socket.socket]:
    address = urlsplit(http.base)
    followers = []
    for i in range(count):
        # Spread over addresses, as many spectators are: one address may hold only so many
        # connections (TABLELOG_CONNECTIONS_PER_ADDRESS).
        follower = socket.create_connection((address.hostname, address.port), timeout=10,
                                            source_address=(f"127.0.0.{2 + i % 50}", 0))
        follower.sendall(f"GET {game.url('/events?follow=1')} HTTP/1.1\r\nHost: t\r\n"
                         "Accept: application/x-ndjson\r\n\r\n".encode())
        followers.append(follower)
    return followers


def _play(game: Game, moves: int) -> None:
    rnd = random.Random(2)
    for _ in range(moves):
        choice = rnd.choice(game.http.get(game.url("/legal-moves"), headers=game.table).json[
            "moves"])
        assert game.move(choice["seat"], choice["move"]).status_code == 201


def _until(condition, timeout_s: float = 10) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert condition()


def _waiting(http) -> int:
    return http.get("/healthz").json["following"]["waiting"]


def test_followers_beyond_the_pool_all_get_each_entry_and_the_service_still_answers(
        http, redis_url):
    game = _game(http)
    clients_before = redis.Redis.from_url(redis_url).info("clients")["connected_clients"]
    followers = _follow(http, game, FOLLOWERS)
    try:
        _until(lambda: _waiting(http) == FOLLOWERS)
        clients = redis.Redis.from_url(redis_url).info("clients")["connected_clients"]
        # The pool's (however many followers read their first entries at once) and the
        # hub's reader: a follower that waits holds none.
        assert clients - clients_before <= POOL_SIZE + 1
        version = http.get(game.url()).json["version"]
        started = time.monotonic()
        _play(game, 3)  # moves with their verdicts, while all of them wait
        assert time.monotonic() - started < 5
        last = http.get(game.url()).json["version"]
        for follower in followers:
            got = b""
            while f'"seq":{last},'.encode() not in got:
                got += follower.recv(65536)
            assert f'"seq":{version + 1},'.encode() in got
    finally:
        for follower in followers:
            follower.close()


def test_a_follower_that_leaves_is_forgotten_at_once(http):
    game = _game(http)
    followers = _follow(http, game, 50)
    _until(lambda: _waiting(http) == 50)
    for follower in followers:
        follower.close()
    started = time.monotonic()
    _until(lambda: _waiting(http) == 0, timeout_s=3)
    assert time.monotonic() - started < 1
