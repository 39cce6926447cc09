"""Connections from the environment: REDIS_URL names the Redis server, as on Heroku-style hosts."""

from __future__ import annotations

import functools
import os

import redis

DEFAULT_URL = "redis://127.0.0.1:6379/0"
# The longest any read may block on Redis for an outcome (a verdict, an audit); the API's
# `wait` is capped at it, and every client's read timeout lies above it.
LONGEST_WAIT_S = 10


def redis_url() -> str:
    return os.environ.get("REDIS_URL", DEFAULT_URL)


@functools.cache
def client(url: str) -> redis.Redis:
    """One pooled client per URL and process; jobs reuse it instead of reconnecting.

    Its reads time out only after the longest blocking wait (redis-py 8 would give up after 5 s
    and fail a request that asked to wait longer), so a Redis that hangs still fails fast enough.
    """
    return redis.Redis.from_url(
        url, health_check_interval=30, socket_connect_timeout=5, socket_timeout=LONGEST_WAIT_S + 5
    )
