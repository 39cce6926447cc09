"""Clients of the chaos test: threads each playing legal moves of their own games over HTTP.

A player never helps judging along. It posts a move (with an `Idempotency-Key`, and `wait`
for some players, none for the others) and, while the answer is 202, reads
`GET /moves/{seq}` until the verdict is in; it posts again, with the same key, only when its
post got no answer or a 503 (the outcome unknown, as the contract says to). The ledger keeps
every submission with when it was posted and when its verdict was seen, and every HTTP
status answered.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from engine.games import GAMES
from tests.api import Game
from tests.e2e.served import Answer, Http

TITLES = sorted(GAMES)
# A submission not judged this long after it was posted counts as stranded.
GIVE_UP_S = 40.0
_READ_EVERY_S = 0.2
_RETRY_EVERY_S = 0.2


@dataclass
class Submission:
    game: str
    key: str
    posted: float  # time.monotonic()
    seq: int | None = None
    verdict: str | None = None  # "accepted" or "rejected"
    seen: float | None = None  # when the player saw the verdict


@dataclass
class Ledger:
    submissions: list[Submission] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)  # HTTP status (0: no answer) -> count
    failures: list[str] = field(default_factory=list)  # a player that stopped on a surprise
    lock: threading.Lock = field(default_factory=threading.Lock)

    def pending_since(self, instant: float) -> list[Submission]:
        """The submissions posted by `instant` whose verdict no player has seen yet."""
        with self.lock:
            return [s for s in self.submissions if s.posted <= instant and s.seen is None]

    def healed(self, instant: float, within_s: float) -> tuple[int, float]:
        """Wait up to `within_s` for every submission posted by `instant` to be judged: how
        many were still pending at `instant`, and how long after it the last one was seen."""
        deadline = time.monotonic() + within_s
        while self.pending_since(instant) and time.monotonic() < deadline:
            time.sleep(0.05)
        with self.lock:
            late = [s for s in self.submissions if s.posted <= instant
                    and (s.seen is None or s.seen > instant)]
        if any(s.seen is None for s in late):
            return len(late), float("inf")
        return len(late), max((s.seen - instant for s in late), default=0.0)


class Player(threading.Thread):
    def __init__(self, http: Http, ledger: Ledger, number: int, stopping: threading.Event):
        super().__init__(name=f"player-{number}", daemon=True)
        self.http, self.ledger, self.stopping = http, ledger, stopping
        self.title = TITLES[number % len(TITLES)]
        self.wait = 0 if number % 2 else 3  # half only read, half wait on their post first
        self.rnd = random.Random(number)

    def run(self) -> None:
        try:
            self._play_on()
        except Exception as surprise:  # an answer the contract does not allow: the test says so
            with self.ledger.lock:
                self.ledger.failures.append(f"{self.name}: {surprise!r}")

    def _play_on(self) -> None:
        game = self._new_game()
        while not self.stopping.is_set():
            legal = self._ask("get", game.url("/legal-moves"), headers=game.table)
            if not legal.json["moves"]:
                game = self._new_game()
                continue
            choice = self.rnd.choice(legal.json["moves"])
            self._play(game, choice["seat"], choice["move"])

    def _new_game(self) -> Game:
        seats = min(GAMES[self.title].seat_counts)
        body = {"game": self.title, "players": [f"p{i}" for i in range(seats)]}
        created = self._ask("post", "/v1/games", json=body).json
        game = Game(self.http, created, {s["seat"]: s["token"] for s in created["seats"]})
        with self.ledger.lock:
            self.ledger.games.append(game)
        return game

    def _play(self, game: Game, seat: int, move: dict) -> None:
        submission = Submission(game.id, uuid.uuid4().hex, time.monotonic())
        with self.ledger.lock:
            self.ledger.submissions.append(submission)
        headers = {**game.seat(seat), "Idempotency-Key": submission.key}
        answer = self._ask("post", game.url(f"/moves?wait={self.wait}"), json={"move": move},
                           headers=headers)
        submission.seq = answer.json["seq"]
        looked_up = game.url(f"/moves/{submission.seq}")
        status = answer.json.get("status") or answer.json.get("verdict")
        while status == "pending" and time.monotonic() - submission.posted < GIVE_UP_S:
            time.sleep(_READ_EVERY_S)
            status = self._ask("get", looked_up, headers=game.seat(seat)).json["status"]
        if status != "pending":
            submission.verdict, submission.seen = status, time.monotonic()

    def _ask(self, method: str, path: str, **request: Any) -> Answer:
        """The answer to a request, sent again while the service answers 503 or nothing."""
        deadline = time.monotonic() + GIVE_UP_S
        while True:
            try:
                answer = getattr(self.http, method)(path, **request)
            except OSError:
                answer = Answer(0, b"", {})
            with self.ledger.lock:
                self.ledger.statuses[answer.status_code] += 1
            if answer.status_code not in (0, 503) or time.monotonic() > deadline:
                return answer
            time.sleep(_RETRY_EVERY_S)


@contextmanager
def playing(http: Http, count: int) -> Iterator[Ledger]:
    """`count` players at their games until the block ends; each then settles its move."""
    ledger, stopping = Ledger(), threading.Event()
    players = [Player(http, ledger, n, stopping) for n in range(count)]
    for player in players:
        player.start()
    try:
        yield ledger
    finally:
        stopping.set()
        for player in players:
            player.join(GIVE_UP_S + 5)
