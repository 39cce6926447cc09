"""The job queues, JSON-serialized jobs (never pickle): verdicts (the `drain` jobs) on one
queue, audits on another, each with workers of its own (`python -m workers [audits]`)."""

from __future__ import annotations

import redis
from rq import Queue, Retry
from rq.serializers import JSONSerializer

from store import Store

QUEUE = "tablelog"
AUDITS = "tablelog-audits"


def queue(connection: redis.Redis) -> Queue:
    return Queue(QUEUE, connection=connection, serializer=JSONSerializer)


def audit_queue(connection: redis.Redis) -> Queue:
    return Queue(AUDITS, connection=connection, serializer=JSONSerializer)


# RQ kills a job that runs longer; a drain hands its slot over well before
# (`workers.drain.RUN_FOR_S`), so this only ends one that hangs.
DRAIN_TIMEOUT_S = 180


def enqueue_drain(connection: redis.Redis, slot: int) -> None:
    queue(connection).enqueue("workers.jobs.drain", slot, result_ttl=0, failure_ttl=3600,
                              job_timeout=DRAIN_TIMEOUT_S)


def audit_place(store: Store, most: int) -> str | None:
    """A place among the `most` audits that may wait for an auditor, to give back once the
    audit is queued (`store.audits.Places`); None while they are all taken."""
    return store.audit_places.take(audit_queue(store.queues).key, most)


def enqueue_audit(connection: redis.Redis, game_id: str, number: int) -> None:
    """An audit whose worker died is found abandoned by RQ's upkeep and run again."""
    audit_queue(connection).enqueue(
        "workers.jobs.audit", game_id, number, result_ttl=60, retry=Retry(max=2)
    )


def enqueue_compaction(connection: redis.Redis, game_id: str) -> None:
    """Compact a game that ended (`workers.compaction`): batch work, for the auditing workers,
    which get the CPU only when nothing else wants it."""
    audit_queue(connection).enqueue("workers.jobs.compact", game_id, result_ttl=0,
                                     failure_ttl=3600)
