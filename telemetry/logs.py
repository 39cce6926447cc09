"""Log lines: one JSON object a line from every process, or a readable line in a terminal.

Every process (the web and gunicorn's own lines, the judging workers and RQ's lines, the
auditors) logs through the root logger, set up once by `setup`: its handler writes to stderr
one JSON object a line (`at`, `level`, `process`, `logger`, `event`, then the line's own
fields), or, when stderr is a terminal or TABLELOG_LOG_FORMAT is `text`, the same as one
readable line. LOG_LEVEL sets the level (INFO: a line a request and a line a verdict).

A line's fields are given by `event(logger, name, **fields)`; inside a web request the request
id (`X-Request-Id`, `telemetry.logs.REQUEST`) is added to every line. What may be in a field is
the caller's care: a game id, a seq, an outcome, a rule's code, never a token (no header and
no query string is ever logged) and never a card (no move, effect or refusal's sentence is).
"""

from __future__ import annotations

import contextvars
import itertools
import logging
import os
import secrets
import sys
import time
from typing import Any, TextIO

import orjson

# The fields of the request a web process is answering (`request_id` first), for every line
# logged while it is answered; None outside a request.
REQUEST: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "tablelog_request", default=None)
# A request id a client sends is kept when it is this short and plain; else one is made.
_MOST_ID = 64
_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:")
_FIELDS = "tl"  # the LogRecord attribute holding a line's own fields
_process = "tablelog"


def request_id(sent: str | None) -> str:
    """The id of a request: the one its client sent (`X-Request-Id`) when it is plain text of
    at most 64 characters, else one made here, unique among every process's."""
    if sent and len(sent) <= _MOST_ID and _ID_CHARS.issuperset(sent):
        return sent
    return f"{_prefix}{next(_made):x}"


def _draw_prefix() -> None:
    global _prefix, _pid
    _prefix, _pid = secrets.token_hex(4) + "-", os.getpid()


_made = itertools.count(1)
_prefix, _pid = "", 0
_draw_prefix()
os.register_at_fork(after_in_child=_draw_prefix)  # gunicorn forks its web processes


def event(logger: logging.Logger, name: str, level: int = logging.INFO, **fields: Any) -> None:
    """Log the event `name` with its fields; nothing is built when the level is off.

    A line a request and a line a verdict are on the hot path: where `setup` set up JSON lines,
    the line is written straight to their handler's stream (under its lock), as the handler
    would have written it, without a LogRecord and the formatter's pass over it (half a line's
    cost). Elsewhere it goes through `logging` (a terminal's readable lines, the tests)."""
    if not logger.isEnabledFor(level):
        return
    handler = _direct
    if handler is None:
        logger.log(level, name, extra={_FIELDS: fields})
        return
    line = _line(time.time(), _LEVELS[level], logger.name, name, fields)
    handler.acquire()
    try:
        handler.stream.write(orjson.dumps(line, default=str).decode() + "\n")
        handler.stream.flush()
    finally:
        handler.release()


def fields_of(record: logging.LogRecord) -> dict[str, Any]:
    """A line's fields, as the JSON line holds them."""
    line = _line(record.created, record.levelname.lower(), record.name, record.getMessage(),
                 getattr(record, _FIELDS, ()))
    if record.exc_info:
        line["error"] = logging.Formatter().formatException(record.exc_info)
    return line


def _line(created: float, level: str, logger: str, event_name: str, own: Any
          ) -> dict[str, Any]:
    line: dict[str, Any] = {"at": _at(created), "level": level, "process": _process,
                            "pid": _pid, "logger": logger, "event": event_name}
    request = REQUEST.get()
    if request is not None:
        line.update(request)
    line.update(own)
    return line


_LEVELS = {level: logging.getLevelName(level).lower()
           for level in (logging.DEBUG, logging.INFO, logging.WARNING, logging.ERROR,
                         logging.CRITICAL)}
# The handler of JSON lines `setup` made, which `event` writes to itself.
_direct: logging.StreamHandler | None = None


def _at(created: float) -> str:
    """ISO 8601 in UTC, to the millisecond: the part up to the second formatted once a second
    (strftime is most of a line's cost otherwise)."""
    global _second
    whole = int(created)
    second = _second
    if second[0] != whole:
        second = _second = (whole, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)))
    return f"{second[1]}.{int((created - whole) * 1000):03d}Z"


# The second `_at` formatted last, and its text: one tuple, so that threads read a pair.
_second: tuple[int, str] = (-1, "")


class JsonLines(logging.Formatter):
    """One JSON object a line."""

    def format(self, record: logging.LogRecord) -> str:
        return orjson.dumps(fields_of(record), default=str).decode()


class Readable(logging.Formatter):
    """A line for a person at a terminal: time, level, process, event, then key=value."""

    def format(self, record: logging.LogRecord) -> str:
        line = fields_of(record)
        head = (f"{line.pop('at')[11:23]} {line.pop('level'):7} {line.pop('process')}"
                f"[{line.pop('pid')}] {line.pop('logger')}: {line.pop('event')}")
        error = line.pop("error", None)
        rest = " ".join(f"{key}={value}" for key, value in line.items() if value is not None)
        return "\n".join(filter(None, (f"{head}  {rest}" if rest else head, error)))


def formatter(stream: TextIO) -> logging.Formatter:
    """JSON lines, unless `stream` is a terminal or TABLELOG_LOG_FORMAT says `text`."""
    chosen = os.environ.get("TABLELOG_LOG_FORMAT", "")
    if chosen == "text" or (chosen != "json" and stream.isatty()):
        return Readable()
    return JsonLines()


def setup(process: str, stream: TextIO | None = None) -> str:
    """Send every logger's lines to `stream` (stderr) through one handler, as JSON lines (or
    readable ones); `process` names the process on each line (web, worker, auditor). The
    level set (LOG_LEVEL, INFO by default) is answered."""
    global _process, _direct
    _process = process
    # What no line holds, not gathered for every record: the caller's frame (a walk up the
    # stack), the thread's and the process's names (the pid is kept here, once a process).
    logging._srcfile = None
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    level = os.environ.get("LOG_LEVEL", "INFO").upper()
    stream = sys.stderr if stream is None else stream
    handler = logging.StreamHandler(stream)
    handler.setFormatter(formatter(stream))
    _direct = handler if isinstance(handler.formatter, JsonLines) else None
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return level
