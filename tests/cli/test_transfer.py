"""`tablelog export` from one server and `tablelog import` into a second with a Redis of its
own, over real HTTP: 100 finished games of every title arrive entry for entry and hash for
hash, an import cut short resumes, a dump cut short is completed, and a game with an edited
entry is refused with that entry named."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from bench.played import retold, stored
from cli.main import main
from engine.games import GAMES
from service import create_app
from store import keys
from tests.conftest import ROOT, _free_port, served, start_redis

PER_TITLE = 100
OPERATOR = "club-operator"


@pytest.fixture(scope="module")
def source(redis_url):
    """A server over a Redis database of its own, holding 100 finished games of every title,
    played in process and loaded straight into its store (`bench.played`)."""
    app = create_app({"TESTING": True, "REDIS_URL": redis_url.rsplit("/", 1)[0] + "/5"})
    store = app.extensions["store"]
    store.redis.flushdb()
    for title in sorted(GAMES):
        for number in range(PER_TITLE):
            stored(store, retold(title, number))
    with served(app) as url:
        yield url, store


@pytest.fixture(scope="module")
def destination(tmp_path_factory):
    """A second server over a second, empty redis-server, taking imports with OPERATOR."""
    port = _free_port()
    redis_server = start_redis(port, "--save", "", "--appendonly", "no",
                               "--dir", str(tmp_path_factory.mktemp("second-redis")))
    try:
        app = create_app({"TESTING": True, "REDIS_URL": f"redis://127.0.0.1:{port}/0",
                          "IMPORT_TOKEN": OPERATOR})
        with served(app) as url:
            yield url, app.extensions["store"]
    finally:
        redis_server.terminate()
        redis_server.wait(10)


def tablelog(*args: str, token: str | None = None):
    env = {"TABLELOG_IMPORT_TOKEN": OPERATOR, "TABLELOG_TOKEN": token}
    return CliRunner(env=env).invoke(main, list(args), catch_exceptions=False)


def answer(*args: str, token: str | None = None):
    result = tablelog(*args, "--json", token=token)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def stored_log(store, game_id):
    """A game's log as Redis holds it: every entry's stream id and bytes."""
    return store.redis.xrange(keys.game(game_id).log)


def listed(store):
    """Every game a store lists, by title and among the finished, with its creation time."""
    return {index: store.games.ids(None, 1000, title=title, finished=title is None)
            for index, title in enumerate([None, *sorted(GAMES)])}


def import_cut_short(dump, url, store, after: int) -> int:
    """Start importing `dump` in a process of its own and stop it (Ctrl-C) once `after` games
    are in; how many were in then."""
    env = {**os.environ, "TABLELOG_IMPORT_TOKEN": OPERATOR}
    importing = subprocess.Popen([sys.executable, "-m", "cli", "import", str(dump), "--url", url],
                                 cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(store.games.ids(None, 1000)) < after and time.monotonic() < deadline:
        assert importing.poll() is None, "the import ended before it was interrupted"
        time.sleep(0.02)
    importing.send_signal(signal.SIGINT)
    assert importing.wait(10) != 0
    return len(store.games.ids(None, 1000))


def test_every_finished_game_moves_to_an_empty_server_unchanged(source, destination, tmp_path):
    (source_url, source_store), (url, store) = source, destination
    dump = tmp_path / "club.ndjson"
    exported = answer("export", "-o", str(dump), "--url", source_url)
    assert exported == {"file": str(dump), "exported": 5 * PER_TITLE, "kept": 0, "refused": []}
    ids = [json.loads(line)["id"] for line in dump.read_bytes().splitlines()]
    assert sorted(ids) == sorted(g for g, _ in source_store.games.ids(None, 1000))

    cut = import_cut_short(dump, url, store, after=PER_TITLE)
    assert PER_TITLE <= cut < 5 * PER_TITLE
    resumed = answer("import", str(dump), "--url", url)
    assert resumed["refused"] == [] and resumed["already"] >= cut
    assert resumed["imported"] + resumed["already"] == 5 * PER_TITLE

    for game_id in ids:
        assert stored_log(store, game_id) == stored_log(source_store, game_id)
        assert store.games.secret(game_id) == source_store.games.secret(game_id)
    assert listed(store) == listed(source_store)
    again = answer("import", str(dump), "--url", url)
    assert (again["imported"], again["already"]) == (0, 5 * PER_TITLE)


def test_an_export_cut_short_is_completed_into_the_same_file(source, tmp_path):
    source_url, _ = source
    whole, cut = tmp_path / "whole.ndjson", tmp_path / "cut.ndjson"
    answer("export", "--game", "hermit", "--game", "coloretto", "-o", str(whole),
           "--url", source_url)
    lines = whole.read_bytes().splitlines(keepends=True)
    assert len(lines) == 2 * PER_TITLE
    cut.write_bytes(b"".join(lines[:150]) + lines[150][:1000])
    # A seat's token of some game kept in the environment is not sent: every game would
    # refuse it, and finished games are public.
    completed = answer("export", "--game", "hermit", "--game", "coloretto", "-o", str(cut),
                       "--url", source_url, token="a-seat-token-elsewhere")
    assert (completed["kept"], completed["exported"]) == (150, 2 * PER_TITLE - 150)
    # Each download's head is signed as it is served: the games downloaded again alike but
    # for the moment of their heads' signatures.
    kept, again = cut.read_bytes().splitlines(), whole.read_bytes().splitlines()
    assert kept[:150] == again[:150] and len(kept) == len(again)
    assert [_unheaded(line) for line in kept] == [_unheaded(line) for line in again]


def _unheaded(line: bytes) -> dict:
    document = json.loads(line)
    head = document.pop("head")
    return {**document, "head": (head["seq"], head["hash"], head["kid"])}


def test_a_dump_with_an_edited_entry_is_refused_naming_it(destination, tmp_path):
    url, store = destination
    # Games the source does not hold: those it does are here already, under their own ids.
    documents = [{**retold("hermit", PER_TITLE + n), "id": f"edited-{n}"} for n in range(3)]
    edited = documents[1]["entries"][11]
    edited["seat"] = 1 - edited["seat"]
    dump = tmp_path / "edited.ndjson"
    dump.write_text("".join(json.dumps(d) + "\n" for d in documents))
    result = tablelog("import", str(dump), "--url", url)
    assert result.exit_code == 1
    assert "Refused line 2, game edited-1: Entry 12 does not verify" in result.stdout
    assert "Imported 2 games" in result.stdout
    assert store.games.context("edited-1", None).meta is None
    assert store.log.entries("edited-2") == documents[2]["entries"]


def test_an_import_refused_the_operators_token_stops_at_once(destination, tmp_path):
    url, store = destination
    dump = tmp_path / "one.ndjson"
    dump.write_text(json.dumps({**retold("hermit", 0), "id": "forged-0"}) + "\n")
    result = CliRunner().invoke(main, ["import", str(dump), "--url", url,
                                       "--import-token", "guess"])
    assert result.exit_code == 2
    # The last line: the server's own log of requests goes to the same stderr here.
    assert result.stderr.splitlines()[-1] == (
        "This is not the operator's import token (bad-token). 0 games were imported: the server"
        " refuses this token (or takes no imports), so the same command would be refused"
        " again.")
    assert store.games.context("forged-0", None).meta is None


def test_an_import_to_a_server_that_takes_none_is_not_told_to_run_again(tablelog, tmp_path):
    dump = tmp_path / "one.ndjson"
    dump.write_text(json.dumps({**retold("hermit", 0), "id": "unwanted-0"}) + "\n")
    result = tablelog("import", str(dump), "--import-token", "any")
    assert result.exit_code == 2
    said = result.stderr.splitlines()[-1]
    assert said.startswith("This server takes no imports")
    assert "run the same command again" not in said
