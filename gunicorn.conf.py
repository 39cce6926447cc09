"""gunicorn's settings for the Procfile's web (`gunicorn -c gunicorn.conf.py ...`).

gunicorn answers a request it cannot parse itself, before Flask sees it: a malformed request line
or header, or a request line over `limit_request_line` bytes (400), more than
`limit_request_fields` header fields or one over `limit_request_field_size` bytes (431). Its
page for those is HTML and it has no setting or hook for it, so the function writing them is
replaced here (in the master, before it forks its workers) by one writing the same problem+json
as every other refusal of the API.

The workers are gevent's: a request waiting for its verdict (`wait`) or following a live game
holds a greenlet, not a thread, so a process serves as many waiting clients as it has
connections (the Procfile's `--worker-connections`, 10,000: a greenlet and a socket each), and
the wake-ups of many waits are taken in one pass of the event loop instead of each waking a
thread of its own that then fights the others for the GIL. Measured with 32 clients
(docs/design.md, "Where a verdict's time goes"): the web's CPU a verdict 0.87-0.92 ms with
gthread's 2 x 16 threads, 0.67-0.70 ms with gevent.
They are gevent's bounded against slow and greedy clients (`service.server.WebProcess`): a body
has 10 s and a minimum rate to arrive (408), and one address at most 100 connections open to a
process (429), and follow streams at most a share of a process's connections (503
`followers-full` past it, the rest kept for every other request), all set from the environment
(TABLELOG_BODY_SECONDS, TABLELOG_BODY_RATE, TABLELOG_CONNECTIONS_PER_ADDRESS,
TABLELOG_FOLLOWERS_SHARE).

Its lines, gunicorn's own included, are JSON lines on stderr (`telemetry.logs`; readable ones in
a terminal), one a request written by the app itself with its request id (`service.traced`):
gunicorn's access log stays off. Its processes share PROMETHEUS_MULTIPROC_DIR, so that
`/metrics` counts every one of them whichever answers: set to a folder of its own when the
environment names none (the workers' metrics join the web's only in a folder they share: `make
run` sets one for all of them), and each process's live gauges leave it when it exits.
"""

# Patched before anything below imports the app's modules (ssl and threading among them):
# gunicorn's gevent worker patches only after the master loaded this file, too late for those.
from gevent import monkey

monkey.patch_all()

import os  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402

# Before prometheus_client is imported (by the app's modules below): it chooses then. A folder
# made here is the master's, removed as it exits.
_made = None
if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    _made = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="tablelog-metrics-")

from gunicorn import glogging, util  # noqa: E402
from prometheus_client import multiprocess  # noqa: E402

from service.problems import code_of  # noqa: E402
from service.server import refusal  # noqa: E402
from telemetry import logs  # noqa: E402
from telemetry.metrics import REFUSALS  # noqa: E402

logs.setup("web")

worker_class = "service.server.WebProcess"

# Connections the kernel queues for the processes to accept (capped by net.core.somaxconn,
# 4096 on Linux since 5.4): a crowd of spectators connecting at once arrives faster than two
# processes accept, and past the queue a connection waits a second for its SYN to be sent again.
backlog = 4096

# gunicorn's own defaults, written down because the README promises them.
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190


class JsonLogger(glogging.Logger):
    """gunicorn's logger, its lines handed to the root logger's handler (`telemetry.logs`)."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers[:]:
                log.removeHandler(handler)
            log.propagate = True


logger_class = JsonLogger


def child_exit(server, worker) -> None:
    """A web process that exited: its live gauges are no longer summed."""
    multiprocess.mark_process_dead(worker.pid)


def on_exit(server) -> None:
    if _made is not None:
        shutil.rmtree(_made, ignore_errors=True)


def _write_problem(sock, status: int, reason: str, message: str) -> None:
    code = code_of(status)
    REFUSALS.labels(str(status), code).inc()
    util.write_nonblock(sock, refusal(status, code, message))


util.write_error = _write_problem
