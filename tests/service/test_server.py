"""The web process's connections as its file descriptors allow them (`service.server`): the
soft limit raised as far as the hard one lets, and the followers' share taken of what fits.

The process's own limits are never touched: `resource` is replaced by one that records."""

from __future__ import annotations

import resource
from types import SimpleNamespace

import pytest

from service import server


class _Limits:
    """`resource`'s two calls on RLIMIT_NOFILE, over limits of the test's choosing."""

    RLIMIT_NOFILE = resource.RLIMIT_NOFILE
    RLIM_INFINITY = resource.RLIM_INFINITY

    def __init__(self, soft: int, hard: int):
        self.soft, self.hard = soft, hard

    def getrlimit(self, which: int) -> tuple[int, int]:
        assert which == self.RLIMIT_NOFILE
        return self.soft, self.hard

    def setrlimit(self, which: int, limits: tuple[int, int]) -> None:
        assert which == self.RLIMIT_NOFILE and limits[1] == self.hard and limits[0] <= self.hard
        self.soft = limits[0]


def _connections(monkeypatch, soft: int, hard: int, wanted: int = 10_000):
    limits = _Limits(soft, hard)
    monkeypatch.setattr(server, "resource", limits)
    warned: list[str] = []
    process = SimpleNamespace(worker_connections=wanted,
                              log=SimpleNamespace(warning=lambda *said: warned.append(said)))
    return server.WebProcess._connections(process), limits.soft, warned


def test_a_soft_limit_below_the_connections_is_raised_to_fit_them(monkeypatch):
    fit, soft, warned = _connections(monkeypatch, soft=1024, hard=1 << 20)
    assert fit == 10_000 and soft >= 10_000 and not warned


@pytest.mark.parametrize("soft", [resource.RLIM_INFINITY, 1 << 20])
def test_a_limit_above_the_connections_is_left_alone(monkeypatch, soft):
    fit, left, warned = _connections(monkeypatch, soft=soft, hard=resource.RLIM_INFINITY)
    assert fit == 10_000 and left == soft and not warned


def test_a_hard_limit_below_the_connections_serves_what_fits_and_says_so(monkeypatch):
    fit, soft, warned = _connections(monkeypatch, soft=1024, hard=1500)
    assert soft == 1500 and 0 < fit < 1500 and len(warned) == 1
