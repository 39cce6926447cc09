"""House rule 1: the engine does no I/O, so importing all of it loads no framework or client."""

import ast
import subprocess
import sys

from tests.conftest import ROOT

PROBE = """
import importlib, pkgutil, sys
import engine
for module in pkgutil.walk_packages(engine.__path__, "engine."):
    importlib.import_module(module.name)
loaded = set(sys.modules)
print(" ".join(sorted(m for m in {names} if m in loaded and m not in {allowed})))
"""


def test_importing_the_whole_engine_loads_no_io_module():
    # `random`, `socket`, `time` may come in with the standard library itself; check the
    # engine's own imports instead for those, and the frameworks outright. orjson, a pure
    # function from values to bytes, writes the log's canonical JSON (engine.log.canonical).
    frameworks = ("flask", "redis", "rq", "marshmallow", "werkzeug")
    code = PROBE.format(names=frameworks, allowed=())
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == ""


def test_engine_sources_import_no_clock_random_or_environment():
    banned = {"random", "time", "datetime", "os", "socket", "secrets", "uuid", "io", "sys"}
    for path in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in banned, f"{path.relative_to(ROOT)} imports {name}"
