"""The wheel, as a deployment gets it: built from the checkout, installed (not editable) into a
clean virtualenv, and run from there, away from the checkout.

Every file of the packages that is not Python and that git tracks (the titles' boards and
tables, the pages, the compaction dictionaries) is in the wheel. Then, from a folder holding
only the Procfile and `gunicorn.conf.py` (the deployment's own files), a redis-server of the
test's own, the Procfile's web and one worker run the installed package: a game is played to
its end over HTTP, `python -m workers.compaction` compacts it, and every read of it answers as
it did live; `tablelog verify`, the installed command, checks its replay.

The wheel is built by pip in an isolated build environment (setuptools from the package index,
as `make test` installs from it). The clean virtualenv gets the wheel alone; the libraries it
depends on are those of the suite's own virtualenv, put at the end of its path by a `.pth`
file, so that no test downloads them, while everything of tablelog's comes from the wheel.
Every wait is bounded, and only the processes started here are stopped, by their pids.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest
import redis

from bench.local import start_redis
from store import Store
from tests.api import create, head_unsigned
from tests.conftest import ROOT, _free_port, stop
from tests.e2e.served import Http, procfile, wait_until_up

pytestmark = pytest.mark.wheel

_BUILD_S = 300  # pip fetches setuptools for the isolated build
_STEP_S = 60


def _run(*command: str | Path, cwd: Path, env: dict[str, str] | None = None,
         timeout: float = _STEP_S) -> str:
    done = subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout)
    assert done.returncode == 0, f"{command}: {done.stdout}\n{done.stderr}"
    return done.stdout


def packages() -> list[str]:
    """The packages the wheel holds, as pyproject.toml finds them."""
    found = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return [name.rstrip("*") for name in found["packages"]["find"]["include"]]


def tracked(*paths: str) -> list[str]:
    listed = _run("git", "ls-files", "-z", "--", *paths, cwd=ROOT)
    return [p for p in listed.split("\0") if p and (ROOT / p).is_file()]


def data_files() -> list[str]:
    return [p for p in tracked(*packages()) if not p.endswith(".py")]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built from a copy of the checkout's tracked sources (as they are now), so that
    the build writes nothing into the checkout."""
    source, out = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("dist")
    for path in tracked("pyproject.toml", "README.md", *packages()):
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / path, source / path)
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", out,
         source, cwd=out, timeout=_BUILD_S)
    (built,) = out.glob("tablelog-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A clean virtualenv holding the wheel, installed not editable; its `bin`."""
    venv = tmp_path_factory.mktemp("venv")
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=venv)
    python = venv / "bin" / "python"
    _run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index",
         "--quiet", wheel, cwd=venv)
    # Only now, with pip done in it for good (pip would take the suite's editable tablelog for
    # this one's and change it): the libraries tablelog needs, after the wheel's on the path.
    site = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                     cwd=venv).strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "_suite_libraries.pth").write_text("".join(f"{p}\n" for p in sorted(ours)))
    # The console script pip writes for gunicorn, which the Procfile's web names.
    gunicorn = venv / "bin" / "gunicorn"
    gunicorn.write_text(f"#!{python}\nimport sys\nfrom gunicorn.app.wsgiapp import run\n"
                        "sys.exit(run())\n")
    gunicorn.chmod(0o755)
    return venv / "bin"


def test_the_wheel_holds_every_data_file_of_the_packages(wheel):
    wanted = data_files()
    assert "store/compaction-2.zdict" in wanted and "service/static/home.html" in wanted
    with zipfile.ZipFile(wheel) as held:
        names = set(held.namelist())
    assert [p for p in wanted if p not in names] == []


def test_the_installed_service_plays_a_game_compacts_it_and_reads_it_back(installed, tmp_path):
    deployed = tmp_path / "deployed"
    deployed.mkdir()
    for name in ("Procfile", "gunicorn.conf.py"):
        shutil.copy2(ROOT / name, deployed / name)
    site = Path(_run(installed / "python", "-c", "import sysconfig; print(sysconfig.get_paths()"
                     "['purelib'])", cwd=deployed).strip())
    redis_port, port = _free_port(), _free_port()
    url = f"redis://127.0.0.1:{redis_port}/0"
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PYTHON") and k != "VIRTUAL_ENV"}
    env.update(PATH=f"{installed}{os.pathsep}{env.get('PATH', '')}", REDIS_URL=url,
               PORT=str(port), BIND_ADDRESS="127.0.0.1", WEB_CONCURRENCY="1", WEB_CONNECTIONS="100")
    homes = _run("python", "-c", "import cli, engine, schemas, service, store, workers;"
                 "print(*(m.__file__ for m in (cli, engine, schemas, service, store, workers)))",
                 cwd=deployed, env=env).split()
    assert all(Path(home).is_relative_to(site) for home in homes), homes

    lines = procfile()
    server = start_redis(redis_port, "--save", "", "--appendonly", "no", "--dir", str(tmp_path))
    procs = [subprocess.Popen(["bash", "-c", "exec " + lines[name].strip()], cwd=deployed,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for name in ("web", "worker")]
    try:
        http = Http(f"http://127.0.0.1:{port}")
        wait_until_up(http, workers=1, auditors=0)
        _play_compact_and_read_back(http, url, deployed, env)
    finally:
        stop([*procs, server])


def _play_compact_and_read_back(http: Http, url: str, deployed: Path, env: dict) -> None:
    # The data files, served from the installed packages.
    for page in ("/", "/static/js/viewer.js", "/static/tablelog.css", "/tables/coloretto.js",
                 "/v1/boards/keltis-nwnz"):
        assert http.get(page).status_code == 200, page
    game = create(http, "coloretto", ["ann", "bob", "cid"], seed="wheel",
                  options={"deals": 1})
    assert game.play_to_end(random.Random("wheel")) > 20
    reads = ("", "/state", "/score", "/events?limit=500")
    live = {tail: http.get(game.url(tail), headers=game.table).json for tail in reads}
    replay = http.get(game.url("/replay"), headers=game.table).data
    assert live[""]["status"] == "finished"

    said = _run("python", "-m", "workers.compaction", cwd=deployed, env=env)
    assert said.strip() == "1 written", said
    store = Store(redis.Redis.from_url(url))
    try:
        assert store.compacted.compacted([game.id]) == [True]
    finally:
        store.redis.close()
    for tail in reads:
        assert http.get(game.url(tail), headers=game.table).json == live[tail], tail
    again = http.get(game.url("/replay"), headers=game.table).data
    assert head_unsigned(again) == head_unsigned(replay)
    (deployed / "replay.json").write_bytes(again)
    verified = json.loads(_run("tablelog", "verify", "replay.json", "--json", cwd=deployed,
                               env=env))
    assert verified["ok"], verified
