"""Connections from the environment: REDIS_URL names the Redis server, as on Heroku-style hosts."""

from __future__ import annotations

import functools
import os

import redis

QUEUE = "tablelog"
DEFAULT_URL = "redis://127.0.0.1:6379/0"


def redis_url() -> str:
    return os.environ.get("REDIS_URL", DEFAULT_URL)


@functools.cache
def client(url: str) -> redis.Redis:
    """One pooled client per URL and process; jobs reuse it instead of reconnecting."""
    return redis.Redis.from_url(url, health_check_interval=30)
