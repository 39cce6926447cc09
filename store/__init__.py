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
`Log.submit`, `Log.queue_append`), read a range (`Log.entries`) and read the head
(`Log.head`). The store keeps and returns what was written: the engine's fold is the
workers' and the read side's.

The game store lives on a Redis Cluster when one is configured (`store.connection`); RQ's
queues always live on the standalone Redis, `queues`.
"""

from __future__ import annotations

import redis

from store import connection
from store.audits import Audits, Places
from store.compacted import Compacted
from store.counts import Counts
from store.events import Events
from store.games import Games
from store.hub import Hub
from store.locks import Locks
from store.log import Log
from store.projections import Projections
from store.replicas import AUTO, DEFAULT_TIMEOUT_MS, Replicas
from store.scheduler import Scheduler


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
        self.locks = Locks(client)
        self.events = Events(client, self.log, self.locks)
        self.projections = Projections(client, self.compacted)
        self.scheduler = Scheduler(client)
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
