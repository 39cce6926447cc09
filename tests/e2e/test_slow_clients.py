"""Slow and greedy clients against the Procfile's own web (`service.server`), with no proxy in
front: a body slower than its rate is answered 408 and its connection closed, on the route
reading it through Flask and on the move lane alike; a body at its rate is read whole
however long it takes; one address past its connections' cap is answered 429 and closed; and
meanwhile `/healthz` and moves from another address answer within a second.

The budgets are set small (a body has 2 s and a second more per 1,000 bytes, an address 30
connections) so that the test is quick; every socket has a timeout and every loop a bound.
127.0.0.x are all loopback on Linux: a socket bound to one connects from it.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import threading
import time

import pytest

from bench.slow_clients import Trickle
from tests.api import create
from tests.conftest import ROOT
from tests.e2e.served import serve
from tests.e2e.test_refusals_over_http import post_head, read_answer

BODY_S, RATE, CAP = 2, 1000, 30


@pytest.fixture(scope="module")
def http(redis_url):
    # The uploads' own cap (two at once an address, service/uploads.py) is lifted: here the
    # slow bodies are uploads, and it is the body's time bound that is under test.
    budgets = {"TABLELOG_BODY_SECONDS": str(BODY_S), "TABLELOG_BODY_RATE": str(RATE),
               "TABLELOG_CONNECTIONS_PER_ADDRESS": str(CAP), "TABLELOG_UPLOADS_AT_ONCE": "1000"}
    with serve({"REDIS_URL": redis_url, **budgets}) as client:
        yield client


def address_of(http) -> tuple[str, int]:
    host, port = http.base.removeprefix("http://").split(":")
    return host, int(port)


def connected(http, source: str = "127.0.0.1") -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.settimeout(10)
    sock.connect(address_of(http))
    return sock


def trickled(sock: socket.socket, head: bytes, every: float, most: int
             ) -> tuple[int, dict[str, str], bytes]:
    """Send `head`, then a byte every `every` seconds (at most `most` times, stopping once
    the server answers) and read the answer."""
    sock.sendall(head)
    for _ in range(most):
        sock.settimeout(every)
        try:
            if sock.recv(1, socket.MSG_PEEK):
                break
        except TimeoutError:
            pass
        sock.sendall(b" ")
    sock.settimeout(10)
    return read_answer(sock)


def assert_too_slow_and_closed(sock, answered) -> None:
    status, headers, body = answered
    assert status == 408 and json.loads(body)["code"] == "body-too-slow"
    assert headers["Connection"] == "close"
    assert headers["Content-Type"] == "application/problem+json"
    # Closed by the server: an orderly end, or a reset when a trickled byte of ours reached it
    # after its answer (a socket closed with unread bytes resets; seen on a loaded machine).
    try:
        assert sock.recv(1) == b""
    except ConnectionResetError:
        pass


def test_a_body_slower_than_its_rate_is_answered_408_and_its_connection_closed(http):
    with connected(http) as sock:
        began = time.monotonic()
        answered = trickled(sock, post_head("/v1/replays/verify", "Content-Length: 1000"),
                            every=0.25, most=40)
        assert BODY_S <= time.monotonic() - began < BODY_S + 2
        assert_too_slow_and_closed(sock, answered)


def test_a_slow_move_on_the_express_lane_is_answered_408_and_the_game_goes_on(http):
    game = create(http)
    # The first move teaches the (one) web process the game as the table token sees it: the
    # next move with that token takes the move lane, which reads its body itself.
    assert table_move(http, game).status_code == 201
    choice = http.get(game.url("/legal-moves"), headers=game.table).json["moves"][0]
    body = json.dumps(choice).encode()
    head = post_head(game.url("/moves?wait=5"), f"Content-Length: {len(body)}",
                     f"Authorization: Bearer {game.created['table_token']}")
    with connected(http) as sock:
        sock.sendall(head + body[:1])  # and the rest never
        assert_too_slow_and_closed(sock, read_answer(sock))
    assert table_move(http, game).status_code == 201


def table_move(http, game):
    """The first legal move, posted with the table token."""
    choice = http.get(game.url("/legal-moves"), headers=game.table).json["moves"][0]
    return http.post(game.url("/moves?wait=5"), json=choice, headers=game.table)


def test_a_body_at_its_rate_is_read_whole_though_it_takes_longer_than_the_base(http):
    body = b'{"format": "tablelog-replay/1", "pad": "' + b" " * 3950 + b'"}'
    pieces = [body[i:i + 500] for i in range(0, len(body), 500)]  # 1,667 bytes a second
    with connected(http) as sock:
        began = time.monotonic()
        sock.sendall(post_head("/v1/replays/verify", f"Content-Length: {len(body)}"))
        for piece in pieces:
            time.sleep(0.3)
            sock.sendall(piece)
        status, _, answer = read_answer(sock)
        assert time.monotonic() - began > BODY_S
    assert status == 400 and json.loads(answer)["code"] == "invalid-request"  # read, judged


def test_an_address_past_its_cap_is_answered_429_and_closed_while_others_are_served(http):
    trickle = Trickle(address_of(http), drip=0.5)
    try:
        for _ in range(CAP):
            trickle.open("127.0.0.2")
        trickle.run(time.monotonic() + 0.3)
        assert len(trickle.held) == CAP
        with connected(http, "127.0.0.2") as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: tablelog\r\n\r\n")
            status, headers, body = read_answer(sock)
            assert status == 429 and json.loads(body)["code"] == "too-many-connections"
            assert headers["Connection"] == "close"
            assert headers["X-Content-Type-Options"] == "nosniff"
            assert sock.recv(1) == b""
        with connected(http, "127.0.0.3") as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: tablelog\r\n\r\n")
            assert read_answer(sock)[0] == 200
        trickle.run(time.monotonic() + BODY_S + 2)
        assert trickle.statuses == {408: CAP} and not trickle.held
    finally:
        trickle.close()


def test_healthz_and_moves_answer_within_a_second_while_slow_bodies_press(http):
    """200 slow bodies from one address and one from each of 100 others, a byte every half
    second, each opened again a second after it is closed, for 5 s: the one address holds
    its cap and is refused the rest; every held body is answered 408 in its time; and a
    client at 127.0.0.1 sees its reads, `/healthz` and its moves answered within a second
    each throughout."""
    trickle = Trickle(address_of(http), drip=0.5, reopen=1)
    game = create(http)
    pressing = threading.Thread(target=_press, args=(trickle, time.monotonic() + 5))
    pressing.start()
    took: list[float] = []
    try:
        time.sleep(0.5)  # under way
        while pressing.is_alive() and len(took) < 300:
            choice = timed(took, http.get, game.url("/legal-moves"), headers=game.table)
            assert choice.status_code == 200
            assert timed(took, http.get, "/healthz").status_code == 200
            move = choice.json["moves"][0]
            assert timed(took, game.move, move["seat"], move["move"]).status_code == 201
    finally:
        pressing.join(30)
        trickle.close()
    assert len(took) > 10 and max(took) < 1
    assert trickle.statuses[429] > 100 and trickle.statuses[408] >= CAP
    assert set(trickle.statuses) <= {408, 429}
    assert max(trickle.answered_in[408]) < BODY_S + 2


def timed(took: list[float], ask, *args, **kwargs):
    began = time.monotonic()
    answer = ask(*args, **kwargs)
    took.append(time.monotonic() - began)
    return answer


def _press(trickle: Trickle, until: float) -> None:
    for _ in range(200):
        trickle.open("127.0.0.2")
    for n in range(100):
        trickle.open(f"127.0.0.{10 + n}")
    trickle.run(until)


def test_the_slow_clients_benchmark_prints_its_figures():
    """`bench.slow_clients` for a second or two, so that it never rots: its figures are
    printed, never checked (a benchmark, not a test of timing)."""
    run = subprocess.run(
        [sys.executable, "-m", "bench.slow_clients", "--one", "300", "--many", "5",
         "--seconds", "2", "--quiet", "1", "--ramp", "0.5", "--drip", "0.5"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    latency = r"p50\s+[\d.]+ ms\s+p99\s+[\d.]+ ms\s+max\s+[\d.]+ ms"
    assert len(re.findall(rf"/healthz\s+\d+ asked\s+{latency}", run.stdout)) == 2, run.stdout
    assert len(re.findall(rf"move\s+\d+ asked\s+{latency}", run.stdout)) == 2, run.stdout
    assert re.search(rf"429 after\s+{latency}", run.stdout), run.stdout
