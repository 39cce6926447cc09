"""Connections from the environment, as on Heroku-style hosts.

REDIS_URL names the standalone Redis that RQ's queues live on (RQ does not run on a cluster).
When REDIS_CLUSTER_URL names any node of a Redis Cluster, the game store lives there instead;
otherwise it shares the standalone Redis.
"""

from __future__ import annotations

import functools
import os
import select
import sys
import threading
from collections.abc import Callable
from typing import Any

import redis
from redis.cluster import RedisCluster
from redis.connection import ConnectionInterface

DEFAULT_URL = "redis://127.0.0.1:6379/0"
# How long a client waits for an answer before it fails as if Redis were away. A read that
# blocks for an outcome (a verdict, an audit) is asked to block for less: the API caps its
# `wait` below this (schemas.api.LONGEST_WAIT_S; tests/store/test_connection.py holds the two
# apart). redis-py 8 would otherwise give up a blocking read after 5 s and fail a longer wait;
# a Redis that hangs still fails fast enough.
READ_TIMEOUT_S = 15
_TIMEOUTS = {"socket_connect_timeout": 5, "socket_timeout": READ_TIMEOUT_S}

# Connections a process's pool holds at most (web, worker or auditor). No request holds one
# while it waits for what lands in a log (store.hub) and an audit's wait is budgeted
# (store.audits), so a connection is held for a round trip, or the tenth of a second a move's
# append may wait for its verdict: 100 serve a web process's 10,000 connections (most of them
# followers, who hold one only while they catch up).
POOL_SIZE = 100
# How long a command waits for a connection of a pool that has none free, before it fails as
# if Redis were away (503 store-unavailable): a burst queues instead of failing at once.
POOL_WAIT_S = 5

StoreClient = redis.Redis | RedisCluster
# What a command fails with when Redis went away, possibly after running it.
UNREACHABLE = (redis.ConnectionError, redis.TimeoutError)
# What a write fails with when Redis is full (`maxmemory` reached, `noeviction`): refused
# before it wrote anything, reads still answered. A store script's first write is refused so
# too, and a script stops at its first error: one answered so wrote nothing (Redis 7 runs a
# script without flags and refuses its first write; one that wrote already may go on).
FULL = redis.exceptions.OutOfMemoryError


def _system_poll() -> Callable[[], Any]:
    """The system's poll, even in a process whose `select` was patched (the web's gevent, in
    gunicorn.conf.py): it is asked not to wait, so it needs no event loop. The patcher keeps the
    original; the store does not import it, and a process that never loaded it (a worker)
    has the system's own."""
    patcher = sys.modules.get("gevent.monkey")
    return patcher.get_original("select", "poll") if patcher else select.poll


_poll = _system_poll()


def redis_url() -> str:
    return os.environ.get("REDIS_URL", DEFAULT_URL)


def cluster_url() -> str | None:
    return os.environ.get("REDIS_CLUSTER_URL") or None


class _Pool(redis.ConnectionPool):
    """redis-py's pool, bounded: past `max_connections` in use a command waits up to
    `POOL_WAIT_S` for one to be released (redis-py's own fails at once); and asking an idle
    connection's socket whether anything waits on it with one `poll` that returns at once.

    redis-py's own asks before handing a connection out too (something to read means the connection
    came back mid-answer, or Redis closed it: it is opened again), but through the socket object,
    which under gevent is a trip through gevent's socket layer on every batch, many times the poll
    itself and a share of the web's CPU a verdict worth saving (docs/benchmarks.md, "Where a
    verdict's time goes", 4677183). Left unasked, a connection Redis closed (it restarted, say)
    would fail its next command and be retried with a backoff, seconds later where Redis stays away,
    instead of failing at once. It takes the pool's own fields as redis-py 5 to 8 name them
    (tests/store/test_connection.py holds it to them)."""

    def reset(self) -> None:
        super().reset()
        self._free = threading.BoundedSemaphore(self.max_connections)

    def get_connection(self, *args: Any, **kwargs: Any) -> ConnectionInterface:
        self._checkpid()
        if not self._free.acquire(timeout=POOL_WAIT_S):
            raise redis.ConnectionError(
                f"no Redis connection free in {POOL_WAIT_S} s ({self.max_connections} in use)")
        with self._lock:
            try:
                connection = self._available_connections.pop()
            except IndexError:
                connection = self.make_connection()
            self._in_use_connections.add(connection)
        try:
            if _waiting(connection):
                connection.disconnect()
            connection.connect()
        except BaseException:
            self.release(connection)
            raise
        return connection

    def release(self, connection: ConnectionInterface) -> None:
        held = connection in self._in_use_connections  # not after a fork, say
        super().release(connection)
        if held:
            self._free.release()


def _waiting(connection: Any) -> bool:
    """Whether a connected socket has bytes or its end waiting to be read."""
    sock = getattr(connection, "_sock", None)
    if sock is None:
        return False
    asking = _poll()
    asking.register(sock.fileno(), select.POLLIN)
    return bool(asking.poll(0))


@functools.cache
def client(url: str) -> redis.Redis:
    """One pooled client per URL and process; jobs reuse it instead of reconnecting."""
    pool = _Pool.from_url(url, health_check_interval=30, max_connections=POOL_SIZE,
                          **_TIMEOUTS)
    return redis.Redis(connection_pool=pool)


@functools.cache
def cluster_client(url: str) -> RedisCluster:
    """One cluster client per URL and process. It learns the slots' owners from the node it
    is given and follows them when they move or a replica takes over (MOVED, or a node that
    stops answering makes it ask the cluster again)."""
    return RedisCluster.from_url(url, **_TIMEOUTS)


def store_client(standalone_url: str, cluster: str | None) -> StoreClient:
    """The game store's client: the cluster's when there is one, else the standalone Redis."""
    return cluster_client(cluster) if cluster else client(standalone_url)
