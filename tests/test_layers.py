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
    # Its backup, restore and migrate alone talk to the store itself, as the workers do.
    "cli": ("engine", "cli", "store.backups", "store.layout", "store.keys", "store.connection"),
    # The benchmarks measure the real processes; what they share with the tests lives in bench/.
    "bench": ("engine", "store", "workers", "service", "schemas", "cli", "bench", "telemetry"),
}


def imports(package: str):
    for path in (ROOT / package).rglob("*.py"):
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


def _module_of(path, root) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _store_graph(root=ROOT) -> dict[str, set[str]]:
    """What each module of store/ imports of store/, wherever the import is written: at the
    top, under TYPE_CHECKING or inside a function (a circle hidden there is still a circle).
    A name imported from a module counts as that module; importing a module of the package
    is not counted as importing the package's own `__init__`."""
    modules = {_module_of(path, root): path for path in (root / "store").rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        graph[module] = set()
        for name in _imported(path):
            parts = name.split(".")
            found = next((".".join(parts[:cut]) for cut in range(len(parts), 0, -1)
                          if ".".join(parts[:cut]) in modules), None)
            if found is not None and found != module:
                graph[module].add(found)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every circle of imports met walking the graph from each module, each named once."""
    found: dict[frozenset[str], list[str]] = {}

    def walk(module: str, trail: list[str]) -> None:
        for imported in sorted(graph.get(module, ())):
            if imported in trail:
                circle = trail[trail.index(imported):]
                found.setdefault(frozenset(circle), [*circle, imported])
            elif imported not in done:
                walk(imported, [*trail, imported])
        done.add(module)

    done: set[str] = set()
    for module in sorted(graph):
        walk(module, [module])
    return sorted(found.values())


def test_no_module_of_the_store_imports_itself_through_another():
    assert _circles(_store_graph()) == []


def test_a_circle_hidden_in_a_function_or_under_type_checking_is_found(tmp_path):
    (tmp_path / "store").mkdir()
    for name, source in {
        "__init__": "from store.a import A\n",
        "a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from store.b import B\n",
        "b": "def train():\n    from store import c\n",
        "c": "import store.a\n",
        "d": "from store.a import A\n",
    }.items():
        (tmp_path / "store" / f"{name}.py").write_text(source)
    assert _circles(_store_graph(tmp_path)) == [["store.a", "store.b", "store.c", "store.a"]]


# The engine's fold and what judges a move: the workers and the read side call them, with what
# the store returns; the store only keeps and returns what was written.
FOLDING = {"fold", "folded", "state_at", "verdict", "rules", "table_of", "apply", "judge", "deal",
           "replay_rebuilt", "verify_replay", "report", "playout"}
FOLDING_MODULES = ("engine.audit", "engine.playout", "engine.line")


def _folds(path) -> list[str]:
    """Where a file imports or calls the engine's fold, wherever written: an import of one of
    its functions or modules, or a call of an attribute by one of their names."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("engine"):
            found += [f"imports {node.module}.{a.name}" for a in node.names
                      if a.name in FOLDING
                      or f"{node.module}.{a.name}".startswith(FOLDING_MODULES)]
        elif isinstance(node, ast.Import):
            found += [f"imports {a.name}" for a in node.names
                      if a.name.startswith(FOLDING_MODULES)]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in FOLDING):
            found.append(f"calls .{node.func.attr}() at line {node.lineno}")
    return found


def test_the_store_folds_nothing():
    assert {str(path.relative_to(ROOT)): found for path in sorted((ROOT / "store").rglob("*.py"))
            if (found := _folds(path))} == {}


def test_a_fold_in_the_store_is_found(tmp_path):
    source = tmp_path / "compacted.py"
    source.write_text("from engine import log\n\ndef final_state(entries, table):\n"
                      "    game = log.rules(entries[0])\n"
                      "    return log.state_at(game, table, entries)\n")
    assert _folds(source) == ["calls .rules() at line 4", "calls .state_at() at line 5"]
    source.write_text("from engine import audit\nfrom engine.log import state_at\n")
    assert _folds(source) == ["imports engine.audit", "imports engine.log.state_at"]


# What only the store's mapper (store/stored.py, and store/packed.py, its part for a record's
# entries) spells: how an entry is written (sorted) and the stream field it is kept in.
MAPPER = {"store/stored.py", "store/packed.py"}
SPELLINGS = ("OPT_SORT_KEYS", '[b"e"]', "'e', ", '{"e":', "import packed",
             "store.packed import")


def test_only_the_mapper_knows_how_an_entry_is_stored():
    assert {str(path.relative_to(ROOT)): found for path in sorted((ROOT / "store").rglob("*.py"))
            if str(path.relative_to(ROOT)) not in MAPPER
            and (found := [s for s in SPELLINGS if s in path.read_text()])} == {}
