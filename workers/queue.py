"""The job queue: one RQ queue, JSON-serialized jobs (never pickle)."""

from __future__ import annotations

import redis
from rq import Queue
from rq.serializers import JSONSerializer

QUEUE = "tablelog"


def queue(connection: redis.Redis) -> Queue:
    return Queue(QUEUE, connection=connection, serializer=JSONSerializer)


def enqueue_drain(connection: redis.Redis, slot: int) -> None:
    queue(connection).enqueue("workers.jobs.drain", slot, result_ttl=0, failure_ttl=3600)


def enqueue_audit(connection: redis.Redis, game_id: str, number: int) -> None:
    queue(connection).enqueue("workers.jobs.audit", game_id, number, result_ttl=60)
