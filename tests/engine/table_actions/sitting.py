"""A table in a test: submissions posted one at a time and judged as a worker would, by folding
the log (`engine.log.fold`, one entry a `next` as the log grows), with the turns of conceded
seats played after each verdict."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from engine import log
from engine.game import TABLE, Table
from engine.games import GAMES
from engine.table_actions import conceded_turn

START = datetime(2026, 1, 1, tzinfo=UTC)


def stamp(at: datetime) -> str:
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Sitting:
    def __init__(self, title: str = "coloretto", seats: int = 3, options: dict | None = None,
                 seed: str = "table", recorded: bool = False):
        self.game = GAMES[title]
        filled = self.game.options(seats, options or {})
        self.now = START
        # A recorded game (engine.recorded) has no seed: the table names its cards.
        self.table = Table(seats, filled, "" if recorded else seed, recorded=recorded)
        players = [f"p{s}" for s in range(seats)]
        created = log.created(self.game, players, filled, self.table.seed, [],
                              recorded=recorded)
        self.entries = [{**created, "seq": 1, "at": stamp(START)}]
        self.folding = log.fold(self.game, self.table, self.entries)
        self.step = next(self.folding)
        self.after: dict[int, Any] = {1: self.state}  # the state after each accepted verdict

    @property
    def state(self) -> Any:
        return self.step.state

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)

    def post(self, seat: int | str, move: dict[str, Any], conceded: bool = False
             ) -> dict[str, Any]:
        """Submit and judge one move; the verdict entry (then the conceded seats' turns)."""
        verdict = self._judged(log.submission(seat, move, conceded))
        if not conceded:
            while (turn := conceded_turn(self.game, self.step.pending)) is not None:
                self._judged(log.submission(*turn, conceded=True))
        return verdict

    def play(self, rnd: random.Random, moves: int) -> None:
        """Up to `moves` random legal moves of the seats to act."""
        for _ in range(moves):
            listed = [(s, m) for s in self.game.to_act(self.state)
                      for m in self.game.legal_moves(self.state, s)]
            if not listed or self.game.is_over(self.state):
                return
            assert self.post(*rnd.choice(listed))["type"] == log.ACCEPTED

    def last_accepted(self) -> int:
        return max(self.after)

    def refolded(self) -> Any:
        """The state a fresh fold of the whole log ends in."""
        return log.state_at(self.game, self.table, self.entries)

    def views(self, state: Any) -> list[Any]:
        """What every viewer sees of `state`, but the table's side of it."""
        viewers = [TABLE, "spectator", *range(self.table.seats)]
        return [{k: v for k, v in self.game.view(state, v).items() if k != "table"}
                for v in viewers]

    def _judged(self, body: dict[str, Any]) -> dict[str, Any]:
        self._append(body)
        recomputed = next(self.folding).recomputed
        verdict = self._append(dict(recomputed))
        self.step = next(self.folding)
        if verdict["type"] == log.ACCEPTED:
            for fact in verdict["effects"]:
                if fact["type"] == "taken-back":
                    self.after = {s: v for s, v in self.after.items() if s <= fact["to"]}
            self.after[verdict["seq"]] = self.state
        return verdict

    def _append(self, body: dict[str, Any]) -> dict[str, Any]:
        entry = {**body, "seq": len(self.entries) + 1, "at": stamp(self.now)}
        self.entries.append(entry)
        return entry
