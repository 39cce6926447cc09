"""`tablelog replay` downloads a replay; `tablelog verify` checks it with no server at all (a
process of its own, pointed at an address where nothing listens), re-judging it with the
engine installed here."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from engine import log
from tests.api import create
from tests.conftest import ROOT
from tests.e2e.served import Http

NOWHERE = "http://127.0.0.1:9"


@pytest.fixture(scope="module")
def finished(web):
    """A finished one-round game of Die sieben Siegel."""
    game = create(Http(web), "sieben-siegel", ["ann", "bob", "cid"], seed="verified",
                  options={"rounds": 1})
    game.play_to_end(random.Random("verified"))
    return game


@pytest.fixture(scope="module")
def replay(finished):
    return finished.http.get(finished.url("/replay")).json


def test_replay_saves_the_document_the_api_serves(tablelog, finished, replay, tmp_path):
    path = tmp_path / "saved.json"
    result = tablelog("replay", finished.id, "-o", str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Saved the replay of {finished.id} (")
    saved = json.loads(path.read_text())
    # Its head is signed as it is served: the same entry, at another moment.
    assert saved.pop("head")["hash"] == replay["head"]["hash"]
    assert saved == {k: v for k, v in replay.items() if k != "head"}


NO_KEYS = "head not checked: no keys; give --keys or --url\n"


def verify(path, *options: str) -> subprocess.CompletedProcess:
    """`tablelog verify` in a process of its own, with no server anywhere it could ask."""
    env = {"PATH": "/usr/bin:/bin", "TABLELOG_URL": NOWHERE, "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-m", "cli", "verify", str(path), *options],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def keys(finished, tmp_path_factory):
    """The server's published keys, saved as a club keeps them."""
    path = tmp_path_factory.mktemp("keys") / "keys.json"
    path.write_text(json.dumps(finished.http.get("/v1/keys").json))
    return path


def test_a_good_replay_verifies_offline(replay, keys, tmp_path):
    path = tmp_path / "good.json"
    path.write_text(json.dumps(replay))
    result = verify(path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("hash chain: holds; seed against its commitment: holds; "
                                    "verdicts and score re-judged: holds")
    assert result.stdout.endswith(f"It verifies.\n{NO_KEYS}")
    checked = verify(path, "--keys", str(keys), "--strict")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "head signed by the server: holds" in checked.stdout
    assert checked.stdout.endswith("It verifies.\n")


def _rewritten_time(replay):
    """The replay with one entry's time rewritten and the log hashed again, as whoever runs
    the server could: chain, seed and verdicts all hold; only the signed head tells."""
    entries = [{k: v for k, v in e.items() if k != "hash"} for e in replay["entries"]]
    entries[3]["at"] = "2020-01-01T00:00:00.000Z"
    return {**replay, "entries": log.chain(log.GENESIS, entries)}


def test_verify_without_keys_says_the_head_went_unchecked_and_fails_under_strict(
        replay, keys, tmp_path):
    path = tmp_path / "rewritten.json"
    path.write_text(json.dumps(_rewritten_time(replay)))
    unchecked = verify(path)
    assert unchecked.returncode == 0, unchecked.stdout + unchecked.stderr
    assert unchecked.stdout.endswith(f"It verifies.\n{NO_KEYS}")
    strict = verify(path, "--strict")
    assert strict.returncode == 1 and strict.stdout.endswith(NO_KEYS)
    as_json = verify(path, "--strict", "--json")
    assert as_json.returncode == 1 and as_json.stderr == NO_KEYS
    assert json.loads(as_json.stdout)["head_ok"] is None
    checked = verify(path, "--keys", str(keys))
    assert checked.returncode == 1
    assert "head signed by the server: FAILS" in checked.stdout
    assert NO_KEYS not in checked.stdout


def _first_accepted_play(entries):
    return next(e for e in entries if e["type"] == log.ACCEPTED
                and any(f["type"] == "played" for f in e["effects"]))


def _edited(replay, rechain: bool):
    """The replay with one card of one accepted play changed; `rechain` hashes the log again
    as a forger would, so that only re-judging can tell."""
    entries = [dict(e) for e in replay["entries"]]
    entry = _first_accepted_play(entries)
    entry["effects"] = [{**f, "card": "R1" if f["card"] != "R1" else "R2"}
                        if f["type"] == "played" else f for f in entry["effects"]]
    if rechain:
        entries = log.chain(log.GENESIS, [{k: v for k, v in e.items() if k != "hash"}
                                          for e in entries])
    return {**replay, "entries": entries}, entry["seq"]


@pytest.mark.parametrize(("rechain", "what"), [(False, "hash"), (True, "verdict")])
def test_a_tampered_replay_is_refused_naming_the_entry(replay, tmp_path, rechain, what):
    tampered, seq = _edited(replay, rechain)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tampered))
    result = verify(path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout.endswith(f"It does not verify: entry {seq} breaks ({what}).\n")
    report = json.loads(subprocess.run(
        [sys.executable, "-m", "cli", "verify", str(path), "--json"], cwd=ROOT,
        capture_output=True, text=True, timeout=60).stdout)
    assert report["ok"] is False
    assert min(m["seq"] for m in report["mismatches"]) == seq


@pytest.mark.parametrize(("text", "code", "said"), [
    ("not json", 2, "cannot be read as JSON"),
    ('{"format": "tablelog-replay/1", "entries": []}', 1, "does not verify: it has no entries."),
])
def test_a_file_that_is_no_replay_is_one_sentence(offline, tmp_path, text, code, said):
    path = tmp_path / "other.json"
    path.write_text(text)
    result = offline("verify", str(path))
    assert result.exit_code == code
    assert said in result.stderr and result.stderr.count("\n") == 1


def test_a_stored_score_edited_says_whose_total_and_both_values(replay, tmp_path):
    score = json.loads(json.dumps(replay["score"]))
    player = score["players"][1]
    player["total"] += 5
    path = tmp_path / "score.json"
    path.write_text(json.dumps({**replay, "score": score}))
    result = verify(path)
    assert result.returncode == 1, result.stdout + result.stderr
    said = (f"{player['name']}'s total is stored as {player['total']}, recomputed"
            f" {player['total'] - 5}")
    seq = len(replay["entries"])
    assert f"  entry {seq}: stored score: {said}\n" in result.stdout
    last = f"It does not verify: entry {seq} breaks (stored score: {said}).\n"
    assert result.stdout.endswith(last)
