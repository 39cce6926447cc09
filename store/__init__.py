"""The persistence layer the web and the workers share: every Redis key and script lives here.

`Store` gathers one object per noun over one client: `games` (creating and listing them, meta,
tokens, secret), `log` (appending and reading entries), `projections` (what readers need
without replaying), `scheduler` (which games wait to be judged and by which drain), `locks`,
`audits` and `counts` (the rate limits'); `replicas` waits for a replica to hold a game's
writes before the web answers them. `store.keys` spells every key; nothing outside this
package knows one.

The game store lives on a Redis Cluster when one is configured (`store.connection`); RQ's
queues always live on the standalone Redis, `queues`.
"""

from __future__ import annotations

from dataclasses import dataclass

import redis

from store import connection
from store.audits import Audits
from store.batch import Batch, checked
from store.counts import Counts
from store.games import Games
from store.locks import Locks
from store.log import Appended, Landed, Log, Outcome, OutcomeUnknown, Writing, landed
from store.projections import Projections
from store.replicas import AUTO, DEFAULT_TIMEOUT_MS, Replicas
from store.scheduler import Scheduler, slot_of


@dataclass(frozen=True)
class Submitted:
    """What posting a submission came to."""

    appended: Appended
    slots: list[int]  # the drain slots to queue a job for
    # What waiting for its verdict in the same round trip saw; None without such a wait.
    looked: Landed | None = None


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
        self.games = Games(client)
        self.counts = Counts(client)
        self.log = Log(client)
        self.projections = Projections(client)
        self.scheduler = Scheduler(client)
        self.locks = Locks(client)
        self.audits = Audits(client)

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
        """Append a submission chained onto `based_on` and mark its game for judging, in one
        round trip; with `look_ms`, wait in that same round trip up to that long for its
        verdict (`Log.verdict_after`).

        The game is marked whatever the append comes to: a needless mark costs a drain one
        look, and a retried submission still pending is judged even if its drain died. When
        another writer came first the submission is chained again and its game marked again,
        since a drain may have looked at the game in between and found nothing; what the wait
        saw then is no answer.
        """
        chained = writing.chained(*based_on)
        batch = Batch(self.redis)
        appending = self.log.queue_append(batch, chained)
        marking = self.scheduler.queue_mark(batch, writing.game_id)
        seq = based_on[0] + 1
        looking = (self.log.queue_verdict_after(batch, writing.game_id, seq, look_ms)
                   if look_ms else None)
        try:
            answers = batch.run()
            appended = chained.outcome(checked(answers[appending]))
            slots = [slot_of(checked(answers[marking]))]
            looked = None
            if appended.outcome == Outcome.MOVED:
                appended = self.log.write(writing)
                slots.append(self.scheduler.mark_dirty(writing.game_id))
            elif looking is not None and appended.outcome == Outcome.OK:
                looked = landed(checked(answers[looking]), seq, seq)
        except connection.UNREACHABLE as lost:
            raise OutcomeUnknown(writing.game_id) from lost
        return Submitted(appended, [slot for slot in slots if slot is not None], looked)
