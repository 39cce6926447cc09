"""The backup drill: games played under load by the Procfile's processes, `tablelog backup`
taken mid-play, Redis and its data removed, the backup restored into a new redis-server on
another port; then every game's chain verifies, every head the server signed when the backup
began is in the restored log, every move acknowledged before it is there, and play goes on."""

from __future__ import annotations

import json
import random
import shutil
import statistics
import subprocess
import sys
import threading
import time

from bench.local import start_redis
from engine.signatures import receipt_problem
from service import signing
from tests.api import Game
from tests.conftest import ROOT, _free_port
from tests.e2e.served import serve

_GAMES = 4
_PLAYED_S = 30  # the load's bound, whatever happens


def _tablelog(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def _redis(folder) -> tuple[subprocess.Popen, str]:
    folder.mkdir()
    port = _free_port()
    proc = start_redis(port, str(ROOT / "redis.conf"), "--port", str(port), "--dir", str(folder))
    return proc, f"redis://127.0.0.1:{port}/0"


class _Load:
    """Random legal moves on every game from a thread, each acknowledged move's receipt and
    latency kept, until stopped (or `_PLAYED_S`)."""

    def __init__(self, http, games: list[Game]):
        self.http, self.games = http, games
        self.acked: list[tuple[float, dict]] = []  # when acknowledged, its receipt
        self.latencies: list[tuple[float, float]] = []  # when it started, how long it took
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._play, daemon=True)

    def _play(self) -> None:
        rnd, until = random.Random(7), time.monotonic() + _PLAYED_S
        while not self.stopped.is_set() and time.monotonic() < until:
            game = rnd.choice(self.games)
            legal = self.http.get(game.url("/legal-moves"), headers=game.table).json["moves"]
            if not legal:
                continue
            choice = rnd.choice(legal)
            started = time.monotonic()
            answer = game.move(choice["seat"], choice["move"])
            if answer.status_code == 201:
                self.latencies.append((started, time.monotonic() - started))
                self.acked.append((time.monotonic(), answer.json["receipt"]))


def test_a_backup_taken_mid_play_is_restored_whole_into_a_new_redis(tmp_path):
    key = signing.create(tmp_path / "keys")
    first, first_url = _redis(tmp_path / "first")
    env = {"TABLELOG_SIGNING_KEY": "", "TABLELOG_SIGNING_KEY_FILE": str(key),
           "WEB_CONCURRENCY": "2"}
    backup = tmp_path / "backup"
    try:
        with serve({**env, "REDIS_URL": first_url}, workers=2) as http:
            games = []
            for n in range(_GAMES):
                body = http.post("/v1/games", json={"game": "coloretto", "seed": f"drill{n}",
                                                     "players": ["ann", "bob", "cid"]}).json
                games.append(Game(http, body, {s["seat"]: s["token"] for s in body["seats"]}))
            load = _Load(http, games)
            load.thread.start()
            time.sleep(2)
            began = time.monotonic()
            heads = [http.get(game.url("/head")).json for game in games]
            taken = _tablelog("backup", str(backup), "--redis-url", first_url, "--keys", str(key),
                              "--json")
            ended = time.monotonic()
            time.sleep(1)
            load.stopped.set()
            load.thread.join(60)
        assert taken.returncode == 0, taken.stderr
    finally:
        first.terminate()
        first.wait(30)
    shutil.rmtree(tmp_path / "first")  # Redis and its data gone
    backed = json.loads(taken.stdout)
    assert backed["games"] == _GAMES and backed["signing_keys"]

    second, second_url = _redis(tmp_path / "second")
    try:
        started = time.monotonic()
        restored = _tablelog("restore", str(backup), "--redis-url", second_url,
                             "--keys-to", str(tmp_path / "restored-keys"), "--json")
        recovery_s = time.monotonic() - started
        assert restored.returncode == 0, restored.stderr + restored.stdout
        assert json.loads(restored.stdout)["missing"] == []
        again = _tablelog("restore", str(backup), "--redis-url", second_url)
        assert again.returncode == 2 and "holds games already" in again.stderr

        env["TABLELOG_SIGNING_KEY_FILE"] = str(tmp_path / "restored-keys" / signing.KEY_FILE)
        with serve({**env, "REDIS_URL": second_url}, workers=1) as http:
            keys = http.get("/v1/keys").json["keys"]
            for game, head in zip(games, heads, strict=True):
                replay = http.get(game.url("/replay"), headers=game.table).json
                checked = http.post("/v1/replays/verify", json=replay).json
                assert checked["ok"] and checked["head_ok"], json.dumps(checked)[:1500]
                assert receipt_problem(head, keys) is None
                assert replay["entries"][head["seq"] - 1]["hash"] == head["hash"]
            by_id = {game.id: game for game in games}
            before = [r for at, r in load.acked if at < began]
            assert before
            for receipt in before:
                replay = http.get(by_id[receipt["game"]].url("/replay"),
                                  headers=by_id[receipt["game"]].table).json
                assert replay["entries"][receipt["seq"] - 1]["hash"] == receipt["hash"]
            going_on = next(Game(http, g.created, g.tokens) for g in games
                            if http.get(g.url("/legal-moves"), headers=g.table).json["moves"])
            choice = http.get(going_on.url("/legal-moves"), headers=going_on.table).json
            answer = going_on.move(choice["moves"][0]["seat"], choice["moves"][0]["move"])
            assert answer.status_code == 201, answer.json
    finally:
        second.terminate()
        second.wait(30)
    during = [took for at, took in load.latencies if began <= at <= ended]
    outside = [took for at, took in load.latencies if not began <= at <= ended]
    print(f"\nbackup of {_GAMES} games ({backed['keys_stored']} keys) in {backed['seconds']} s;"
          f" restored in {recovery_s:.2f} s; verdict p50 during the backup"
          f" {_ms(during)} against {_ms(outside)} outside it ({len(during)}, {len(outside)})")


def _ms(latencies: list[float]) -> str:
    return f"{statistics.median(latencies) * 1000:.1f} ms" if latencies else "n/a"
