"""What a benchmark or a test runs on this machine: a free port on 127.0.0.1, a redis-server
answering on it, and the chromium the pages are driven with.

The benchmarks measure what the tests check, on the same processes; both take them from here
(bench/ never imports tests/).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import redis
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine.signatures import Signer, b64
from service.signing import Keyring

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
_REDIS_UP_SECONDS = 10
_CONF = Path(__file__).resolve().parents[1] / "redis.conf"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def signing_key() -> None:
    """A key for the services a benchmark or the suite starts (and the apps it builds) to
    sign receipts with, in the environment they inherit, unless one is set already
    (service.signing)."""
    if not (os.environ.get("TABLELOG_SIGNING_KEY") or os.environ.get("TABLELOG_SIGNING_KEY_FILE")):
        os.environ["TABLELOG_SIGNING_KEY"] = b64(Ed25519PrivateKey.generate().private_bytes_raw())


def throwaway_signer() -> Keyring:
    """A key to sign the receipts of games created by calling the handlers directly."""
    return Keyring(Signer(Ed25519PrivateKey.generate()), [])


def start_redis(port: int, *options: str) -> subprocess.Popen:
    """redis-server on 127.0.0.1:`port` (with `options`: a config file first, then flags),
    answering; the caller stops it by its pid. One that never answers is stopped, and raises."""
    server = shutil.which("redis-server")
    if server is None:
        raise RuntimeError("redis-server is not installed: run `make test`, which installs it")
    proc = subprocess.Popen([server, *options, "--port", str(port), "--bind", "127.0.0.1"],
                            stdout=subprocess.DEVNULL)
    client = redis.Redis(port=port)
    try:
        _wait_for(client, proc)
    except RuntimeError:
        proc.terminate()
        proc.wait(10)
        raise
    finally:
        client.close()
    return proc


@contextlib.contextmanager
def diskless_redis() -> Iterator[int]:
    """A redis-server with the project's redis.conf (its memory settings) holding nothing on
    disk, on a free port (given), stopped at the end."""
    port = free_port()
    server = start_redis(port, str(_CONF), "--save", "", "--appendonly", "no")
    try:
        yield port
    finally:
        server.terminate()
        server.wait(10)


@contextlib.contextmanager
def diskless_app() -> Iterator[Any]:
    """The service's app (Flask's, in this process) on a `diskless_redis`, with rate limits it
    never reaches and a throwaway signing key."""
    from service.limits import out_of_reach

    with diskless_redis() as port:
        os.environ["REDIS_URL"] = f"redis://127.0.0.1:{port}/0"
        os.environ.update(out_of_reach())
        signing_key()
        from service import create_app

        yield create_app({"TESTING": True})


def _wait_for(client: redis.Redis, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + _REDIS_UP_SECONDS
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"redis-server exited with {proc.returncode} before answering")
        try:
            client.ping()
            return
        except redis.ConnectionError:
            time.sleep(0.02)
    raise RuntimeError(f"redis-server did not answer within {_REDIS_UP_SECONDS} s")
