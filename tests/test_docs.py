"""The docs point at code that is there: every path of the repository and every module or name
of ours they quote in backquotes exists, so that a newcomer following them finds it."""

import importlib
import re

import pytest

from tests.conftest import ROOT

DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
OURS = "engine|telemetry|store|service|workers|schemas|cli|tests|bench"
PATH = re.compile(rf"`((?:{OURS})/[A-Za-z0-9_./-]+)`")
NAME = re.compile(rf"`((?:{OURS})(?:\.[A-Za-z_][A-Za-z0-9_]*)+)")


def _quoted(pattern):
    return [(doc.name, n, found) for doc in DOCS
            for n, line in enumerate(doc.read_text().splitlines(), 1)
            for found in pattern.findall(line)]


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        return all((found := getattr(found, part, None)) is not None for part in parts[cut:])
    return False


@pytest.mark.parametrize("doc", [d.name for d in DOCS])
def test_every_path_the_docs_quote_is_in_the_repository(doc):
    assert [(n, p) for d, n, p in _quoted(PATH) if d == doc
            and not (ROOT / p.rstrip("/")).exists()] == []


@pytest.mark.parametrize("doc", [d.name for d in DOCS])
def test_every_module_or_name_the_docs_quote_is_there(doc):
    assert [(n, name) for d, n, name in _quoted(NAME) if d == doc and not _resolves(name)] == []
