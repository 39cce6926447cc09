"""The drain: one job's loop that judges the moves of every game marked dirty, top to bottom.

A turn of the loop finds work, reads what it must, judges, commits and settles:
1. **Find work** (`find_work`). Right after a commit that found no game waiting, a claim would
   find nothing: wait for the bell first. The bell names the game marked and carries the
   submission it was marked for. When that submission follows the state this process left the
   game in (`judging.hand`), it is the turn's whole work: no claim, no read, no lock.
   Otherwise claim up to `AT_ONCE` games, and read the game the bell named in the same round
   trip (it may have been claimed by another drain meanwhile: its lock still keeps two judges
   apart). Nothing claimed: wait for the bell again, a second at a time (each claim renews the
   slot's flag), until the linger is over.
2. **Read** (`read`) the games claimed and not read yet, each under its lock, in one round
   trip (none when the claim read them all).
3. **Judge** (`judge`) every game's pending submissions through the engine
   (`workers.judging`), and queue the commit: each game's verdicts, its `game-finished`
   entry when it ends and its projections (one atomic append), its lock's release, and how far
   its log's submissions reach.
4. **Commit**: one round trip, which also counts the games waiting.
5. **Settle** (`settle`): tell each verdict written (a log line naming its game, seq, outcome
   and the request that posted it, and its latency from the submission's time to the commit,
   `telemetry.metrics`: no round trip); keep the state each commit left; a game submitted to
   while it was judged is judged again next turn, its claim still held; the claims on the others are
   released, and the games judged as handed over unmarked, by the next claim (`Settling`), not
   by a round trip of their own. A game that cannot be judged now must not stop the drain for
   every other game: locked by another worker (judging it, or dead while judging it), its claim
   is kept until that lock lapses; failing (a bug, logged), until the claim lapses; then the
   game is judged again.

So a move is judged in one round trip from the wake when the bell hands it over (its commit),
in two when the bell named its game (claim and read, then commit), and in three when claimed
(claim, read, commit), whatever the number of games. When Redis goes away the drain ends: the
worker waits for it to be back.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from redis.exceptions import RedisError

from engine.log import ACCEPTED
from store import Store
from store.batch import Answer, Batch
from store.locks import Judging, Locked
from store.log import Appended, AppendResult
from store.scheduler import AT_ONCE, WAIT_AT_ONCE_S, Claim, Ring, Settling
from telemetry import logs
from telemetry.metrics import VERDICT_SECONDS, VERDICTS
from workers.judging import STATES, Handed, Held, States, Verdicts, from_handed, from_read, hand
from workers.queue import enqueue_drain

_log = logging.getLogger(__name__)
# How long one drain job runs before it hands its slot over to a fresh one (`Drain._hand_over`):
# well inside RQ's job timeout (`workers.queue.DRAIN_TIMEOUT_S`).
RUN_FOR_S = 60.0


@dataclass(frozen=True)
class Work:
    """What a turn judges."""

    games: list[str] = field(default_factory=list)  # claimed, or to judge again: to read
    # Read with the claim (the game the bell named): each game's lock taken and its read.
    read: dict[str, Answer[Judging | None]] = field(default_factory=dict)
    handed: Handed | None = None  # the submission the bell handed over

    def __bool__(self) -> bool:
        return bool(self.games or self.read or self.handed)


class _Commit(NamedTuple):
    """One game's part of a turn's commit."""

    game: str
    verdicts: Verdicts | None
    last_seq: int  # the last submission judged
    appending: Answer[Appended] | None
    submitted: Answer[int]  # the last submission's seq as the commit ran

    @property
    def moved(self) -> bool:
        """Its verdicts were refused as chained: the log moved under them."""
        return (self.verdicts is not None and self.appending is not None
                and self.appending.value.outcome == AppendResult.MOVED)


@dataclass
class Turn:
    """What a turn came to."""

    commits: list[_Commit] = field(default_factory=list)
    # Games not judged: in how many seconds the lock another worker holds lapses, None when
    # judging failed.
    left: dict[str, float | None] = field(default_factory=dict)
    written: int = 0  # verdicts
    committed_at: float = 0.0  # when its commit was answered (time.time())


class Drain:
    """One drain job's loop, and everything it holds between turns."""

    def __init__(self, store: Store, slot: int = 0, worker: str = "", linger_s: float = 0.0,
                 stopping: threading.Event | None = None, states: States = STATES,
                 run_for_s: float = RUN_FOR_S):
        self.store, self.slot, self.worker = store, slot, worker
        self.linger_s, self.run_for_s = linger_s, run_for_s
        self.stopping = stopping or threading.Event()
        self.states = states
        self.claims: dict[str, Claim] = {}  # held, by game
        self.settling = Settling()  # what the next claim settles
        self.again: list[str] = []  # submitted to while judged: judged again next turn
        self.quiet = False  # no game waited as the last commit ran
        self.written = 0

    def run(self) -> int:
        """Judge games until none is marked dirty, or hand the slot over to a fresh job once
        this one has run `run_for_s`; the number of verdicts written."""
        ends = time.monotonic() + self.run_for_s
        while True:
            while self.turn():
                if time.monotonic() > ends and not self.again:
                    return self._hand_over()
            if self.store.scheduler.drain_may_stop(self.slot, self.worker, self._settled()):
                return self.written

    def _hand_over(self) -> int:
        """Settle every claim, leave the slot's flag as a queued job's and queue that job. A
        steady stream of moves would keep one drain running for ever, and RQ kills a job at its
        timeout wherever it is: its flag, claims and locks then lapse before anything is judged
        again, seconds in which every move waits."""
        self.store.scheduler.hand_over(self.slot, self._settled())
        enqueue_drain(self.store.queues, self.slot)
        return self.written

    def turn(self) -> bool:
        """One turn of the loop; False when no work came within the linger."""
        work = self.find_work()
        if work:
            self.work_through(work)
        return bool(work)

    def work_through(self, work: Work) -> Turn:
        """Read what is not read yet, judge, commit (one round trip) and settle."""
        reads = self.read(work)
        commit = Batch(self.store.redis)
        turn = self.judge(work.handed, reads, commit)
        waiting = self.store.scheduler.queue_waiting(commit)
        commit.run()
        turn.committed_at = time.time()
        self.settle(turn)
        self.quiet = waiting.value == 0
        return turn

    def find_work(self) -> Work:
        """The bell, then the move it hands over, or a claim (with the read of the game it
        named); waiting for the bell again while nothing comes, until the linger is over.
        Games to judge again are claimed already: then the drain does not linger."""
        again, self.again = self.again, []
        linger_s = 0 if again or self.stopping.is_set() else self.linger_s
        deadline = time.monotonic() + linger_s
        ring = self._ring(linger_s) if self.quiet and linger_s else None
        while True:
            if ring is not None and (handed := hand(self.states, ring)) is not None:
                return Work(again, handed=handed)
            work = self._claim(again, ring)
            left = deadline - time.monotonic()
            if work or left <= 0 or self.stopping.is_set():
                return work
            ring = self._ring(left)

    def read(self, work: Work) -> dict[str, Answer[Judging | None]]:
        """Each game to judge but the one handed over, locked and read (one round trip for
        those the claim did not read). A game may be listed twice (judged again, and marked
        and claimed again meanwhile): it is read once."""
        handed = None if work.handed is None else work.handed.game
        unread = [g for g in dict.fromkeys(work.games) if g not in work.read and g != handed]
        batch = Batch(self.store.redis)
        reads = {game_id: self._queue_read(batch, game_id) for game_id in unread}
        batch.run()
        return {**reads, **work.read}

    def judge(self, handed: Handed | None, reads: dict[str, Answer[Judging | None]],
              commit: Batch) -> Turn:
        """Judge the submission handed over and each game read, queuing their commit. When
        Redis goes away this raises: no other game can be judged either."""
        turn = Turn()
        if handed is not None:
            self._judge_handed(handed, commit, turn)
        for game_id, reading in reads.items():
            self._judge_read(game_id, reading, commit, turn)
        return turn

    def settle(self, turn: Turn) -> None:
        """Keep the state each commit left and settle each game's claim: kept for a game to
        judge again, released for the others, left to lapse for those not judged; unmark the
        games judged as handed over."""
        for part in turn.commits:
            written = self._kept(part)
            turn.written += written
            if written:
                _tell(part.game, part.verdicts, turn.committed_at or time.time())
            # Verdicts on submissions read from the log, refused as the log moved and not
            # chained again (`_kept`), are owed still, whatever moved it (a handed-over one's
            # game stays marked, and is claimed).
            owed = part.moved and not written and part.verdicts.handed is None
            if part.submitted.value > part.last_seq or owed:
                self.again.append(part.game)
            else:
                self._release(part.game)
            if part.verdicts is not None and part.verdicts.handed is not None and written:
                self.settling.unmark(part.game, part.verdicts.handed)
        for game_id, lock_lapses_in_s in turn.left.items():
            self._leave(game_id, lock_lapses_in_s)
        self.written += turn.written

    def _ring(self, left_s: float) -> Ring | None:
        return self.store.scheduler.ring(min(left_s, WAIT_AT_ONCE_S))

    def _claim(self, again: list[str], ring: Ring | None) -> Work:
        """Claim games (settling what this drain is done with), reading the game the bell
        named, if it rang, in the same round trip."""
        batch = Batch(self.store.redis)
        claiming = self.store.scheduler.queue_claim(
            batch, self.slot, self.worker, max(AT_ONCE - len(again), 0), self._settled())
        read = {} if ring is None else {ring.game: self._queue_read(batch, ring.game)}
        batch.run()
        claims = claiming.value
        self.claims.update((claim.game, claim) for claim in claims)
        return Work(again + [claim.game for claim in claims], read)

    def _queue_read(self, batch: Batch, game_id: str) -> Answer[Judging | None]:
        """The game locked and read, its stored state only if this process does not hold it."""
        return self.store.locks.queue_judging(batch, game_id, self.states.seq(game_id),
                                              self.worker)

    def _judge_handed(self, handed: Handed, commit: Batch, turn: Turn) -> None:
        try:
            verdicts = from_handed(self.store, handed)
        except RedisError:
            raise
        except Exception:
            # The game stays marked, and is claimed.
            _log.exception("judging game %s failed; it is tried again once claimed",
                           handed.game)
            turn.left[handed.game] = None
            return
        turn.commits.append(self._queue_commit(commit, handed.game, verdicts,
                                               handed.marked.seq))

    def _judge_read(self, game_id: str, reading: Answer[Judging | None], commit: Batch,
                    turn: Turn) -> None:
        judging = None
        try:
            judging = reading.value
            verdicts = None if judging is None else from_read(
                self.store, self.states, game_id, judging)
        except Locked as held:
            turn.left[game_id] = held.lapses_in_s
            return
        except RedisError:
            raise
        except Exception:
            _log.exception("judging game %s failed; it is tried again once its claim lapses",
                           game_id)
            turn.left[game_id] = None
            if judging is not None:
                self.store.locks.queue_release(commit, game_id, judging.lock)
            return
        if judging is None:  # no such game
            self._release(game_id)
            return
        last_seq = judging.judged_seq if verdicts is None else verdicts.last[0]
        turn.commits.append(self._queue_commit(commit, game_id, verdicts, last_seq,
                                               judging.lock))

    def _queue_commit(self, commit: Batch, game_id: str, verdicts: Verdicts | None,
                      last_seq: int, lock: str | None = None) -> _Commit:
        """A game's verdicts appended, then its lock released (not before: another worker
        would read the game without them), then how far its submissions reach read."""
        appending = (None if verdicts is None
                     else self.store.log.queue_append(commit, verdicts.chained))
        if lock is not None:
            self.store.locks.queue_release(commit, game_id, lock)
        submitted = self.store.log.queue_submitted(commit, game_id)
        return _Commit(game_id, verdicts, last_seq, appending, submitted)

    def _kept(self, part: _Commit) -> int:
        """The verdicts a game's commit wrote, keeping the state it left. When a submission
        landed between the read and the commit the verdicts still hold (they judge the
        submissions before it): chain them again. Not those on a submission the bell handed
        over, which need not be in the log at all, nor turns played for a conceded seat, which
        must follow the submissions before them, nor verdicts that end the game: nothing may
        follow `game-finished`, and the submission that landed must be judged before it. The
        game is judged again, with what landed."""
        verdicts = part.verdicts
        if verdicts is None or part.appending is None:
            return 0
        appended = part.appending.value
        head: tuple[int, str] | None = verdicts.chained.head
        if (appended.outcome == AppendResult.MOVED and verdicts.handed is None
                and not verdicts.played and not verdicts.rules.is_over(verdicts.state)):
            appended, head = self.store.log.write(verdicts.writing), None
        if appended.outcome != AppendResult.OK:
            self.states.forget(part.game)
            return 0
        self.states.keep(part.game, Held(verdicts.last, verdicts.state, verdicts.rules, head))
        if verdicts.rules.is_over(verdicts.state):
            self._compact(part.game)
        return len(verdicts.writing.verdicts)

    def _compact(self, game_id: str) -> None:
        """Have a game that just ended compacted a while later (`store.compacted`). Should
        Redis refuse, the game stays live, whole, until `python -m workers.compaction`."""
        try:
            self.store.compacted.ended(game_id)
        except RedisError:
            _log.warning("game %s ended; it could not be listed for compaction", game_id,
                         exc_info=True)

    def _release(self, game_id: str) -> None:
        """Release this drain's claim on a game it is done with, with its next claim."""
        if (claim := self.claims.pop(game_id, None)) is not None:
            self.settling.release(claim)

    def _leave(self, game_id: str, lock_lapses_in_s: float | None) -> None:
        """Leave this drain's claim on a game it could not judge to lapse, and another drain to
        judge the game then. A game another worker holds locked is left only until that lock
        lapses: a live holder judges what it finds before releasing the lock, and a dead one's
        game is taken back as soon as its lock lapses, not a whole claim later."""
        claim = self.claims.pop(game_id, None)
        if claim is not None and lock_lapses_in_s is not None:
            self.settling.lapse(claim, lock_lapses_in_s)

    def _settled(self) -> Settling:
        """What this drain is done with, handed to the claim that settles it."""
        settling, self.settling = self.settling, Settling()
        return settling


def _tell(game_id: str, verdicts: Verdicts, committed_at: float) -> None:
    """Each posted move's verdict, written: its log line and its metrics."""
    for posted in verdicts.posted:
        waited = committed_at - datetime.fromisoformat(posted.at).timestamp()
        outcome = "accepted" if posted.outcome == ACCEPTED else "rejected"
        VERDICT_SECONDS.observe(waited)
        VERDICTS.labels(outcome, posted.code or "").inc()
        logs.event(_log, "verdict", game=game_id, seq=posted.seq, outcome=outcome,
                   code=posted.code, request_id=posted.request, seconds=round(waited, 4))


def judge_pending(store: Store, game_id: str) -> int:
    """Judge what is pending in one game, unclaimed; the number of verdicts written. Raises
    `Locked` when another worker holds the game's lock."""
    turn = Drain(store).work_through(Work([game_id]))
    if game_id in turn.left:
        raise Locked(turn.left[game_id] or 0.0)
    return turn.written
