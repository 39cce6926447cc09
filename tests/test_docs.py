"""The docs point at code that is there: every path of the repository and every module or name
of ours they name, in backquotes or not, exists, and so does every test they cite by its file
and function and every Markdown document, so that a newcomer following them finds it."""

import importlib
import re

import pytest

from tests.conftest import ROOT

DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
OURS = "engine|telemetry|store|service|workers|schemas|cli|tests|bench"
PATH = re.compile(rf"`((?:{OURS})/[A-Za-z0-9_./-]+)`")
NAME = re.compile(rf"`((?:{OURS})(?:\.[A-Za-z_][A-Za-z0-9_]*)+)")
# The same outside backquotes: a path of ours ending in a file's suffix or a slash (not a ratio
# such as service/ceiling), and a dotted name of ours.
BARE_PATH = re.compile(
    rf"(?<![\w./-])((?:{OURS}|docs)/[A-Za-z0-9_./-]*(?:\.(?:py|md|json|toml|zdict|gz)|/))")
BARE_NAME = re.compile(rf"(?<![\w./`-])((?:{OURS})(?:\.[A-Za-z_][A-Za-z0-9_]*)+)")
# A test cited as `file.py::function` (the file by its name or its path), and a Markdown file.
TEST = re.compile(r"`((?:[\w-]+/)*test_\w+\.py)::(\w+)")
MARKDOWN = re.compile(r"(?<![\w./-])([\w-]+\.md)\b")


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


@pytest.mark.parametrize("doc", [d.name for d in DOCS])
def test_every_path_and_name_of_ours_outside_backquotes_is_there(doc):
    assert [(n, p) for d, n, p in _quoted(BARE_PATH) if d == doc
            and not (ROOT / p.rstrip("/")).exists()] == []
    assert [(n, name) for d, n, name in _quoted(BARE_NAME) if d == doc
            and not _resolves(name)] == []


def _test_files(path: str) -> list:
    return [f for f in (ROOT / "tests").rglob(path.rsplit("/", 1)[-1])
            if f.as_posix().endswith(path)]


@pytest.mark.parametrize("doc", [d.name for d in DOCS])
def test_every_test_the_docs_cite_by_its_function_is_there(doc):
    assert [(n, path, name) for d, n, (path, name) in _quoted(TEST) if d == doc
            and not any(re.search(rf"^\s*(?:async )?def {name}\b", f.read_text(), re.MULTILINE)
                        for f in _test_files(path))] == []


@pytest.mark.parametrize("doc", [d.name for d in DOCS])
def test_every_markdown_document_the_docs_name_is_in_the_repository(doc):
    documents = {f.name for f in ROOT.glob("*.md")} | {f.name for f in (ROOT / "docs").glob("*.md")}
    assert [(n, name) for d, n, name in _quoted(MARKDOWN) if d == doc
            and name not in documents] == []
