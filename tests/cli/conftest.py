"""The command line against the suite's real service (its Redis and workers) over HTTP, through
click's runner; tokens are kept in a data folder of the test's own."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cli.main import main


@dataclass
class Tablelog:
    runner: CliRunner

    def __call__(self, *args: str) -> Result:
        return self.runner.invoke(main, list(args), catch_exceptions=False)

    def json(self, *args: str) -> Any:
        result = self(*args, "--json")
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)


def _pointed_at(url: str, monkeypatch, data) -> Tablelog:
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.setenv("TABLELOG_URL", url)
    monkeypatch.delenv("TABLELOG_TOKEN", raising=False)
    # Wide enough that no drawn line is wrapped.
    monkeypatch.setenv("COLUMNS", "200")
    return Tablelog(CliRunner())


@pytest.fixture
def offline(monkeypatch, tmp_path) -> Tablelog:
    """The command line with a data folder of its own and no server behind its default URL."""
    return _pointed_at("http://127.0.0.1:9", monkeypatch, tmp_path)


@pytest.fixture
def tablelog(web, monkeypatch, tmp_path) -> Tablelog:
    """The command line pointed at the suite's service, with a data folder of its own."""
    return _pointed_at(web, monkeypatch, tmp_path)
