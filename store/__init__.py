"""The persistence layer the web and the workers share: every Redis key and script lives here.

`Store` gathers one object per noun over one client: `games` (creating and listing them, meta,
tokens, secret), `log` (appending and reading entries), `events` (tournaments' logs),
`projections` (what readers need without replaying), `compacted` (ended games kept as one
record each), `scheduler` (which games wait to be judged and by which drain), `locks`,
`audits` (and `audit_places`, on the queues' Redis) and `counts` (the rate limits'),
`unmarked_sweep` (submissions whose mark was lost); `hub` wakes the requests of a web process
that wait on a game's log, all served by one reader; `owed` sends again the marks Redis refused;
`replicas` waits for a replica to hold a game's writes before the web answers them.
`store.keys` spells every key; nothing outside this package knows one. `store.stored` is the
one mapper between what callers hand the store and the bytes Redis holds.

A game's events have one contract, the same live and compacted: append (`Log.write`,
`Log.queue_append`), read a range (`Log.entries`) and read the head (`Log.head`). The store
keeps and returns what was written: the engine's fold is the workers' and the read side's.

The game store lives on a Redis Cluster when one is configured (`store.connection`); RQ's
queues always live on the standalone Redis, `queues`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import redis

from store import connection
from store.audits import Audits, Places
from store.batch import Answer, Batch, NothingSent
from store.compacted import Compacted
from store.counts import Counts
from store.events import Events
from store.games import Games
from store.hub import Hub
from store.locks import Locks
from store.log import (
    TRIES,
    Appended,
    AppendResult,
    Chained,
    Log,
    OutcomeUnknown,
    VerdictRead,
    Writing,
)
from store.owed import OwedMarks
from store.projections import Projections
from store.replicas import AUTO, DEFAULT_TIMEOUT_MS, Replicas
from store.scheduler import Marked, Scheduler
from store.unmarked import UnmarkedSweep


@dataclass(frozen=True)
class Submitted:
    """What posting a submission came to."""

    appended: Appended
    slots: list[int]  # the drain slots to queue a job for
    # What waiting for its verdict in the same round trip saw; None without such a wait.
    looked: VerdictRead | None = None
    rechained: bool = False  # its head was stale: another writer came first
    hash: str = ""  # the submission's hash, as chained (when OK, its entry's)


class Store:
    def __init__(
        self,
        client: connection.StoreClient,
        queues: redis.Redis | None = None,
        replica_acks: int | str = AUTO,
        replica_ack_ms: int = DEFAULT_TIMEOUT_MS,
    ):
        self.redis = client
        self.queues = client if queues is None else queues
        self.replicas = Replicas(client, replica_acks, replica_ack_ms)
        self.compacted = Compacted(client)
        self.log = Log(client, self.compacted)
        self.games = Games(client, self.log)
        self.counts = Counts(client)
        self.events = Events(client, self.log)
        self.projections = Projections(client, self.compacted)
        self.scheduler = Scheduler(client)
        self.unmarked_sweep = UnmarkedSweep(client)
        self.locks = Locks(client)
        self.audits = Audits(client)
        self.audit_places = Places(self.queues)
        self.hub = Hub(client)
        self.owed = OwedMarks(self.scheduler)

    @classmethod
    def connect(
        cls, redis_url: str, cluster_url: str | None = None, **replicas: int | str
    ) -> Store:
        """The store of a deployment: the game store on the cluster when `cluster_url` names
        one, else on `redis_url`, which always holds the queues."""
        return cls(
            connection.store_client(redis_url, cluster_url),
            connection.client(redis_url),
            **replicas,
        )

    def submit(self, writing: Writing, based_on: tuple[int, str], look_ms: int = 0,
               head_known: bool = True) -> Submitted:
        """Append a submission chained onto `based_on` and mark its game for judging, in one
        round trip; with `look_ms`, wait in that same round trip up to that long for its
        verdict (`Log.queue_verdict_after`), a wait the append ends at once should it refuse.

        The game is marked whatever the append comes to: a needless mark costs a drain one look, a
        mark Redis refuses (full, once the append took the last of its memory) is made by the
        workers' sweep instead (`store.unmarked`), and a retried submission still pending is judged
        even if its drain died. When another writer came first (`based_on` was stale) the submission
        is chained onto the head the refusal names and sent again, mark and wait included, since a
        drain may have looked at the game in between and found nothing. Its rate limits' counts are
        taken by the first try alone. Unless `head_known` (a head remembered of a game other
        processes post to as well, `service.remembered_games`), the append goes alone first, and its
        mark and wait follow: a mark sent with an append refused as moved would wake a drain for a
        submission not there yet.
        """
        sent = self._send(writing, based_on, look_ms, with_mark=head_known)
        tries = [sent]
        while sent.appended.outcome == AppendResult.MOVED:
            if len(tries) == TRIES:
                raise RuntimeError(f"game {writing.game_id}: could not append after {TRIES} tries")
            writing = writing.again()
            sent = self._send(writing, sent.appended.head, look_ms, with_mark=True)
            tries.append(sent)
        if sent.marking is None:
            tries[-1] = sent = self._mark_after(writing.game_id, sent, look_ms)
        if sent.appended.outcome == AppendResult.OK and sent.mark_refused:
            self.owed.owe(writing.game_id)
        slots = [slot for tried in tries if (slot := tried.slot) is not None]
        return Submitted(sent.appended, slots, sent.looked, rechained=len(tries) > 1,
                         hash=sent.chained.hash)

    def _send(self, writing: Writing, based_on: tuple[int, str], look_ms: int,
              with_mark: bool) -> _Sent:
        """One try of a submission, in one round trip: its append chained onto `based_on`, and
        `with_mark`, its game's mark and (`look_ms`) the wait for its verdict."""
        chained = writing.chained(*based_on, nudge=bool(look_ms) and with_mark)
        seq = chained.version + 1
        batch = Batch(self.redis)
        appending = self.log.queue_append(batch, chained)
        marking = (self.scheduler.queue_mark(batch, writing.game_id, _marked(chained))
                   if with_mark else None)
        looking = (self.log.queue_verdict_after(batch, chained, seq, look_ms)
                   if look_ms and with_mark else None)
        try:
            batch.run()
        except NothingSent:
            raise
        except connection.UNREACHABLE as lost:
            self.owed.owe(writing.game_id)  # it may be written: a needless mark costs a look
            raise OutcomeUnknown(writing.game_id, seq) from lost
        return _Sent(chained, appending, marking, looking)

    def _mark_after(self, game_id: str, sent: _Sent, look_ms: int) -> _Sent:
        """The mark and the wait of an append sent alone. Should Redis go away now the append's
        outcome stands: its verdict is awaited later, and a reader asking for it marks the game
        again (`service.handlers.lookup`)."""
        batch = Batch(self.redis)
        marking = self.scheduler.queue_mark(batch, game_id, _marked(sent.chained))
        looking = (self.log.queue_verdict_after(batch, sent.chained, sent.chained.version + 1,
                                                look_ms)
                   if look_ms and sent.appended.outcome == AppendResult.OK else None)
        try:
            batch.run()
        except connection.UNREACHABLE:
            return sent
        return sent._replace(marking=marking, looking=looking)


class _Sent(NamedTuple):
    """One try of a submission: its append's answer, and its mark's and its wait's if they were
    sent."""

    chained: Chained
    appending: Answer[Appended]
    marking: Answer[int | None] | None
    looking: Answer[VerdictRead] | None

    @property
    def appended(self) -> Appended:
        """Refused (a full Redis refuses its first write): nothing of it was written."""
        return self.appending.value

    @property
    def mark_refused(self) -> bool:
        """Its mark was not taken: refused (Redis was full), or not sent as Redis went away."""
        return self.marking is None or self.marking.error is not None

    @property
    def slot(self) -> int | None:
        """The drain slot its mark opened; None too when Redis refused the mark (it was full):
        the append's outcome stands, and the workers' sweep marks the game (`store.unmarked`)."""
        if self.marking is None or isinstance(self.marking.error, redis.ResponseError):
            return None
        return self.marking.value

    @property
    def looked(self) -> VerdictRead | None:
        """What its wait saw; None without a wait, or for an append that did not write."""
        if self.looking is None or self.appended.outcome != AppendResult.OK:
            return None
        return self.looking.value


def _marked(chained: Chained) -> Marked:
    """The submission `chained` appends, as the bell carries it to a drain."""
    return Marked(chained.version + 1, chained.hash, chained.first, chained.request)
