"""The processes a benchmark run measures: its own redis-server, the Procfile's web, worker and
auditor entries, and the ceiling app served by the same gunicorn command as the web."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import redis

from bench.client import Client
from bench.local import free_port, signing_key, start_redis
from service.limits import out_of_reach

ROOT = Path(__file__).resolve().parents[1]
_SERVICE_APP = '"service:create_app()"'
_CEILING_APP = '"bench.ceiling:create_app()"'


@dataclass(frozen=True)
class Stack:
    redis_url: str
    service: str  # base URLs
    ceiling: str
    # The service's processes by role ("web", "workers", "redis"), for their CPU time.
    roles: dict[str, list[int]] = field(default_factory=dict)
    ceiling_web: list[int] = field(default_factory=list)  # the ceiling's gunicorn


def procfile() -> dict[str, str]:
    lines = (ROOT / "Procfile").read_text().splitlines()
    return {name: cmd.strip() for name, cmd in (line.split(":", 1) for line in lines if line)}


@contextmanager
def running(workers: int, redis_port: int | None, web_port: int | None,
            rates: dict[str, str] | None = None) -> Iterator[Stack]:
    """Everything up and answering, stopped (by pid) on the way out. The ceiling listens next
    to the web; ports not given are free ones. Rate limits are out of reach but for `rates`
    (service.limits.DEFAULTS' names)."""
    limits = {**out_of_reach(), **{f"TABLELOG_{name}": r for name, r in (rates or {}).items()}}
    signing_key()
    redis_port = redis_port or free_port()
    web_port, ceiling_port = (web_port, web_port + 1) if web_port else (free_port(), free_port())
    # The project's redis.conf (its memory settings), holding nothing on disk.
    procs = [start_redis(redis_port, str(ROOT / "redis.conf"), "--save", "", "--appendonly", "no")]
    url = f"redis://127.0.0.1:{redis_port}/0"
    try:
        entries = procfile()
        web = entries["web"]
        if _SERVICE_APP not in web:
            raise SystemExit(f"the Procfile's web entry no longer serves {_SERVICE_APP}")
        procs.append(_start(web, url, web_port, limits))
        procs.append(_start(web.replace(_SERVICE_APP, _CEILING_APP), url, ceiling_port, limits))
        judges = [_start(entries["worker"], url, 0, limits) for _ in range(workers)]
        procs += [*judges, _start(entries["auditor"], url, 0, limits)]
        roles = {"web": [procs[1].pid], "workers": [j.pid for j in judges],
                 "Redis": [procs[0].pid]}
        stack = Stack(url, f"http://127.0.0.1:{web_port}", f"http://127.0.0.1:{ceiling_port}",
                      roles, [procs[2].pid])
        _wait_until_up(stack, workers)
        yield stack
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            _stopped(proc)


def _stopped(proc: subprocess.Popen) -> None:
    """Wait for a process asked to stop; killed past 10 s (an auditor runs at idle priority,
    and a busy machine may not give it the CPU to stop in time; gunicorn waits for open
    follow streams)."""
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def _start(command: str, redis_url: str, port: int, limits: dict[str, str]) -> subprocess.Popen:
    # The clients post far faster than a person: the limiter counts, and refuses nothing.
    env = {**os.environ, "PORT": str(port), "BIND_ADDRESS": "127.0.0.1", "REDIS_URL": redis_url,
           **limits, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.Popen(["bash", "-c", "exec " + command], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _wait_until_up(stack: Stack, workers: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            health = Client(stack.service).get("/healthz")
            Client(stack.ceiling).post("/v1/games/up/moves", b"{}")
            if health["workers"] >= workers and health["auditors"]:
                redis.Redis.from_url(stack.redis_url).delete("bench:ceiling:up")
                return
        except (OSError, KeyError, TypeError, ValueError):
            pass
        time.sleep(0.1)
    raise SystemExit("the service, the ceiling or the workers did not come up within 60 s")

