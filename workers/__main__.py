"""`python -m workers`: an RQ worker on the tablelog queue, configured only by REDIS_URL.

It is a SimpleWorker (jobs run in the worker process, no fork per job): the jobs are pure
Python over Redis and share nothing between runs, and forking costs ~19 ms a job on these
machines, more than a whole drain of a busy game. Run several processes to use more cores.
"""

from __future__ import annotations

import logging
import os

from rq import SimpleWorker
from rq.serializers import JSONSerializer

from store import Store
from store.connection import client, redis_url
from workers.queue import enqueue_drain, queue


def main() -> None:
    connection = client(redis_url())
    _take_up_unfinished_work(Store(connection))
    worker = SimpleWorker(
        [queue(connection)], connection=connection, serializer=JSONSerializer
    )
    worker.work(logging_level=os.environ.get("LOG_LEVEL", "WARNING"))


def _take_up_unfinished_work(store: Store) -> None:
    """A worker that died mid-drain left games claimed or dirty with no job to judge them."""
    store.scheduler.reclaim_lapsed()
    if (slot := store.scheduler.mark_dirty()) is not None:
        enqueue_drain(store.redis, slot)


if __name__ == "__main__":
    logging.basicConfig()
    main()
