"""The suite's own Redis and RQ workers: real processes, never mocks.

A session starts `redis-server` on a free port (nothing on disk), two judging workers and an
auditing one, running exactly what the Procfile runs (`python -m workers [audits]`), pointed at
it by REDIS_URL.
Tests that need neither (the engine's) never start them.

Every app and process the suite starts has rate limits it never reaches (it plays far faster
than any person, all from 127.0.0.1); tests/service/test_rate_limits.py sets its own.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
from werkzeug.serving import make_server

from bench.local import free_port as _free_port  # the name the tests import
from bench.local import signing_key, start_redis
from service.limits import out_of_reach
from store import Store

ROOT = Path(__file__).resolve().parents[1]
_WORKERS_UP_SECONDS = 30
os.environ.update(out_of_reach())
signing_key()


# Words shaped as the service's tokens (`secrets.token_urlsafe(24)`: 32 characters), as every
# test phase logged them (`pytest_runtest_logreport`).
_TOKEN_SHAPED = re.compile(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32}(?![A-Za-z0-9_-])")
_LOGGED: set[str] = set()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Keep each token-shaped word a test phase logged: its log records, and its captured
    stderr, where the processes the suite starts (web, workers, auditors) write their lines."""
    _LOGGED.update(_TOKEN_SHAPED.findall(report.caplog))
    _LOGGED.update(_TOKEN_SHAPED.findall(report.capstderr))


@contextmanager
def redis_of_its_own(folder: Path) -> Iterator[str]:
    """The URL of a redis-server of its own, which keeps nothing on disk, stopped after."""
    port = _free_port()
    proc = start_redis(port, "--save", "", "--appendonly", "no", "--dir", str(folder))
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(10)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    with redis_of_its_own(tmp_path_factory.mktemp("redis")) as url:
        yield url
        issued = _issued(url)
    # No log line of the whole suite holds a token (issue #42): a word logged whose SHA-256 is
    # a stored token's digest is that token, so nothing else can be mistaken for one.
    logged = sorted(w for w in _LOGGED if hashlib.sha256(w.encode()).hexdigest() in issued)
    assert not logged, f"{len(logged)} tokens were written in log lines, e.g. {logged[0][:6]}..."


def _issued(url: str) -> set[str]:
    """The digests of every token the suite's Redis still holds, in every database."""
    digests: set[str] = set()
    for db in range(16):
        client = redis.Redis.from_url(url.rsplit("/", 1)[0] + f"/{db}")
        for key in client.scan_iter(match="tl:*:auth", count=1000):
            digests.update(d.decode() for d in client.hkeys(key))
        client.close()
    return digests


def start_workers(redis_url: str, count: int, *role: str) -> list[subprocess.Popen]:
    """`count` worker processes (`role` "audits" for auditing ones), already beating."""
    env = {**os.environ, "REDIS_URL": redis_url}
    procs = [
        subprocess.Popen([sys.executable, "-m", "workers", *role], cwd=ROOT, env=env)
        for _ in range(count)
    ]
    started(procs)
    store = Store(redis.Redis.from_url(redis_url))
    live = store.audits.live_auditors if role else store.scheduler.live_workers
    deadline = time.monotonic() + _WORKERS_UP_SECONDS
    while live() < count and time.monotonic() < deadline:
        time.sleep(0.02)
    beating = live()
    store.redis.close()
    if beating < count:
        stop(procs)
        pytest.fail(f"{beating} of {count} {role[0] if role else 'judging'} workers beat"
                    f" within {_WORKERS_UP_SECONDS} s")
    return procs


# Every process the suite started (`started`): one still running when the session ends is
# stopped then.
_STARTED: list[subprocess.Popen] = []


def started(procs: list[subprocess.Popen]) -> list[subprocess.Popen]:
    """`procs`, remembered to be stopped when the session ends if they still run then."""
    _STARTED.extend(procs)
    return procs


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop any process the suite started that is still running (a fixture's teardown that
    did not run, an interrupted session): auditors once outlived a whole suite, parentless."""
    left = [proc for proc in _STARTED if proc.poll() is None]
    if left:
        sys.stderr.write(f"\nstopping {len(left)} processes the suite left running: "
                         f"{', '.join(str(proc.pid) for proc in left)}\n")
        stop(left)


def stop(procs: list[subprocess.Popen]) -> None:
    """Stop these processes (the test's own, by PID): asked first, killed if a busy one does not
    end within 10 s, so that no test leaves one running."""
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@pytest.fixture(scope="session")
def workers(redis_url):
    procs = start_workers(redis_url, 2) + start_workers(redis_url, 1, "audits")
    yield procs
    stop(procs)


@pytest.fixture
def quiet_url(redis_url, monkeypatch):
    """A Redis database no worker process listens on, emptied, named by REDIS_URL (where a
    drain run in the test's process looks): each step happens only when the test makes it."""
    url = redis_url.rsplit("/", 1)[0] + "/1"
    redis.Redis.from_url(url).flushdb()
    monkeypatch.setenv("REDIS_URL", url)
    return url


@pytest.fixture(scope="session")
def app(redis_url, workers):
    from service import create_app

    return create_app({"TESTING": True, "REDIS_URL": redis_url})


@pytest.fixture
def client(app):
    return app.test_client()


@contextmanager
def served(app) -> Iterator[str]:
    """The base URL of `app` served over real HTTP (werkzeug's threaded server, in a thread of
    the test process), for clients that need a socket."""
    server = make_server("127.0.0.1", _free_port(), app, threaded=True)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(10)


@pytest.fixture(scope="session")
def web(redis_url, workers):
    """The suite's service over real HTTP; followed logs reconnect every 3 s."""
    from service import create_app

    with served(create_app({"REDIS_URL": redis_url, "FOLLOW_SECONDS": 3})) as url:
        yield url
