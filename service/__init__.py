"""The tablelog HTTP API: a thin Flask layer over the log store and the rules engine.

`create_app()` builds everything; nothing connects at import time. Configuration comes from
defaults, then `test_config`, then the environment (REDIS_URL, REDIS_CLUSTER_URL, and
TABLELOG_* for the rest: TABLELOG_REPLICA_ACKS is "auto", or how many replicas must hold a write
before it is answered, 0 for none; TABLELOG_REPLICA_ACK_MS how long to wait for them;
TABLELOG_IMPORT_TOKEN the operator's token for importing games, none by default: no imports;
TABLELOG_METRICS_TOKEN the operator's token for scraping /metrics from elsewhere than this
machine, none by default: 127.0.0.1 alone, service.metrics;
TABLELOG_AUDITS_WAITING how many audits may wait for an auditor before new ones are refused;
TABLELOG_UPLOADS_AT_ONCE how many uploaded replays one address may have checked at once in a
web process (service.uploads);
TABLELOG_RATE_* the rate limits, service.limits; TABLELOG_SIGNING_KEY_FILE or
TABLELOG_SIGNING_KEY, and TABLELOG_KEYS_FILE, the key receipts are signed with and the keys
published before it, service.signing: the app does not start without a key).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import orjson
from flask import Flask
from flask.json.provider import JSONProvider

from schemas import api
from service import traced
from service.at_once import AtOnce
from service.audience import Audiences
from service.auth import RememberedGames
from service.traced import Traced
from store import Store, layout
from store.connection import cluster_url, redis_url
from store.health import forgetting
from store.replicas import AUTO, DEFAULT_TIMEOUT_MS


class OrjsonProvider(JSONProvider):
    """orjson: several times faster than the standard library on every answer."""

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return orjson.dumps(obj).decode()

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return orjson.loads(s)


class _App(Flask):
    """Flask, asking once per function whether it is a coroutine function. Flask asks it of
    every view, hook and flask-smorest wrapper a request runs, each time (`ensure_sync`,
    through `inspect`): a share of the web's work on a move worth saving (docs/benchmarks.md,
    "Counting instructions"). The functions are the app's
    own, made once, so the cache holds a few dozen."""

    @functools.lru_cache(maxsize=512)  # noqa: B019 (the app lives as long as the process)
    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        return super().ensure_sync(func)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    # The routes are imported as the app is built, not with the package: `python -m
    # service.signing` (make run's key) imports the package first, and would find itself
    # imported already (runpy's RuntimeWarning).
    from service import (
        audits,
        events,
        games,
        limits,
        meta,
        metrics,
        moves,
        openapi,
        pages,
        players,
        signing,
        web,
    )
    from service.move_lane import MoveLane

    app = _App(__name__, static_folder=None)  # the pages blueprint serves static/
    app.json = OrjsonProvider(app)
    # /healthz calls judging stalled when a move waits this long with no live worker.
    app.config.from_mapping(
        REDIS_URL=redis_url(),
        REDIS_CLUSTER_URL=cluster_url(),
        FOLLOW_SECONDS=api.FOLLOWED_S,
        HEALTH_STALLED_S=10,
        # New audits refused (503 audits-busy) while this many wait for an auditor.
        AUDITS_WAITING=100,
        UPLOADS_AT_ONCE=2,
        REPLICA_ACKS=AUTO,
        REPLICA_ACK_MS=DEFAULT_TIMEOUT_MS,
        IMPORT_TOKEN=None,
        METRICS_TOKEN=None,
        SIGNING_KEY=None,
        SIGNING_KEY_FILE=None,
        KEYS_FILE=None,
        **limits.DEFAULTS,
    )
    if test_config:
        app.config.from_mapping(test_config)
    app.config.from_prefixed_env("TABLELOG")
    app.extensions["keyring"] = signing.load(app.config)
    app.extensions["store"] = Store.connect(
        app.config["REDIS_URL"],
        app.config["REDIS_CLUSTER_URL"],
        replica_acks=app.config["REPLICA_ACKS"],
        replica_ack_ms=app.config["REPLICA_ACK_MS"],
    )
    app.extensions["remembered_games"] = RememberedGames()
    app.extensions["uploads"] = AtOnce(app.config["UPLOADS_AT_ONCE"])
    app.extensions["audiences"] = Audiences(app.extensions["store"].hub)
    layout.require_current(app.extensions["store"].redis)
    if warning := forgetting(app.extensions["store"].redis):
        app.logger.warning(warning)
    traced.register(app)
    app.before_request(web.refuse_large_bodies)
    limits.register(app)
    app.url_map.converters["event"] = events.EventId
    openapi.register(app, games.bp, moves.bp, audits.bp, meta.bp, events.bp,
                     players.bp)
    # The pages are no part of the API: registered beside it, they stay out of /openapi.json.
    app.register_blueprint(pages.bp)
    app.register_blueprint(metrics.bp)
    app.wsgi_app = Traced(MoveLane(app))  # type: ignore[method-assign]
    return app
