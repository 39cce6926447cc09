"""A key rotated while two web processes sign: every receipt and head they issued verifies with
the keys published afterwards, and the processes sign with the new key without a restart."""

from __future__ import annotations

import random
import subprocess
import sys
import threading

from engine.signatures import receipt_problem
from service import signing
from tests.api import Game
from tests.conftest import ROOT
from tests.e2e.served import serve

_ROTATIONS = 3
_MOVES_EACH_WAY = 12


def _rotate(folder) -> None:
    subprocess.run([sys.executable, "-m", "service.signing", "rotate", str(folder)], cwd=ROOT,
                   check=True, capture_output=True, timeout=60)


def test_receipts_signed_across_rotations_by_two_web_processes_all_verify(redis_url, tmp_path):
    key = signing.create(tmp_path)
    env = {"REDIS_URL": redis_url, "WEB_CONCURRENCY": "2", "TABLELOG_SIGNING_KEY": "",
           "TABLELOG_SIGNING_KEY_FILE": str(key)}
    with serve(env) as http:
        receipts = []
        created = []
        for n in range(2):
            body = http.post("/v1/games", json={"game": "coloretto", "seed": f"rot{n}",
                                                 "players": ["ann", "bob", "cid"]}).json
            receipts.append(body["receipt"])
            created.append(Game(http, body, {s["seat"]: s["token"] for s in body["seats"]}))

        def play(game: Game, rnd: random.Random) -> None:
            for _ in range(_MOVES_EACH_WAY):
                legal = http.get(game.url("/legal-moves"), headers=game.table).json["moves"]
                if not legal:
                    return
                choice = rnd.choice(legal)
                answer = game.move(choice["seat"], choice["move"])
                receipts.append(answer.json["receipt"])
                receipts.append(http.get(game.url("/replay"), headers=game.table).json["head"])

        players = [threading.Thread(target=play, args=(game, random.Random(n)))
                   for n, game in enumerate(created)]
        for player in players:
            player.start()
        for _ in range(_ROTATIONS):
            _rotate(tmp_path)
        for player in players:
            player.join(timeout=120)
        # After the last rotation, both processes sign with the newest key, unrestarted.
        newest = signing.load({"SIGNING_KEY_FILE": str(key)}).signer.kid
        after = [http.get(game.url("/head")).json for game in created for _ in range(4)]
        keys = http.get("/v1/keys").json["keys"]

    assert len(keys) == _ROTATIONS + 1
    assert len(receipts) > 2 * _MOVES_EACH_WAY
    assert [(r["seq"], receipt_problem(r, keys)) for r in receipts + after
            if receipt_problem(r, keys)] == []
    assert {r["kid"] for r in after} == {newest}
