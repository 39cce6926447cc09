"""`python -m workers [audits]`: an RQ worker of tablelog, configured only by the environment:
REDIS_URL (the queues, and the game store unless REDIS_CLUSTER_URL names a cluster for it).

Without an argument it judges moves (the `drain` jobs); with `audits` it rebuilds games for
audits, in a process of its own so that an audit flood never holds up a verdict, and on the
CPU only when nothing else wants it (`_yield_cpu`).

It is a SimpleWorker (jobs run in the worker process, no fork per job): the jobs are pure Python
over Redis and share nothing between runs, and forking costs a job more on these machines than a
whole drain of a busy game (docs/benchmarks.md, 2026-12-06). Run several processes to use more
cores.

The process outlives Redis: when Redis goes away (RQ's loop then quits, or raises), it waits for
Redis with a capped backoff, logging each attempt, and starts a new RQ loop. Its heartbeat
(`workers.presence`), from its first second on and whatever the loop does, takes up the work
that dead workers or a lost Redis left unfinished. Only SIGTERM or SIGINT stops it.

It logs JSON lines, RQ's own included (`telemetry.logs`; LOG_LEVEL, INFO by default: a line a
verdict), and writes its metrics where PROMETHEUS_MULTIPROC_DIR says (`telemetry.metrics`),
for the web's `/metrics` to answer; its per-process values are dropped when it exits.
"""

from __future__ import annotations

import atexit
import logging
import os
import signal
import sys
import threading
import time

import redis
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from store import Store, layout
from store.connection import FULL, cluster_url, redis_url
from store.health import forgetting
from telemetry import logs
from workers import jobs, presence  # jobs: loaded now, or the first job would wait for the engine
from workers.queue import audit_queue, queue

# RQ's upkeep (finding jobs whose worker died, so that an audit is run again) this often.
_UPKEEP_S = 60
# RQ blocks on its queues for `worker_ttl - 15` s and would raise the shared client's read
# timeout above that (store.connection keeps it at 15 s, so a hung Redis is noticed).
_RQ_TTL_S = 20
_BACKOFF_S = (0.1, 2.0)
# Where the idle scheduling class is missing, the lowest priority there is.
_AUDITOR_NICENESS = 19
_log = logging.getLogger("workers")


class _Worker(SimpleWorker):
    """RQ's worker, telling a stop that was asked for from one caused by Redis going away."""

    # RQ waits this long at most between its own attempts to reach Redis while idle.
    max_connection_wait_time = _BACKOFF_S[1]
    asked_to_stop = False

    def handle_warm_shutdown_request(self) -> None:
        self.asked_to_stop = True
        jobs.STOPPING.set()
        super().handle_warm_shutdown_request()


def main(args: list[str]) -> None:
    auditing = args[:1] == ["audits"]
    level = logs.setup("auditor" if auditing else "worker")
    _forget_metrics_at_exit()
    store = Store.connect(redis_url(), cluster_url())
    connection = store.queues
    if warning := forgetting(store.redis):
        _log.warning(warning)
    try:
        layout.require_current(store.redis)
    except layout.OlderLayout as older:
        _log.error("not starting: %s", older)
        sys.exit(2)
    if auditing:
        _yield_cpu()
    presence.start(store, presence.attend if auditing else presence.tend)
    if not auditing:
        threading.Thread(target=_enter_creations, args=(store,), daemon=True).start()
    queues = [audit_queue(connection)] if auditing else [queue(connection)]
    while True:
        _wait_for_redis(connection)
        worker, pause = None, _BACKOFF_S[0]
        try:
            if not auditing:
                # A drain the last loop ran died with it: its slot must not wait to lapse.
                store.scheduler.free_slots(presence.me())
            worker = _Worker(queues, connection=connection, serializer=JSONSerializer,
                             worker_ttl=_RQ_TTL_S, maintenance_interval=_UPKEEP_S)
            worker.work(logging_level=level)
        except FULL:
            # RQ registers the worker (a write) before anything: it fails until memory frees.
            _log.warning("Redis is full (maxmemory): the worker loop starts again in %.0f s",
                         _BACKOFF_S[1])
            pause = _BACKOFF_S[1]
        except Exception:
            _log.warning("the worker loop failed (Redis went away under it?)", exc_info=True)
        if worker is not None and worker.asked_to_stop:
            return
        # RQ's handlers would ask Redis about the loop that ended: a signal now simply stops.
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        _log.warning("the worker loop ended without being asked to stop: starting it again")
        time.sleep(pause)  # a loop failing at once for another reason must not spin


def _forget_metrics_at_exit() -> None:
    """This process's live gauges leave the multiprocess folder with it (its counters stay,
    summed into every later scrape)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        pid = os.getpid()
        atexit.register(multiprocess.mark_process_dead, pid)


def _enter_creations(store: Store) -> None:
    """Games stored before imports were checked for copies are entered in the index of
    creations, once (`Games.enter_every_creation`); with Redis away now, a later start does."""
    try:
        if looked := store.games.enter_every_creation():
            _log.warning("entered the %d stored games in the index of creations", looked)
    except redis.RedisError:
        _log.warning("the index of creations is left for a later start", exc_info=True)


def _yield_cpu() -> None:
    """Audits are batch work: judging and the web, which clients wait on, get the CPU first.
    Niceness alone was not enough: at nice 10 an audit running on one core of two still held up a
    move's p99 verdict latency (docs/benchmarks.md, 2026-12-06), as the web, the worker and Redis,
    each woken in turn, waited for it. A process of the idle class (SCHED_IDLE) gets a core only
    when no other process wants it, and gives it up the moment one does."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        os.nice(_AUDITOR_NICENESS)


def _wait_for_redis(connection: redis.Redis) -> None:
    """Return once Redis answers, trying again after 0.1 s, 0.2 s, ... and then every 2 s."""
    delay, cap = _BACKOFF_S
    since = time.monotonic()
    while True:
        try:
            connection.ping()
        except redis.RedisError as down:
            _log.warning("Redis does not answer (%s); trying again in %.1f s", down, delay)
            time.sleep(delay)
            delay = min(delay * 2, cap)
            continue
        if delay > _BACKOFF_S[0]:
            _log.warning("Redis answers again after %.1f s", time.monotonic() - since)
        return


if __name__ == "__main__":
    main(sys.argv[1:])
