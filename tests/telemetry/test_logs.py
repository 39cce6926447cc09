"""Log lines: one JSON object a line, a readable line for a terminal, a request's fields on
every line logged while it is answered."""

from __future__ import annotations

import io
import json
import logging

import pytest

from telemetry import logs


@pytest.fixture
def written():
    """Where the root logger writes once set up (`setup`); its handlers put back after."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield io.StringIO()
    for handler in root.handlers[:]:
        root.removeHandler(handler)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)


def test_a_line_is_one_json_object_with_its_fields_and_its_requests(written, monkeypatch):
    monkeypatch.setenv("TABLELOG_LOG_FORMAT", "json")
    logs.setup("worker", written)
    token = logs.REQUEST.set({"request_id": "r-1"})
    try:
        logs.event(logging.getLogger("tablelog.test"), "verdict", game="g1", seq=4,
                   outcome="rejected", code="not-your-turn")
    finally:
        logs.REQUEST.reset(token)
    line = json.loads(written.getvalue())
    assert line.items() >= {"level": "info", "process": "worker", "logger": "tablelog.test",
                            "event": "verdict", "request_id": "r-1", "game": "g1", "seq": 4,
                            "outcome": "rejected", "code": "not-your-turn"}.items()
    assert line["at"].endswith("Z") and len(line["at"]) == 24


def test_an_error_keeps_its_traceback_inside_its_one_line(written, monkeypatch):
    monkeypatch.setenv("TABLELOG_LOG_FORMAT", "json")
    logs.setup("web", written)
    try:
        raise ValueError("no such row")
    except ValueError:
        logging.getLogger("tablelog.test").exception("judging failed")
    [line] = written.getvalue().splitlines()
    assert "ValueError: no such row" in json.loads(line)["error"]


def test_a_terminal_gets_readable_lines(written, monkeypatch):
    monkeypatch.setenv("TABLELOG_LOG_FORMAT", "text")
    logs.setup("web", written)
    logs.event(logging.getLogger("tablelog.web"), "request", route="/healthz", status=200)
    line = written.getvalue()
    assert " info    web[" in line and "tablelog.web: request  route=/healthz status=200" in line


def test_the_level_set_leaves_lower_lines_out(written, monkeypatch):
    monkeypatch.setenv("LOG_LEVEL", "warning")
    logs.setup("auditor", written)
    logs.event(logging.getLogger("tablelog.test"), "verdict")
    assert written.getvalue() == ""
