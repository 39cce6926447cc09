"""Judging one game's pending submissions through the rules engine, from the state it was in.

The state comes from this process's memory when it left the game in it (`States`), else from
the game's read (`store.locks.Judging`). `from_read` judges what a read found pending; `hand`
says whether a submission a work item carries follows a state held here, and `from_handed`
judges it: then the game is neither read nor locked. Either way the verdicts are chained onto
the head they follow, with the work items they judge (acknowledged by the same append), for
the drain (`workers.drain`) to commit: the append refuses them if the log moved meanwhile.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import orjson

from engine import log
from engine.game import Game
from engine.line import NeedsPast
from engine.table_actions import conceded_turn, needs_line
from store import Store
from store.locks import Judging
from store.log import Chained, Writing, now
from store.projections import Projection
from store.scheduler import Item


class Held(NamedTuple):
    """The state a game was left in by this process's last commit of its verdicts."""

    last: tuple[int, str | None]  # the last judged submission's seq and hash
    state: Any
    rules: Game
    head: tuple[int, str] | None  # the log's version and last hash after the commit, if known


class States:
    """The state each game was left in by this process, the latest `most` games. Decoding a
    stored state costs more than judging a move; a process that judged a game last time
    resumes from memory. A state is a pure function of the log up to its seq, so a held state
    is valid whenever that submission is still the stored projection's last judged one,
    whoever judged in between. The hash is what says so: it chains over the whole log before
    it, and a failover may lose entries a replica never got and let others take their seqs."""

    def __init__(self, most: int = 2048):
        self.most = most
        self._held: OrderedDict[str, Held] = OrderedDict()

    def seq(self, game_id: str) -> int:
        """The last judged submission whose state is held (-1 if none): a read skips the
        stored state when it is still that one."""
        held = self.get(game_id)
        return -1 if held is None else held.last[0]

    def get(self, game_id: str) -> Held | None:
        held = self._held.get(game_id)
        if held is not None:
            self._held.move_to_end(game_id)
        return held

    def keep(self, game_id: str, held: Held) -> None:
        self._held[game_id] = held
        self._held.move_to_end(game_id)
        while len(self._held) > self.most:
            self._held.popitem(last=False)

    def forget(self, game_id: str) -> None:
        self._held.pop(game_id, None)


# One a process: a drain job ends, the states it left outlive it for the next job.
STATES = States()


@dataclass(frozen=True)
class Verdicts:
    """One game's verdicts, chained onto the head they follow, ready to commit."""

    writing: Writing
    chained: Chained
    last: tuple[int, str]  # the last submission judged, and its hash
    state: Any  # the state after it
    rules: Game
    handed: Item | None = None  # the work item judged from a state held here, unread
    played: bool = False  # with turns played for conceded seats, which fix their own seqs
    posted: tuple[Posted, ...] = ()  # the posted moves judged, for their verdicts' log lines


class Posted(NamedTuple):
    """A posted move judged, as its verdict's log line and metrics tell it."""

    seq: int  # its submission's
    at: str  # its submission's time
    request: str | None  # the id of the request that posted it, where the store kept it
    outcome: str  # its verdict entry's type
    code: str | None  # the rule a rejection names


class Handed(NamedTuple):
    """A work item judged by a drain holding its game's state, without reading the game."""

    game: str
    entry: dict[str, Any]
    item: Item
    held: Held  # the state it follows


def hand(states: States, item: Item) -> Handed | None:
    """The submission a work item carries, when it is chained right onto the commit that left
    a game in a state held here (and the game is not over): judged from that state."""
    held = states.get(item.game)
    if held is None or held.head is None:
        return None
    entry = orjson.loads(item.entry)
    version, last_hash = held.head
    if (entry.get("type") != log.SUBMITTED or entry.get("seq") != version + 1
            or needs_line(entry.get("move"))
            or entry.get("hash") != log.chain_hash(last_hash, entry)
            or held.rules.is_over(held.state)):
        return None
    return Handed(item.game, entry, item, held)


def from_read(store: Store, states: States, game_id: str, judging: Judging,
              done: tuple[bytes, ...] = ()) -> Verdicts | None:
    """The verdicts on the submissions a game's read found pending, acknowledging the work
    items `done`; None if none."""
    judged_seq = judging.judged_seq
    submissions = [
        e for e in judging.entries if e["type"] == log.SUBMITTED and e["seq"] > judged_seq]
    if not submissions:
        return None
    meta = judging.meta
    rules = log.rules(meta)
    # The entries read start at the last judged submission, for its hash.
    last_hash = next((e["hash"] for e in judging.entries[:1] if e["seq"] == judged_seq), None)
    state = _resume(store, states, rules, game_id, judging, (judged_seq, last_hash))
    return _verdicts(store, game_id, rules, state, submissions, judging.finished,
                     (int(meta["version"]), meta["hash"]), judging.requests, done)


def from_handed(store: Store, handed: Handed) -> Verdicts:
    """The verdict on a submission judged from a state held here, chained onto that very
    submission, so that the append writes it only if the log's head is that submission (a
    game another drain judged meanwhile, or moved on since, writes nothing)."""
    held, entry, item = handed.held, handed.entry, handed.item
    verdicts = _verdicts(store, handed.game, held.rules, held.state, [entry], False,
                         (entry["seq"], entry["hash"]),
                         {} if item.request is None else {entry["seq"]: item.request},
                         (item.id,))
    return replace(verdicts, handed=item)


def _verdicts(store: Store, game_id: str, rules: Game, state: Any, submissions: list[dict],
              finished: bool, head: tuple[int, str], requests: dict[int, str],
              done: tuple[bytes, ...]) -> Verdicts:
    """The verdicts on `submissions` from `state`, then the turns the service plays for
    conceded seats, chained onto `head`; `requests` the ids of the requests that posted them,
    by seq; `done` the work items they judge."""
    try:
        bodies, state = _judged(rules, state, submissions)
    except NeedsPast:
        bodies, state = _judged_by_fold(store, game_id, rules, submissions)
    posted = tuple(
        Posted(s["seq"], s["at"], requests.get(s["seq"]), body["type"], body.get("code"))
        for s, body in zip(submissions, bodies, strict=True))
    pairs = [(s["seq"], i) for i, s in enumerate(submissions)]
    last_index, state = _play_conceded(rules, state, head[0], bodies, pairs)
    if rules.is_over(state) and not finished:
        seed, decks = store.games.secret(game_id)  # two more round trips, once a game
        bodies.append(log.finished(seed, decks))
        store.games.finishing(game_id)
    judged = submissions[-1]["seq"] if last_index is None else head[0] + 1 + last_index
    writing = Writing(
        game_id,
        tuple(bodies),
        verdicts=tuple(pairs),
        projection=Projection.of(rules, state, judged),
        done=done,
    )
    chained = writing.chained(*head)
    if last_index is None:
        last = (submissions[-1]["seq"], submissions[-1]["hash"])
    else:  # a turn played for a conceded seat: chained here, and never chained again
        last = (judged, orjson.loads(chained.args[1 + last_index])["hash"])
    return Verdicts(writing, chained, last, state, rules, played=last_index is not None,
                    posted=posted)


def _judged(rules: Game, state: Any, submissions: list[dict]) -> tuple[list[dict], Any]:
    bodies = []
    for submission in submissions:
        state, body = log.verdict(rules, state, submission)
        bodies.append(body)
    return bodies, state


def _judged_by_fold(store: Store, game_id: str, rules: Game, submissions: list[dict]
                    ) -> tuple[list[dict], Any]:
    """The verdicts on `submissions`, one of which must know the line of play (a takeback),
    by folding the whole log up to the last of them."""
    last = submissions[-1]["seq"]
    entries = store.log.entries(game_id, upto=last)
    seed, decks = store.games.secret(game_id)
    wanted = {s["seq"] for s in submissions}
    bodies, pending = [], None
    for step in log.fold(rules, log.table_of(entries[0], seed, decks), entries):
        if step.recomputed is not None and step.entry["seq"] in wanted:
            bodies.append(step.recomputed)
        pending = step.pending
    return bodies, pending


def _play_conceded(rules: Game, state: Any, version: int, bodies: list[dict],
                   pairs: list[tuple[int, int]]) -> tuple[int | None, Any]:
    """The turns of conceded seats, each a submission marked `conceded` and its verdict,
    appended to `bodies` (to be numbered from `version` + 1): the index of the last such
    submission, if any, and the state after them."""
    played = None
    at = now()
    for _ in range(MOST_PLAYED):
        turn = conceded_turn(rules, state)
        if turn is None:
            break
        seq = version + 1 + len(bodies)
        submission = {**log.submission(*turn, conceded=True), "seq": seq, "at": at}
        state, body = log.verdict(rules, state, submission)
        played = len(bodies)
        pairs.append((seq, played + 1))
        bodies += [{k: v for k, v in submission.items() if k != "seq"}, body]
        if body["type"] != log.ACCEPTED:  # a bug in a game: stop rather than loop
            break
    return played, state


# The most turns played for conceded seats in one commit: a whole game is fewer.
MOST_PLAYED = 10_000


def _resume(store: Store, states: States, rules: Game, game_id: str, judging: Judging,
            last: tuple[int, str | None]) -> Any:
    """The state after the last judged submission: the one held here if it still is that very
    submission's (the read brought no stored state then), else the stored one."""
    held = states.get(game_id)
    if judging.state is None and held is not None and held.last == last:
        return held.state
    saved = judging.state if judging.state is not None else store.projections.state(game_id)[1]
    return rules.decode(saved)
