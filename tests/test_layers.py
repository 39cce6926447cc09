"""The layers import only downwards: engine, then store, then workers and service (schemas
beside service). The web needs the workers' queue and nothing else of theirs. The command line
is a client of the API: of ours it may use only the engine, to verify a replay offline. The
benchmarks may use everything but the tests, which may use the benchmarks' helpers."""

import ast
import subprocess
import sys

import pytest

from tests.conftest import ROOT

OURS = {"engine", "telemetry", "store", "workers", "service", "schemas", "cli", "tests", "bench"}
# What each layer may import of ours, by module name prefix.
ALLOWED = {
    "engine": ("engine",),
    # What the processes tell their operator (logs, metrics): beside the engine, apart from it.
    "telemetry": ("telemetry",),
    "store": ("engine", "store", "telemetry"),
    "workers": ("engine", "store", "workers", "telemetry"),
    "schemas": ("engine", "schemas"),
    "service": ("engine", "store", "schemas", "service", "workers.queue", "telemetry"),
    # The command line speaks to a server over HTTP; the engine is there to verify offline.
    # Its backup and restore alone talk to the store itself, as the workers do.
    "cli": ("engine", "cli", "store.backups"),
    # The benchmarks measure the real processes; what they share with the tests lives in bench/.
    "bench": ("engine", "store", "workers", "service", "schemas", "cli", "bench", "telemetry"),
}


# A title's drawing in the terminal lives in its package beside its drawing for the pages
# (`table.js`): the command line's code, which nothing in the engine imports.
TERMINAL = "engine/games/*/terminal.py"


def imports(package: str):
    for path in (ROOT / package).rglob("*.py"):
        if not path.match(TERMINAL):
            for name in _imported(path):
                yield path.relative_to(ROOT), name


def _imported(path):
    """What a file imports of ours, by absolute module name."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            base = node.module or ""
            names = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        yield from (name for name in names if name.split(".")[0] in OURS)


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_a_layer_imports_only_the_layers_below_it(package):
    allowed = ALLOWED[package]
    wrong = [
        f"{path} imports {name}"
        for path, name in imports(package)
        if not any(name == a or name.startswith(a + ".") for a in allowed)
    ]
    assert wrong == []


def test_a_titles_terminal_drawing_uses_only_the_command_line_and_the_engine():
    drawings = sorted(ROOT.glob(TERMINAL))
    assert drawings
    wrong = [f"{path} imports {name}" for path in drawings
             for name in _imported(path) if name.split(".")[0] not in ("cli", "engine")]
    assert wrong == []


def test_nothing_in_the_engine_imports_a_terminal_drawing():
    assert [(path, name) for path, name in imports("engine") if name.endswith(".terminal")] == []


@pytest.mark.parametrize(("module", "absent"), [
    # The workers run without gevent: it is the web's event loop (gunicorn.conf.py).
    ("store", "gevent"),
    ("workers.__main__", "gevent"),
    # The API's schemas describe requests; they need no connection to Redis to do it.
    ("schemas.api", "store"),
    ("schemas.api", "redis"),
])
def test_a_module_loads_without_what_it_does_not_need(module, absent):
    loaded = subprocess.run(
        [sys.executable, "-c", f"import sys, {module}; print(*sorted(sys.modules))"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    assert [name for name in loaded if name.split(".")[0] == absent] == []
