"""`make run`'s own Redis and what `make run` installs, from a copy of the Makefile and
redis.conf in a folder of the test's own (as a checkout of its own would be)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
import redis

from tests.conftest import ROOT, _free_port


def make(checkout, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "--no-print-directory", "-C", str(checkout), *args],
                          capture_output=True, text=True, timeout=60, check=True)


@pytest.fixture
def checkout(tmp_path):
    for name in ("Makefile", "redis.conf", "pyproject.toml"):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def test_two_instances_of_one_checkout_keep_their_redis_data_apart(checkout):
    ports = [_free_port(), _free_port()]
    folders = [checkout / ".run" / "redis" / str(port) for port in ports]
    try:
        for port in ports:
            make(checkout, "redis", f"REDIS_PORT={port}")
        first, second = (redis.Redis(port=port) for port in ports)
        first.set("game", "first's")
        assert second.get("game") is None
        assert [sorted(p.name for p in f.iterdir()) for f in folders] == [
            ["appendonlydir", "redis.log", "redis.pid"]] * 2
        assert first.config_get("dir")["dir"] == str(folders[0])
        # Stopping one leaves the other running, its pid file where it was.
        make(checkout, "stop-redis", f"REDIS_PORT={ports[0]}")
        assert second.ping() and (folders[1] / "redis.pid").exists()
    finally:
        for port in ports:
            make(checkout, "stop-redis", f"REDIS_PORT={port}")


def test_make_run_installs_what_running_needs_not_the_test_tools(checkout):
    # Planned, not run (-n); -p prints the rules, `run`'s prerequisites among them.
    planned = make(checkout, "-pn", ".venv/.installed-run").stdout
    assert "run: .venv/.installed-run redis-server" in planned.splitlines()
    executed = [line for line in planned.splitlines() if line.startswith(".venv/bin/python")]
    assert executed[-1] == ".venv/bin/python -m pip install --quiet -e '.[run]'"
