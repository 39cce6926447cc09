"""Judging submissions: replay the pending part of a game's log through the rules engine.

One call judges every submission not yet judged, in log order, and commits all verdicts, the
`game-finished` entry when the game ends, and the refreshed projections in one atomic append.
A game is judged by one worker at a time (a lock); the append refuses to write a verdict twice,
so a job that runs twice, or two jobs that race, write nothing twice.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from engine import codec, log
from engine.game import Game
from store import Store
from store.locks import Judging
from store.log import Outcome
from store.projections import Projection
from workers import presence


def judge_pending(store: Store, game_id: str) -> int:
    """Judge what is pending in `game_id`; the number of verdicts written.

    Raises `Locked` when another worker holds the game's lock.
    """
    judging = store.locks.judging(game_id, presence.me())
    if judging is None:
        return 0
    try:
        return _judge(store, game_id, judging)
    finally:
        store.locks.release(game_id, judging.lock)


def has_pending(store: Store, game_id: str) -> bool:
    submitted, judged = store.log.progress(game_id)
    return submitted > judged


# The state each game was left in by this process, keyed by game: ((last judged seq, that
# submission's hash), state). Decoding a stored state costs more than judging a move; a process
# that judged a game last time resumes from memory. A state is a pure function of the log up to
# its seq, so an entry is valid whenever that submission is still the stored projection's last
# judged one, whoever judged in between. The hash is what says so: it chains over the whole log
# before it, and a failover may lose entries a replica never got and let others take their seqs.
_resumed: OrderedDict[str, tuple[tuple[int, str | None], Any]] = OrderedDict()
_RESUMED_GAMES = 2048


def _judge(store: Store, game_id: str, judging: Judging) -> int:
    meta = judging.meta
    game = log.rules(meta)
    judged = judging.judged
    # From the last judged submission on, for its hash.
    entries = store.log.entries(game_id, after=max(judged - 1, 1))
    last = next((e["hash"] for e in entries[:1] if e["seq"] == judged), None)
    submissions = [e for e in entries if e["type"] == log.SUBMITTED and e["seq"] > judged]
    if not submissions:
        return 0
    state = _resume(store, game, game_id, (judged, last))
    bodies: list[dict[str, Any]] = []
    for submission in submissions:
        state, body = log.verdict(game, state, submission)
        bodies.append(body)
    if game.is_over(state) and not judging.finished:
        bodies.append(log.finished(judging.seed, judging.decks))
        store.games.finishing(game_id)
    appended = store.log.append(
        game_id,
        bodies,
        verdicts=[(s["seq"], i) for i, s in enumerate(submissions)],
        projection=Projection.of(game, meta["players"], state, submissions[-1]["seq"]),
        based_on=(int(meta["version"]), meta["hash"]),
    )
    if appended.outcome != Outcome.OK:
        _resumed.pop(game_id, None)
        return 0
    _remember(game_id, (submissions[-1]["seq"], submissions[-1]["hash"]), state)
    return len(submissions)


def _resume(store: Store, game: Game, game_id: str, judged: tuple[int, str | None]) -> Any:
    cached = _resumed.get(game_id)
    if cached is not None and cached[0] == judged:
        _resumed.move_to_end(game_id)
        return cached[1]
    return codec.decode(game.state_type, store.projections.state(game_id)[1])


def _remember(game_id: str, judged: tuple[int, str], state: Any) -> None:
    _resumed[game_id] = (judged, state)
    _resumed.move_to_end(game_id)
    while len(_resumed) > _RESUMED_GAMES:
        _resumed.popitem(last=False)
