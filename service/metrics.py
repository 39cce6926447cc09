"""`GET /metrics`: every process's metrics in Prometheus's text format, for the operator.

What the processes count as they go (requests, refusals, verdicts, signatures, followers: each
named in `telemetry.metrics`) comes from the files every process writes in
PROMETHEUS_MULTIPROC_DIR, so one scrape of any web process covers the web processes, the
judging workers and the auditors sharing that folder. What Redis holds is read when scraped
(`StoreFigures`, a dozen round trips a scrape, none on a move's path): the moves pending and the
oldest one's age (as /healthz counts them), the workers alive, the jobs queued, the audits
waiting and running, the compaction backlog and Redis's memory.

It is the operator's, not the API's (it stays out of /openapi.json): answered to 127.0.0.1 (and
::1) by default; from anywhere else only with `Authorization: Bearer <TABLELOG_METRICS_TOKEN>`
when the operator set that token, and otherwise refused, 403 `metrics-forbidden`.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, request
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.metrics_core import GaugeMetricFamily, Metric
from redis.exceptions import RedisClusterException, RedisError

from service.problems import Problem
from store import Store
from store.health import pending, used_memory
from telemetry.metrics import SCRAPED
from workers.queue import audit_queue, queue

bp = Blueprint("metrics", __name__)


@bp.get("/metrics")
def metrics() -> Response:
    token = current_app.config["METRICS_TOKEN"]
    _check_allowed(request.remote_addr, request.headers.get("Authorization"),
                   None if token is None else str(token))
    store: Store = current_app.extensions["store"]
    figures = CollectorRegistry(auto_describe=False)
    figures.register(StoreFigures(store))
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        counted = CollectorRegistry(auto_describe=False)
        multiprocess.MultiProcessCollector(counted)
    else:  # this process's own
        counted = REGISTRY
    return Response(generate_latest(counted) + generate_latest(figures),
                    content_type=CONTENT_TYPE_LATEST)


def _check_allowed(address: str | None, authorization: str | None, token: str | None) -> None:
    """A 403 (raised) unless the scrape comes from this machine, or carries the operator's
    metrics token."""
    if _loopback(address):
        return
    if not token:
        raise Problem(403, "metrics-forbidden", (
            "/metrics answers 127.0.0.1 alone: the operator may set TABLELOG_METRICS_TOKEN for"
            " scrapes from elsewhere"))
    scheme, _, given = (authorization or "").partition(" ")
    if scheme != "Bearer" or not hmac.compare_digest(given.encode(), token.encode()):
        raise Problem(403, "metrics-forbidden", (
            "/metrics answers 127.0.0.1, or a scrape carrying the operator's metrics token"
            " (Authorization: Bearer)"))


def _loopback(address: str | None) -> bool:
    try:
        found = ipaddress.ip_address(address or "")
    except ValueError:
        return False
    mapped = getattr(found, "ipv4_mapped", None)
    return (mapped or found).is_loopback


class StoreFigures:
    """What Redis holds, read when scraped (`telemetry.metrics.SCRAPED` names them)."""

    def __init__(self, store: Store):
        self.store = store

    def collect(self) -> Iterator[Metric]:
        try:
            values = self._read()
        except (RedisError, RedisClusterException):
            values = {}
        values["tablelog_store_up"] = 1 if values else 0
        for name, value in values.items():
            yield GaugeMetricFamily(name, SCRAPED[name], value=value)

    def _read(self) -> dict[str, float]:
        store = self.store
        waiting = pending(store.redis)
        used, most = used_memory(store.redis)
        audits = audit_queue(store.queues)
        return {
            "tablelog_moves_pending": waiting.submissions,
            "tablelog_games_pending": waiting.games,
            "tablelog_oldest_pending_move_seconds": waiting.oldest_s or 0.0,
            "tablelog_workers_alive": store.scheduler.live_workers(),
            "tablelog_auditors_alive": store.audits.live_auditors(),
            "tablelog_drains_queued": len(queue(store.queues)),
            "tablelog_audits_waiting": len(audits),
            "tablelog_audits_running": audits.started_job_registry.count,
            "tablelog_compaction_backlog": store.compacted.backlog(),
            "tablelog_redis_used_memory_bytes": used,
            "tablelog_redis_maxmemory_bytes": most,
        }
