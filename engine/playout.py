"""Random playouts of any game, written as the log the service would write for them.

The conformance tests, the golden replays and the benchmark all need whole games; this is the
one place that plays them. It stays pure like the rest of the engine: the caller hands in its
own seeded chooser (a `random.Random(seed)`, never the global one), so one seed plays one game
wherever it runs.

Besides listed legal moves a playout can make slips (a move listed for some seat in a recent
state, posted by any seat: often refused, naming the rule) and post several moves before their
verdicts, as a worker judging a batch writes them; the log then holds rejections and
submissions judged ahead of their acceptance, as a real one does.

`transcribe` enters a finished seeded game again as a scorekeeper at a real table would, for a
recorded game (`engine.recorded`): the setup of every deal named, each card named when it
comes into view.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from engine import log
from engine.game import TABLE, Game, Table

T = TypeVar("T")

_MAX_SUBMISSIONS = 20_000
# As a real table plays, for the golden replays and the replay-size figures: one submission in
# twelve is a slip, and up to three are posted before their verdicts.
TABLE_SLIPS, TABLE_BATCH = 0.08, 3
_SLIP_MEMORY = 6  # states whose listed moves a slip is drawn from


class Chooser(Protocol):
    """What a playout draws with: `random.Random` satisfies it."""

    def choice(self, seq: Sequence[T]) -> T: ...

    def random(self) -> float: ...


@dataclass
class Playout:
    """A finished game: its log (chained, as stored) and every state an acceptance led to."""

    game: Game
    table: Table
    entries: list[dict[str, Any]] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)

    @property
    def final(self) -> Any:
        return self.states[-1]


def play(
    game: Game,
    seats: int,
    seed: str,
    rnd: Chooser,
    options: Mapping[str, Any] | None = None,
    *,
    decks: Sequence[Sequence[str]] = (),
    slips: float = 0.0,
    batch: int = 1,
) -> Playout:
    """Play to the end, choosing uniformly among the legal moves of the seats to act.

    `slips` is the chance that a submission is a slip instead; `batch` the most submissions
    posted before their verdicts (each batch holds 1 to `batch`). Without slips every
    submission is a listed legal move, and one that is refused is a bug in the game.
    """
    table = Table(seats, game.options(seats, options or {}), seed, tuple(map(tuple, decks)))
    players = [f"p{s}" for s in range(seats)]
    out = Playout(game, table, [], [game.deal(table)])
    bodies = [log.created(game, players, table.options, seed, decks)]
    recent: deque[list[tuple[int, dict[str, Any]]]] = deque(maxlen=_SLIP_MEMORY)
    while len(bodies) < 2 * _MAX_SUBMISSIONS:
        if game.is_over(out.final):
            bodies.append(log.finished(seed, decks))
            out.entries = log.chain(log.GENESIS, _numbered(bodies))
            return out
        size = rnd.choice(range(1, batch + 1)) if batch > 1 else 1
        bodies += _batch(out, len(bodies) + 1, size, rnd, slips, recent)
    raise RuntimeError(f"{game.name}: no end after {_MAX_SUBMISSIONS} submissions")


def _batch(out: Playout, first_seq: int, size: int, rnd: Chooser, slips: float,
           recent: deque) -> list[dict[str, Any]]:
    """Up to `size` submissions numbered from `first_seq`, then their verdicts in order."""
    game, judged = out.game, out.final
    submissions, verdicts = [], []
    for seq in range(first_seq, first_seq + size):
        listed = [(s, m) for s in game.to_act(judged) for m in game.legal_moves(judged, s)]
        if listed:
            recent.append(listed)
        slip = slips > 0 and rnd.random() < slips
        if not slip and not listed:
            break  # the game ended within the batch
        seat, move = _slip(out.table.seats, rnd, recent) if slip else rnd.choice(listed)
        submissions.append({**log.submission(seat, move), "seq": seq})
        judged, verdict = log.verdict(game, judged, submissions[-1])
        if verdict["type"] == log.ACCEPTED:
            out.states.append(judged)
        elif not slip:
            raise RuntimeError(f"{game.name}: a listed legal move was refused: {verdict}")
        verdicts.append(verdict)
    return [*submissions, *verdicts]


def _slip(seats: int, rnd: Chooser, recent: deque) -> tuple[int, dict[str, Any]]:
    _, move = rnd.choice(rnd.choice(recent))
    return rnd.choice(range(seats)), move


def _numbered(bodies: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**body, "seq": seq} for seq, body in enumerate(bodies, start=1)]


def transcribe(playout: Playout) -> Iterator[tuple[int | str, dict[str, Any]]]:
    """The submissions (seat or TABLE, move) that record `playout`'s game at a real table:
    the first deal's setup, then each accepted move in order as its title records it (the
    cards it brought into view named, and the setup of a deal it began)."""
    game, entries = playout.game, playout.entries
    setup = game.recorded_setup(playout.states[0])
    if setup is not None:
        yield TABLE, setup
    accepted = {e["of"]: e["effects"] for e in entries if e["type"] == log.ACCEPTED}
    for entry in entries:
        if entry["type"] == log.SUBMITTED and entry["seq"] in accepted:
            yield from game.recorded_moves(entry["seat"], entry["move"], accepted[entry["seq"]])


def record(game: Game, seats: int, options: Mapping[str, Any],
           submissions: Sequence[tuple[int | str, dict[str, Any]]]) -> Playout:
    """A recorded game (`engine.recorded`) whose table posted `submissions` one at a time,
    each judged before the next, as the log the service would write: a refused one is a bug
    in the transcription or the rules."""
    table = Table(seats, game.options(seats, options), "", recorded=True)
    players = [f"p{s}" for s in range(seats)]
    out = Playout(game, table, [], [game.deal(table)])
    bodies = [log.created(game, players, table.options, "", (), recorded=True)]
    for seat, move in submissions:
        submission = {**log.submission(seat, move), "seq": len(bodies) + 1}
        state, verdict = log.verdict(game, out.final, submission)
        if verdict["type"] != log.ACCEPTED:
            raise RuntimeError(f"{game.name}: a recorded move was refused: {verdict}")
        out.states.append(state)
        bodies += [submission, {**verdict, "seq": len(bodies) + 2}]
    bodies.append(log.finished("", ()))
    out.entries = log.chain(log.GENESIS, _numbered(bodies))
    return out

