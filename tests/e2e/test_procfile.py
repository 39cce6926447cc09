"""End to end: the Procfile's own `web` and `worker` entries, driven over real HTTP.

Started exactly as outside tools start them: each line run by a shell with PORT and REDIS_URL
set. A whole game is played through the socket with each seat's own token.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.api import Game
from tests.conftest import ROOT, _free_port, stop


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


def procfile() -> dict[str, str]:
    lines = Path(ROOT, "Procfile").read_text().splitlines()
    return dict(line.split(":", 1) for line in lines if line.strip() and not line.startswith("#"))


@pytest.fixture(scope="module")
def http(redis_url):
    port = _free_port()
    # The Procfile names `gunicorn` and `python`: those of this virtualenv, as `make` sets PATH.
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    env = {**os.environ, "PATH": path, "PORT": str(port), "REDIS_URL": redis_url,
           "WEB_CONCURRENCY": "1"}
    procs = [
        subprocess.Popen(["bash", "-c", "exec " + command.strip()], cwd=ROOT, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for command in procfile().values()
    ]
    client = Http(f"http://127.0.0.1:{port}")
    for _ in range(300):
        try:
            if client.get("/healthz").status_code == 200:
                break
        except OSError:
            time.sleep(0.05)
    yield client
    stop(procs)


def test_procfile_has_the_web_and_workers_judging_and_auditing():
    assert set(procfile()) == {"web", "worker", "auditor"}


def test_a_whole_coloretto_game_over_real_http(http):
    created = http.post("/v1/games", json={"game": "coloretto", "players": ["ann", "bob", "cid"],
                                            "seed": "e2e"})
    assert created.status_code == 201
    body = created.json
    game = Game(http, body, {s["seat"]: s["token"] for s in body["seats"]})
    assert game.play_to_end(random.Random(1)) > 20
    summary = http.get(game.url()).json
    assert summary["status"] == "finished" and summary["seed"] == "e2e"
    audit = http.post(game.url("/audit?wait=8"), json={"claimed": {"1": 0}}).json
    assert audit["ok"] is True
    events = http.get(game.url("/events"), headers={"Accept": "application/x-ndjson"})
    assert events.headers["Content-Type"].startswith("application/x-ndjson")
    assert http.get("/healthz").json["workers"] >= 1
