"""House rule 1: the engine is pure, so importing all of it loads no command line, framework,
client or module that does I/O, and none of its sources imports one, even inside a function.

The import is made in a fresh interpreter (`-I`: no user site, no PYTHON* variables), with this
checkout first on its path, importing `engine` and then every module under it one at a time, so
a module found loaded is named with the engine module whose import first brought it in.
"""

import ast
import json
import subprocess
import sys

from tests.conftest import ROOT

# Ours above the engine, the command line's libraries, the web's and the workers' frameworks,
# Redis and HTTP clients, and the standard library's sockets, processes and network clients.
# orjson (the log's canonical JSON), PyNaCl and cryptography (Ed25519 over bytes) are pure
# functions of their arguments and may be loaded.
BANNED = (
    "cli", "store", "workers", "service", "schemas", "bench", "tests",
    "rich", "click", "platformdirs",
    "flask", "werkzeug", "jinja2", "flask_smorest", "apispec", "marshmallow", "gunicorn",
    "gevent", "greenlet", "limits",
    "redis", "hiredis", "rq", "zstandard",
    "requests", "urllib3", "httpx", "aiohttp",
    "socket", "_socket", "ssl", "_ssl", "select", "selectors", "asyncio", "subprocess",
    "multiprocessing", "concurrent", "http", "urllib.request", "ftplib", "smtplib", "sqlite3",
)

PROBE = """
import importlib, json, pkgutil, sys
sys.path.insert(0, {root!r})
banned = {banned!r}

def found():
    return {{m for m in sys.modules if any(m == b or m.startswith(b + ".") for b in banned)}}

brought, seen = {{}}, found()
for name in ["engine", *(m.name for m in pkgutil.walk_packages(
        importlib.import_module("engine").__path__, "engine."))]:
    importlib.import_module(name)
    new = found() - seen
    if new:
        brought[name] = sorted(new)
        seen |= new
print(json.dumps({{"engine": importlib.import_module("engine").__file__,
                  "already": sorted(found() - {{m for ms in brought.values() for m in ms}}),
                  "brought": brought}}))
"""


def loaded_by_the_engine() -> dict:
    """What a fresh interpreter holds of `BANNED` once it has imported every engine module:
    `brought` by each engine module, and `already` there before the first import."""
    out = subprocess.run([sys.executable, "-I", "-c", PROBE.format(root=str(ROOT),
                                                                    banned=BANNED)],
                         cwd=ROOT, capture_output=True, text=True, check=True, timeout=60)
    return json.loads(out.stdout)


def test_importing_the_whole_engine_loads_no_command_line_framework_client_or_io_module():
    loaded = loaded_by_the_engine()
    assert loaded["engine"] == str(ROOT / "engine" / "__init__.py")
    assert loaded["brought"] == {}
    assert loaded["already"] == []


# What an engine source may not import, by top-level name: the banned above, and the standard
# library's clock, randomness, environment and files (the seeded shuffle and the caller's
# chooser are the engine's only randomness, `engine.shuffle` and `engine.playout`).
SOURCES_BANNED = {name.split(".")[0] for name in BANNED if name != "urllib.request"} | {
    "urllib", "random", "time", "datetime", "os", "secrets", "uuid", "io", "sys"}


def test_no_engine_source_imports_them_not_even_inside_a_function():
    wrong = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            wrong += [f"{path.relative_to(ROOT)} imports {name}" for name in names
                      if name.split(".")[0] in SOURCES_BANNED]
    assert wrong == []
