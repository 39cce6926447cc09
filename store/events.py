"""Events as stored: an event's log is chained, appended and read as a game's is (`store.log`,
under the id `keys.event_log`), beside its seed and its organiser's token."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

import redis

from engine.log import GENESIS, chain
from store import keys
from store.games import token_digest
from store.locks import Locks
from store.log import Appended, Log, Writing
from store.stored import ENTRY, entry_bytes

ORGANISER = "organiser"


# An organiser's change of an event is held alone this long at most (should its web process
# die holding it); another waits for it this long.
CHANGING_MS = 10_000
CHANGING_WAIT_S = 5.0


class Events:
    def __init__(self, client: redis.Redis, log: Log, locks: Locks):
        self.redis = client
        self.log = log
        self.locks = locks

    def changing(self, event_id: str) -> AbstractContextManager[None]:
        """Held while an organiser's request changes the event (seats a round, withdraws a
        player): a seating creates its games before it appends them, and another change
        meanwhile would refuse that append and leave the games outside the event. Another
        change waits for it (`store.locks.Locked` past `CHANGING_WAIT_S`)."""
        return self.locks.held(keys.event(event_id).lock, CHANGING_WAIT_S, CHANGING_MS)

    def create(self, event_id: str, created: Mapping[str, Any], seed: str, token: str
               ) -> dict[str, Any]:
        """Write a new event whose log is its `event-created` entry; the entry, chained."""
        entry = chain(GENESIS, [{**created, "seq": 1}])[0]
        k = keys.event(event_id)
        self._list(event_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.xadd(k.log, {ENTRY: entry_bytes(entry, as_created=True)}, id="1-0")
        pipe.hset(k.meta, mapping={"version": 1, "hash": entry["hash"]})
        pipe.hset(k.secret, mapping={"seed": seed})
        pipe.hset(k.auth, mapping={token_digest(token): ORGANISER})
        pipe.execute()
        return entry

    def load(self, event_id: str, entries: Sequence[Mapping[str, Any]], seed: str) -> bool:
        """Store an ended event from elsewhere with its log exactly as given, in one
        transaction; False, writing nothing, when the id holds an event already. It has no
        organiser's token: an ended event takes no more rounds."""
        k = keys.event(event_id)
        if self.redis.exists(k.meta):
            return False
        self._list(event_id)
        pipe = self.redis.pipeline(transaction=True)
        for entry in entries:
            pipe.xadd(k.log, {ENTRY: entry_bytes(entry)}, id=f"{entry['seq']}-0")
        pipe.hset(k.meta, mapping={"version": entries[-1]["seq"], "hash": entries[-1]["hash"]})
        pipe.hset(k.secret, mapping={"seed": seed})
        pipe.execute()
        return True

    def _list(self, event_id: str) -> None:
        """Listed first, apart from the event's own keys (another hash tag: on a Redis Cluster
        no transaction spans both); a listing skips an id whose event is not there."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(keys.EVENTS, {event_id: time.time()}, nx=True)
        pipe.set(keys.LAYOUT, keys.PARTITIONED, nx=True)
        pipe.execute()

    def append(self, event_id: str, bodies: Sequence[dict[str, Any]], expected_version: int
               ) -> Appended:
        """Append entries only while the log is at `expected_version`: what they say was
        decided from the log as it stood there."""
        writing = Writing(keys.event_log(event_id), tuple(bodies),
                          expected_version=expected_version)
        return self.log.write(writing)

    def entries(self, event_id: str, upto: int | None = None) -> list[dict[str, Any]]:
        return self.log.entries(keys.event_log(event_id), upto=upto)

    def head(self, event_id: str) -> tuple[int, str] | None:
        return self.log.head(keys.event_log(event_id))

    def role(self, event_id: str, token: str | None) -> str | None:
        if not token:
            return None
        found = self.redis.hget(keys.event(event_id).auth, token_digest(token))
        return found.decode() if found else None

    def seed(self, event_id: str) -> str:
        return self.redis.hget(keys.event(event_id).secret, "seed").decode()

    def ids(self) -> list[str]:
        """Every event listed, oldest first (one whose creation failed after its listing has
        no log: `Log.entries` finds none)."""
        return [e.decode() for e in self.redis.zrange(keys.EVENTS, 0, -1)]
