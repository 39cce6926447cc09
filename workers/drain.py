"""The drain: one job's loop that judges the submissions of its share of the partitions.

A turn of the loop finds work, reads what it must, judges, commits and settles:
1. **Find work** (`find_work`): the new work items of the partitions this drain reads
   (`store.scheduler`), waiting up to 0.25 s for one, and now and then those another drain
   read and left unacknowledged past their lease (it died, or found the game locked); at its
   first turn, and dealt partitions anew, at once those its slot's last drain left and those
   of drains no longer running. An item
   whose submission follows the state this process left its game in (`judging.hand`) is
   judged from that state: no read, no lock. The other games are read.
2. **Read** (`read`) those games, each under its lock, in one round trip.
3. **Judge** (`judge`) every game's pending submissions through the engine
   (`workers.judging`), and queue the commit: each game's verdicts, with the work items they
   judge (acknowledged by the same append, so an item is done exactly when its verdict is
   written), its `game-finished` entry when it ends, its projections, its lock's release, and
   how far its log's submissions reach.
4. **Commit**: one round trip.
5. **Settle** (`settle`): tell each verdict written (a log line naming its game, seq, outcome
   and the request that posted it, and its latency from the submission's time to the commit,
   `telemetry.metrics`: no round trip); keep the state each commit left; a game submitted to
   while it was judged, or whose verdicts the log moved under, is judged again next turn, its
   items held until a commit acknowledges them. A game that cannot be judged now must not stop
   the drain for every other game: locked by another worker, it is read again 50 ms later;
   failing (a bug, logged), its items are left pending, and taken again after their lease.

So a move is judged in one round trip from the wake when its state is held here (its commit),
and in two otherwise (read, then commit), whatever the number of games. When Redis goes away
the drain ends: the worker waits for it to be back.
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
from store.scheduler import LEASE_MS, WAIT_AT_ONCE_S, Item, consumer_of
from telemetry import logs
from telemetry.metrics import VERDICT_SECONDS, VERDICTS
from workers.judging import STATES, Handed, Held, States, Verdicts, from_handed, from_read, hand
from workers.queue import enqueue_drain

_log = logging.getLogger(__name__)
# How long one drain job runs before it hands its slot over to a fresh one (`Drain._hand_over`):
# well inside RQ's job timeout (`workers.queue.DRAIN_TIMEOUT_S`).
RUN_FOR_S = 60.0
# How often a drain takes the items other drains left past their lease.
_RECLAIM_EVERY_S = LEASE_MS / 2000
# A game found locked is read again this soon (or when its lock lapses, if sooner).
_LOCKED_AGAIN_S = 0.05


@dataclass(frozen=True)
class Work:
    """What a turn judges."""

    games: list[str] = field(default_factory=list)  # to read
    handed: list[Handed] = field(default_factory=list)  # judged from a state held here

    def __bool__(self) -> bool:
        return bool(self.games or self.handed)


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
    # Games not judged: in how many seconds the lock another drain holds lapses (the game is
    # read again then, or sooner), None when judging failed (its items left to their lease).
    left: dict[str, float | None] = field(default_factory=dict)
    written: int = 0  # verdicts
    committed_at: float = 0.0  # when its commit was answered (time.time())


class Drain:
    """One drain job's loop, and everything it holds between turns."""

    def __init__(self, store: Store, slot: int = 0, worker: str = "",
                 linger_s: float | None = None, stopping: threading.Event | None = None,
                 states: States = STATES, run_for_s: float = RUN_FOR_S):
        self.store, self.slot, self.worker = store, slot, worker
        self.consumer = consumer_of(slot)
        self.name = worker or self.consumer  # what its slot's flag says
        self.linger_s, self.run_for_s = linger_s, run_for_s
        self.stopping = stopping or threading.Event()
        self.states = states
        self.items: dict[str, list[Item]] = {}  # read and not acknowledged yet, by game
        self.again: list[str] = []  # judged again next turn
        # Games found locked by another drain, read again then (time.monotonic()).
        self.later: dict[str, float] = {}
        self.partitions: list[int] = []
        self._dealt_at = self._reclaimed_at = -float("inf")
        self._taking_up = True  # its next reclaim takes up what other drains left, at once
        self.written = 0

    def run(self) -> int:
        """Judge the work of this drain's partitions until the worker stops (or, with a
        `linger_s`, until none came for that long), handing the slot over to a fresh job once
        this one has run `run_for_s`; the number of verdicts written. A job for a slot another
        worker's drain holds ends at once: one drain a slot."""
        if not self._deal():
            return 0
        self.store.scheduler.ensure_groups()
        ends = time.monotonic() + self.run_for_s
        idle_since = time.monotonic()
        while not self.stopping.is_set():
            if self.turn():
                idle_since = time.monotonic()
            elif self.linger_s is not None and time.monotonic() - idle_since > self.linger_s:
                break
            if time.monotonic() > ends and not self.again:
                return self._hand_over()
            if not self._deal():
                return self.written
        self.store.scheduler.drain_ends(self.slot, self.name)
        return self.written

    def _hand_over(self) -> int:
        """Leave the slot's flag as a queued job's and queue that job. RQ kills a job at its
        timeout wherever it is: its flag, items and locks would then lapse before anything is
        judged again, seconds in which every move waits."""
        self.store.scheduler.hand_over(self.slot)
        enqueue_drain(self.store.queues, self.slot)
        return self.written

    def turn(self) -> bool:
        """One turn of the loop; False when no work came within a wait."""
        work = self.find_work()
        if work:
            self.work_through(work)
        return bool(work)

    def work_through(self, work: Work) -> Turn:
        """Read what is not read yet, judge, commit (one round trip) and settle."""
        reads = self.read(work)
        commit = Batch(self.store.redis)
        turn = self.judge(work.handed, reads, commit)
        commit.run()
        turn.committed_at = time.time()
        self.settle(turn)
        return turn

    def find_work(self) -> Work:
        """The items of this drain's partitions (those left past their lease now and then),
        each judged from a state held here when it follows it; the games of the others to
        read. Games to judge again do not wait for new items."""
        again, self.again = self.again, []
        now = time.monotonic()
        for game_id in [g for g, at in self.later.items() if at <= now]:
            del self.later[game_id]
            again.append(game_id)
        items = self._reclaimed()
        soonest = min(self.later.values(), default=now + WAIT_AT_ONCE_S)
        wait_s = 0.0 if again or items else min(WAIT_AT_ONCE_S, max(soonest - now, 0.0))
        items += self.store.scheduler.read(self.consumer, self.partitions, wait_s)
        by_game: dict[str, list[Item]] = {}
        for item in items:
            by_game.setdefault(item.game, []).append(item)
        games, handed = list(again), []
        for game_id, found in by_game.items():
            self.items.setdefault(game_id, []).extend(found)
            lone = len(self.items[game_id]) == 1 and game_id not in again
            if lone and (handing := hand(self.states, found[0])) is not None:
                handed.append(handing)
            else:
                games.append(game_id)
        return Work(games, handed)

    def read(self, work: Work) -> dict[str, Answer[Judging | None]]:
        """Each game to read, locked and read, in one round trip (a game listed twice, once)."""
        if not work.games:  # every item was handed over
            return {}
        batch = Batch(self.store.redis)
        reads = {game_id: self._queue_read(batch, game_id)
                 for game_id in dict.fromkeys(work.games)}
        batch.run()
        return reads

    def judge(self, handed: list[Handed], reads: dict[str, Answer[Judging | None]],
              commit: Batch) -> Turn:
        """Judge the items handed over and each game read, queuing their commit. When Redis
        goes away this raises: no other game can be judged either."""
        turn = Turn()
        for handing in handed:
            self._judge_handed(handing, commit, turn)
        for game_id, reading in reads.items():
            self._judge_read(game_id, reading, commit, turn)
        return turn

    def settle(self, turn: Turn) -> None:
        """Keep the state each commit left; a game to judge again keeps its items for the
        commit that will acknowledge them; the others' are done (acknowledged by their
        commit). A game found locked keeps them too, and is read again shortly: its holder
        judges what it finds pending and releases within milliseconds, or died (then its lock
        lapses within seconds). A game whose judging failed leaves them to their lease."""
        for part in turn.commits:
            written = self._kept(part)
            turn.written += written
            if written:
                _tell(part.game, part.verdicts, turn.committed_at or time.time())
            # Verdicts refused as the log moved and not chained again (`_kept`) are owed still,
            # whatever moved it.
            owed = part.moved and not written
            if part.submitted.value > part.last_seq or owed:
                self.again.append(part.game)
            else:
                self.items.pop(part.game, None)
        for game_id, lock_lapses_in_s in turn.left.items():
            if lock_lapses_in_s is None:
                self.items.pop(game_id, None)
            else:
                self.later[game_id] = time.monotonic() + min(lock_lapses_in_s, _LOCKED_AGAIN_S)
        self.written += turn.written

    def _deal(self) -> bool:
        """Renew the slot's flag and take this drain's share of the partitions, every
        `WAIT_AT_ONCE_S`: the drains running share them out anew as they come and go. False when
        another worker's drain holds the slot."""
        if time.monotonic() - self._dealt_at < WAIT_AT_ONCE_S:
            return True
        if not self.store.scheduler.take(self.slot, self.name):
            return False
        dealt = self.store.scheduler.shares(self.slot)
        if set(dealt) - set(self.partitions):  # partitions another drain read
            self._taking_up = True
        self.partitions = dealt
        self._dealt_at = time.monotonic()
        return True

    def _reclaimed(self) -> list[Item]:
        """Now and then, the items left past their lease. At a drain's first turn, and when it
        is dealt partitions another drain read, at once: those its slot's last drain read and
        did not acknowledge, and those of drains no longer running (a drain starts, and
        partitions are dealt out again, when another died or handed over)."""
        if not self._taking_up and time.monotonic() - self._reclaimed_at < _RECLAIM_EVERY_S:
            return []
        self._reclaimed_at = time.monotonic()
        found = self.store.scheduler.reclaim(self.consumer, self.partitions)
        if not self._taking_up:
            return found
        self._taking_up = False
        found += self.store.scheduler.left_behind(self.consumer, self.partitions)
        found += self.store.scheduler.held_by(self.consumer, self.partitions)
        return list({item.id: item for item in found}.values())

    def _queue_read(self, batch: Batch, game_id: str) -> Answer[Judging | None]:
        """The game locked and read, its stored state only if this process does not hold it."""
        return self.store.locks.queue_judging(batch, game_id, self.states.seq(game_id),
                                              self.worker)

    def _done(self, game_id: str) -> tuple[bytes, ...]:
        return tuple(item.id for item in self.items.get(game_id, ()))

    def _judge_handed(self, handed: Handed, commit: Batch, turn: Turn) -> None:
        try:
            verdicts = from_handed(self.store, handed)
        except RedisError:
            raise
        except Exception:
            _log.exception("judging game %s failed; it is tried again after the lease",
                           handed.game)
            turn.left[handed.game] = None
            return
        turn.commits.append(self._queue_commit(commit, handed.game, verdicts,
                                               handed.entry["seq"]))

    def _judge_read(self, game_id: str, reading: Answer[Judging | None], commit: Batch,
                    turn: Turn) -> None:
        judging = None
        try:
            judging = reading.value
            verdicts = None if judging is None else from_read(
                self.store, self.states, game_id, judging, self._done(game_id))
        except Locked as held:
            turn.left[game_id] = held.lapses_in_s
            return
        except RedisError:
            raise
        except Exception:
            _log.exception("judging game %s failed; it is tried again after the lease",
                           game_id)
            turn.left[game_id] = None
            if judging is not None:
                self.store.locks.queue_release(commit, game_id, judging.lock)
            return
        if verdicts is None:  # nothing pending (judged by another drain), or no such game
            self.store.scheduler.queue_done(commit, self.items.get(game_id, ()))
        if judging is None:
            self.items.pop(game_id, None)
            return
        last_seq = judging.judged_seq if verdicts is None else verdicts.last[0]
        turn.commits.append(self._queue_commit(commit, game_id, verdicts, last_seq,
                                               judging.lock))

    def _queue_commit(self, commit: Batch, game_id: str, verdicts: Verdicts | None,
                      last_seq: int, lock: str | None = None) -> _Commit:
        """A game's verdicts appended (acknowledging their items), then its lock released
        (not before: another worker would read the game without them), then how far its
        submissions reach read."""
        appending = (None if verdicts is None
                     else self.store.log.queue_append(commit, verdicts.chained))
        if lock is not None:
            self.store.locks.queue_release(commit, game_id, lock)
        submitted = self.store.log.queue_submitted(commit, game_id)
        return _Commit(game_id, verdicts, last_seq, appending, submitted)

    def _kept(self, part: _Commit) -> int:
        """The verdicts a game's commit wrote, keeping the state it left. When a submission
        landed between the read and the commit the verdicts still hold (they judge the
        submissions before it): chain them again. Not those judged from a state held here,
        whose submission need not be the log's last, nor turns played for a conceded seat,
        which must follow the submissions before them, nor verdicts that end the game: nothing
        may follow `game-finished`, and the submission that landed must be judged before it.
        The game is judged again, with what landed."""
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
    """Judge what is pending in one game, whatever its work items; the number of verdicts
    written. Raises `Locked` when another worker holds the game's lock."""
    turn = Drain(store).work_through(Work([game_id]))
    if game_id in turn.left:
        raise Locked(turn.left[game_id] or 0.0)
    return turn.written
