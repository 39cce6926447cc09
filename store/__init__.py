"""The persistence layer the web and the workers share: every Redis key and script lives here.

`Store` gathers one object per noun over one client: `games` (creating and listing them, meta,
tokens, secret), `log` (appending and reading entries), `events` (tournaments' logs),
`projections` (what readers need without replaying), `compacted` (ended games kept as one
record each), `scheduler` (the work to judge, read by the drains, and the drains' slots),
`locks`, `audits` (and `audit_places`, on the queues' Redis) and `counts` (the rate limits');
`hub` wakes the requests of a web process that wait on a game's log, all served by one reader;
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
from store.projections import Projections
from store.replicas import AUTO, DEFAULT_TIMEOUT_MS, Replicas
from store.scheduler import Scheduler


@dataclass(frozen=True)
class Submitted:
    """What posting a submission came to."""

    appended: Appended
    # What waiting for its verdict in the same round trip saw; None without such a wait.
    looked: VerdictRead | None = None
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
        self.locks = Locks(client)
        self.audits = Audits(client)
        self.audit_places = Places(self.queues)
        self.hub = Hub(client)

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

    def submit(self, writing: Writing, based_on: tuple[int, str], look_ms: int = 0) -> Submitted:
        """Append a submission chained onto `based_on`, its work item with it (`store.log`),
        and with `look_ms`, wait in that same round trip up to that long for its verdict
        (`Log.queue_verdict_after`), a wait the append ends at once should it refuse.

        When another writer came first (`based_on` was stale) the submission is chained onto
        the head the refusal names and sent again, wait included. Its rate limits' counts are
        taken by the first try alone.
        """
        sent = self._send(writing, based_on, look_ms)
        tries = 1
        while sent.appended.outcome == AppendResult.MOVED:
            if tries == TRIES:
                raise RuntimeError(f"game {writing.game_id}: could not append after {TRIES} tries")
            writing = writing.again()
            sent = self._send(writing, sent.appended.head, look_ms)
            tries += 1
        return Submitted(sent.appended, sent.looked, hash=sent.chained.hash)

    def _send(self, writing: Writing, based_on: tuple[int, str], look_ms: int) -> _Sent:
        """One try of a submission, in one round trip: its append chained onto `based_on`, and
        (`look_ms`) the wait for its verdict."""
        chained = writing.chained(*based_on, nudge=bool(look_ms))
        seq = chained.version + 1
        batch = Batch(self.redis)
        appending = self.log.queue_append(batch, chained)
        looking = (self.log.queue_verdict_after(batch, chained, seq, look_ms)
                   if look_ms else None)
        try:
            batch.run()
        except NothingSent:
            raise
        except connection.UNREACHABLE as lost:
            raise OutcomeUnknown(writing.game_id, seq) from lost
        return _Sent(chained, appending, looking)


class _Sent(NamedTuple):
    """One try of a submission: its append's answer, and its wait's if one was sent."""

    chained: Chained
    appending: Answer[Appended]
    looking: Answer[VerdictRead] | None

    @property
    def appended(self) -> Appended:
        """Refused (a full Redis refuses its first write): nothing of it was written."""
        return self.appending.value

    @property
    def looked(self) -> VerdictRead | None:
        """What its wait saw; None without a wait, or for an append that did not write."""
        if self.looking is None or self.appended.outcome != AppendResult.OK:
            return None
        return self.looking.value
