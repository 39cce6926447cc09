"""What the Procfile's own web refuses before the API reads a request: bodies too large for
their route (413, a Content-Length over the limit answered while the body is still unsent, a
chunked body cut off just past the limit), and what gunicorn itself refuses (malformed or
oversized request lines and headers), every one of them as problem+json.

Raw sockets, so that the test controls what is sent and when; every read is bounded by a
timeout.
"""

from __future__ import annotations

import json
import socket

import pytest

from schemas import api
from tests.e2e.served import serve

CHUNK = 64 * 1024


@pytest.fixture(scope="module")
def address(redis_url):
    with serve({"REDIS_URL": redis_url}) as http:
        host, port = http.base.removeprefix("http://").split(":")
        yield host, int(port)


def exchange(address, head: bytes, body_parts=()) -> tuple[int, dict[str, str], bytes]:
    """Send `head`, then `body_parts` (stopping early if the server answers and closes), and
    read the answer: its status, headers and body."""
    with socket.create_connection(address, timeout=10) as sock:
        sock.sendall(head)
        for part in body_parts:
            try:
                sock.sendall(part)
            except (BrokenPipeError, ConnectionResetError):
                break
        return read_answer(sock)


def read_answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    while len(body) < int(headers.get("Content-Length", 0)):
        body += sock.recv(65536)
    return int(lines[0].split()[1]), headers, body


def post_head(path: str, *fields: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: tablelog", "Content-Type: application/json", *fields]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def test_a_declared_length_over_the_limit_is_answered_before_the_body_is_sent(address):
    head = post_head("/v1/games", f"Content-Length: {api.LARGEST_BODY + 1}")
    status, headers, body = exchange(address, head)
    assert status == 413
    assert headers["Content-Type"] == "application/problem+json"
    problem = json.loads(body)
    assert problem["code"] == "body-too-large" and str(api.LARGEST_BODY) in problem["detail"]


def test_a_chunked_body_is_cut_off_past_the_limit(address):
    chunk = f"{CHUNK:x}\r\n".encode() + b" " * CHUNK + b"\r\n"
    # Past the limit by one chunk, and never ended: the answer cannot wait for the rest.
    chunks = [chunk] * (api.LARGEST_BODY // CHUNK + 1)
    head = post_head("/v1/games", "Transfer-Encoding: chunked")
    status, headers, body = exchange(address, head, chunks)
    assert status == 413
    assert json.loads(body)["code"] == "body-too-large"


def test_a_replay_upload_has_the_larger_limit(address):
    padded = b'{"format": "tablelog-replay/1", "x": "' + b" " * api.LARGEST_BODY + b'"}'
    head = post_head("/v1/replays/verify", f"Content-Length: {len(padded)}")
    status, _, body = exchange(address, head, [padded])
    assert status == 400 and json.loads(body)["code"] == "invalid-request"  # read, then judged
    head = post_head("/v1/replays/verify", f"Content-Length: {api.LARGEST_UPLOAD + 1}")
    status, _, body = exchange(address, head)
    assert status == 413 and str(api.LARGEST_UPLOAD) in json.loads(body)["detail"]


@pytest.mark.parametrize(("request_bytes", "status"), [
    (b"NOT A REQUEST LINE\r\n\r\n", 400),
    (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: tablelog\r\n\r\n", 400),
    (b"GET /healthz HTTP/1.1\r\nHost: tablelog\r\nX-Long: " + b"a" * 9000 + b"\r\n\r\n", 431),
    (b"GET /healthz HTTP/1.1\r\n" + b"X-Many: 1\r\n" * 101 + b"\r\n", 431),
])
def test_gunicorns_own_refusals_are_problems_too(address, request_bytes, status):
    answered, headers, body = exchange(address, request_bytes)
    assert answered == status
    assert headers["Content-Type"] == "application/problem+json"
    problem = json.loads(body)
    assert problem["status"] == status and problem["detail"]
    assert problem["code"] == {400: "bad-request", 431: "request-header-fields-too-large"}[status]
