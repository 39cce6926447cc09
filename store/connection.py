"""Connections from the environment, as on Heroku-style hosts.

REDIS_URL names the standalone Redis that RQ's queues live on (RQ does not run on a cluster).
When REDIS_CLUSTER_URL names any node of a Redis Cluster, the game store lives there instead;
otherwise it shares the standalone Redis.
"""

from __future__ import annotations

import functools
import os

import redis
from redis.cluster import RedisCluster

DEFAULT_URL = "redis://127.0.0.1:6379/0"
# The longest any read may block on Redis for an outcome (a verdict, an audit); the API's
# `wait` is capped at it, and every client's read timeout lies above it.
LONGEST_WAIT_S = 10
# redis-py 8 would otherwise give up a blocking read after 5 s and fail a longer wait; a Redis
# that hangs still fails fast enough.
_TIMEOUTS = {"socket_connect_timeout": 5, "socket_timeout": LONGEST_WAIT_S + 5}

StoreClient = redis.Redis | RedisCluster
# What a command fails with when Redis went away, possibly after running it.
UNREACHABLE = (redis.ConnectionError, redis.TimeoutError)


def redis_url() -> str:
    return os.environ.get("REDIS_URL", DEFAULT_URL)


def cluster_url() -> str | None:
    return os.environ.get("REDIS_CLUSTER_URL") or None


@functools.cache
def client(url: str) -> redis.Redis:
    """One pooled client per URL and process; jobs reuse it instead of reconnecting."""
    return redis.Redis.from_url(url, health_check_interval=30, **_TIMEOUTS)


@functools.cache
def cluster_client(url: str) -> RedisCluster:
    """One cluster client per URL and process. It learns the slots' owners from the node it
    is given and follows them when they move or a replica takes over (MOVED, or a node that
    stops answering makes it ask the cluster again)."""
    return RedisCluster.from_url(url, **_TIMEOUTS)


def store_client(standalone_url: str, cluster: str | None) -> StoreClient:
    """The game store's client: the cluster's when there is one, else the standalone Redis."""
    return cluster_client(cluster) if cluster else client(standalone_url)
