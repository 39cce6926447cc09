"""A small client of the tablelog API over any Flask-test or HTTP transport, for the tests."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Game:
    http: Any
    created: dict[str, Any]
    tokens: dict[int, str] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.created["id"]

    @property
    def table(self) -> dict[str, str]:
        return bearer(self.created["table_token"])

    def seat(self, seat: int) -> dict[str, str]:
        return bearer(self.tokens[seat])

    def url(self, tail: str = "") -> str:
        return f"/v1/games/{self.id}{tail}"

    def move(self, seat: int, move: dict[str, Any], wait: float = 5, **extra: Any):
        return self.http.post(
            self.url(f"/moves?wait={wait}"), json={"move": move, **extra}, headers=self.seat(seat)
        )

    def play(self, rnd: random.Random, moves: int) -> list[int]:
        """Up to `moves` random legal moves, each by its own seat's token (fewer if the game
        ends first); the seqs of their verdicts."""
        verdicts = []
        for _ in range(moves):
            legal = self.http.get(self.url("/legal-moves"), headers=self.table).json["moves"]
            if not legal:
                break
            choice = rnd.choice(legal)
            answer = self.move(choice["seat"], choice["move"])
            assert answer.status_code == 201, answer.json
            verdicts.append(answer.json["version"])
        return verdicts

    def play_to_end(self, rnd: random.Random, max_moves: int = 5000) -> int:
        """Play random legal moves, each by its own seat's token, until the game is finished."""
        for played in range(max_moves):
            legal = self.http.get(self.url("/legal-moves"), headers=self.table).json
            if not legal["moves"]:
                assert self.http.get(self.url()).json["status"] == "finished"
                return played
            choice = rnd.choice(legal["moves"])
            answer = self.move(choice["seat"], choice["move"])
            assert answer.status_code == 201, answer.json
        raise AssertionError("the game did not end")


def unstamped(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer without the moment its receipt was signed at (`at`, and so `sig`): the same
    answer given twice is signed each time it is given."""
    receipt = {k: v for k, v in answer["receipt"].items() if k not in ("at", "sig")}
    return {**answer, "receipt": receipt}


def unwritten(http, game: Game, post, code: str):
    """The answer to `post()`: a move refused with `code` before anything was written, a 422
    naming no entry of its own, the log as it was."""
    before = _logged(http, game)
    answer = post()
    assert answer.status_code == 422 and answer.json["code"] == code, answer.json
    assert "seq" not in answer.json and "receipt" not in answer.json
    assert _logged(http, game) == before
    return answer


def _logged(http, game: Game) -> list[dict[str, Any]]:
    return http.get(game.url("/events?limit=5000"), headers=game.table).json["events"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(http, game: str = "coloretto", players=("ann", "bob", "cid"), **body: Any) -> Game:
    answer = http.post("/v1/games", json={"game": game, "players": list(players), **body})
    assert answer.status_code == 201, answer.json
    created = answer.json
    return Game(http, created, {s["seat"]: s["token"] for s in created["seats"]})


def head_unsigned(replay: bytes, field: str = "head") -> bytes:
    """A replay document's JSON with its head's signing time and signature left out (or those
    of another `field`, such as an answer's `receipt`): the head is signed as it is read, so
    two reads of one game differ there alone."""
    document = json.loads(replay)
    document[field] = {k: v for k, v in document[field].items() if k not in ("at", "sig")}
    return json.dumps(document).encode()
