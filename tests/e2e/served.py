"""The Procfile's processes, started exactly as outside tools start them, and a client of them.

Each line is run by a shell with PORT and the given environment set; `Http` is the subset of
Flask's test client the tests use, over a real socket.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import ROOT, _free_port, started, stop

_UP_SECONDS = 30


class Answer:
    def __init__(self, status: int, data: bytes, headers):
        self.status_code, self.data, self.headers = status, data, headers

    @property
    def json(self):
        return json.loads(self.data)

    @property
    def text(self):
        return self.data.decode()


class Http:
    """The subset of Flask's test client the tests use, over a real socket."""

    def __init__(self, base: str):
        self.base = base

    def _send(self, method, path, json_body=None, headers=None):
        data = None if json_body is None else json.dumps(json_body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, method=method,
            headers={"Content-Type": "application/json", **(headers or {})},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as reply:
                return Answer(reply.status, reply.read(), reply.headers)
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.read(), error.headers)

    def get(self, path, headers=None):
        return self._send("GET", path, headers=headers)

    def post(self, path, json=None, headers=None):
        return self._send("POST", path, json_body=json, headers=headers)

    def put(self, path, json=None, headers=None):
        return self._send("PUT", path, json_body=json, headers=headers)


def procfile() -> dict[str, str]:
    lines = Path(ROOT, "Procfile").read_text().splitlines()
    return dict(line.split(":", 1) for line in lines if line.strip() and not line.startswith("#"))


@contextmanager
def serve(env: dict[str, str], workers: int = 1, web_log: Path | None = None,
          worker_log: Path | None = None) -> Iterator[Http]:
    """The Procfile's web (one gunicorn process), `workers` workers judging moves and an
    auditor, ready to answer; what the web writes (stdout and stderr) goes to `web_log`, what
    the workers and the auditor write to `worker_log`."""
    port = _free_port()
    # The Procfile names `gunicorn` and `python`: those of this virtualenv, as `make` sets PATH.
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    env = {**os.environ, "PATH": path, "PORT": str(port), "WEB_CONCURRENCY": "1",
           "BIND_ADDRESS": "127.0.0.1", **env}
    lines = procfile()
    commands = [lines["web"], *[lines["worker"]] * workers, lines["auditor"]]
    with open(web_log or os.devnull, "wb") as web_out, \
            open(worker_log or os.devnull, "wb") as worker_out:
        procs = started([
            subprocess.Popen(["bash", "-c", "exec " + command.strip()], cwd=ROOT, env=env,
                             stdout=web_out if i == 0 else worker_out,
                             stderr=web_out if i == 0 else worker_out)
            for i, command in enumerate(commands)
        ])
    client = Http(f"http://127.0.0.1:{port}")
    try:
        wait_until_up(client, workers)
        yield client
    finally:
        stop(procs)


def wait_until_up(client: Http, workers: int, auditors: int = 1) -> None:
    """Until the web answers and /healthz counts `workers` and `auditors` beating (30 s at
    most, then the test fails)."""
    health: object = "no answer"
    deadline = time.monotonic() + _UP_SECONDS
    while time.monotonic() < deadline:
        try:
            health = client.get("/healthz").json
            if health.get("workers", 0) >= workers and health.get("auditors", 0) >= auditors:
                return
        except (OSError, ValueError) as error:
            health = repr(error)
        time.sleep(0.05)
    pytest.fail(f"the web, {workers} workers and {auditors} auditors were not up within"
                f" {_UP_SECONDS} s: /healthz said {health}")
