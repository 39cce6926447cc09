"""Every metric a process of tablelog exports, each named once here; `GET /metrics`
(`service.metrics`) answers them for every process at once.

With PROMETHEUS_MULTIPROC_DIR set (to one folder shared by the web processes, the judging
workers and the auditors of a machine, emptied before they start: `make run` does it), each
process writes its values into files of its own there, and a scrape of any web process sums
them (prometheus_client's multiprocess mode: a counter's total over every process, dead ones
included, a gauge per live process). Unset, a process's metrics are its own: a scrape sees
the one web process that answered it (gunicorn.conf.py sets a folder for its processes).

The cost on a verdict's path is an increment of a few values in a memory-mapped file (a
microsecond or two each), no round trip to Redis: what Redis holds (moves pending, workers
alive, memory) is read when scraped (`service.metrics`). No label takes a game id, a token or
a player: labels are routes (URL rules), statuses, codes and outcomes, each from a fixed set.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

# Seconds: from a millisecond to half a minute (a move waits for a worker as long as none
# lives), as a player feels them.
_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
_SIGNING = (0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.01)

# -- the web --------------------------------------------------------------------------------

REQUEST_SECONDS = Histogram(
    "tablelog_http_request_duration_seconds",
    "Requests answered by the web, to their answer's head, by route (its URL rule), method"
    " and status",
    ["route", "method", "status"], buckets=_LATENCY)
REFUSALS = Counter(
    "tablelog_refusals_total",
    "Requests refused with a problem+json, by status and code (rate-limited,"
    " too-many-connections, followers-full, a rule's code on a move rejected...)",
    ["status", "code"])
# Per live web process (a `pid` label each): labelled `process="web"` so that only the
# processes setting them export them (an unlabelled gauge is exported by every process
# importing this module, as 0).
FOLLOWERS = Gauge(
    "tablelog_followers", "Follow streams a web process serves now", ["process"],
    multiprocess_mode="liveall")
FOLLOWERS_MOST = Gauge(
    "tablelog_followers_most", "Follow streams a web process may serve at once", ["process"],
    multiprocess_mode="liveall")
WAITING = Gauge(
    "tablelog_waiting_requests",
    "Requests a web process holds waiting on a game's log (verdict waits and followers)",
    ["process"], multiprocess_mode="liveall")
SIGNING_SECONDS = Histogram(
    "tablelog_signing_seconds", "Time to sign a receipt (Ed25519), in the web",
    buckets=_SIGNING)

# -- the judging workers --------------------------------------------------------------------

VERDICT_SECONDS = Histogram(
    "tablelog_verdict_seconds",
    "From a move's append (its submission's time) to the commit of its verdict, seen by the"
    " worker that judged it", buckets=_LATENCY)
VERDICTS = Counter(
    "tablelog_verdicts_total",
    "Verdicts written on posted moves, by outcome (accepted, rejected) and the rule's code of"
    " a rejection (empty when accepted)", ["outcome", "code"])

# -- the auditors ---------------------------------------------------------------------------

AUDITS = Counter("tablelog_audits_total", "Audits run, by whether the game verified",
                 ["ok"])
COMPACTIONS = Counter(
    "tablelog_compactions_total",
    "Ended games taken by compaction, by what it came to (written: a record written)",
    ["outcome"])

# The metrics read from Redis when scraped (`service.metrics.StoreFigures`), by name, with
# their help: listed here beside the others so that the docs and the dashboard name one list.
SCRAPED = {
    "tablelog_store_up": "1 when the game store answered the scrape, else 0",
    "tablelog_moves_pending": "Moves submitted and not judged yet",
    "tablelog_games_pending": "Games with moves waiting for a verdict",
    "tablelog_oldest_pending_move_seconds": "Age of the oldest move waiting for a verdict"
                                            " (0 when none waits)",
    "tablelog_workers_alive": "Judging workers whose heartbeat is current",
    "tablelog_auditors_alive": "Auditing workers whose heartbeat is current",
    "tablelog_drains_queued": "Drain jobs queued for a judging worker",
    "tablelog_audits_waiting": "Audits queued for an auditor",
    "tablelog_audits_running": "Audits an auditor is running",
    "tablelog_compaction_backlog": "Ended games listed for compaction and not compacted yet",
    "tablelog_redis_used_memory_bytes": "Redis's used_memory",
    "tablelog_redis_maxmemory_bytes": "Redis's maxmemory (0: no limit)",
}
