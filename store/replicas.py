"""Replicas' acknowledgement: a write the client was told about survives its master's failover.

Redis replicates asynchronously, so a master that dies right after a write may take the write
with it, and the replica promoted in its place never saw it. Before the web answers a write (a
new game, a submission, the verdict it waited for) it asks the master holding the game to wait
(`WAIT`) until a replica holds everything up to now. WAIT counts only the writes of the
connection that calls it, and a verdict is written by a worker, so on one connection the web
first writes a short-lived marker under the game's hash tag and then waits: a replica holding
the marker holds everything its master did before it.
"""

from __future__ import annotations

import time

import redis
from redis.cluster import RedisCluster

from store import keys
from store.connection import FULL, StoreClient

# Wait for one replica when the game's master has any, or for the number given (0: never).
AUTO = "auto"
DEFAULT_TIMEOUT_MS = 2000
_MARKER_MS = 5000
# How long a standalone master's count of replicas is trusted before asking again.
_COUNT_S = 5.0


class Replicas:
    def __init__(self, client: StoreClient, wanted: int | str = AUTO,
                 timeout_ms: int = DEFAULT_TIMEOUT_MS):
        self.redis = client
        self.wanted = wanted if wanted == AUTO else int(wanted)
        self.timeout_ms = int(timeout_ms)
        self._counted: tuple[float, int] = (-_COUNT_S, 0)

    def hold(self, game_id: str) -> bool:
        """Wait until enough replicas hold every write the game's master has made; False when
        they did not acknowledge in time (the writes stand, but may not survive a failover)."""
        marker = keys.game(game_id).ack
        master, replicas = self._master(marker)
        wanted = min(replicas, 1) if self.wanted == AUTO else self.wanted
        if wanted == 0:
            return True
        pipe = master.pipeline(transaction=False)
        pipe.set(marker, 1, px=_MARKER_MS)
        pipe.wait(wanted, self.timeout_ms)
        try:
            return pipe.execute()[1] >= wanted
        except FULL:
            # The master is full and took no marker: the writes stand, their copy is unknown.
            return False

    def _master(self, key: str) -> tuple[redis.Redis, int]:
        """A client of the master holding `key`, and how many replicas it has."""
        if isinstance(self.redis, RedisCluster):
            master = self.redis.get_node_from_key(key)
            owners = self.redis.nodes_manager.slots_cache[self.redis.keyslot(key)]
            return master.redis_connection, len(owners) - 1
        at, count = self._counted
        if time.monotonic() - at > _COUNT_S:
            count = self.redis.info("replication")["connected_slaves"]
            self._counted = (time.monotonic(), count)
        return self.redis, count
