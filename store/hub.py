"""One reader of every followed log in a web process, waking the requests that wait on them.

A follower (`events?follow=1`) or a move's `wait` for its verdict used to block on its game's
log with a pooled Redis connection of its own, so about a hundred of them emptied a process's
pool and every other request failed. Now a waiting request registers with the hub and sleeps
on its game's condition; the hub's reader blocks on every followed log at once (one `XREAD
BLOCK` on a connection of its own), reads each new entry once and hands it to every request
waiting on that game. A waiting request holds a socket and a greenlet, never a connection.

Redis Cluster keeps the logs of different games in different slots, which one XREAD cannot
span: there the hub keeps a reader per followed game (a connection per followed game and
process, still not one per follower).

The primitives are `threading`'s, which gevent patches in the web: a reader is a greenlet
there and a thread under the Flask test client. Each waiter has an event of its own, so that a
player waiting for a verdict is woken before the spectators, and a follower whose client left
is let go at once without waking the others.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import redis
from redis.cluster import RedisCluster

from store import keys
from store.connection import UNREACHABLE, StoreClient
from store.stored import entries_of

# A reader's XREAD blocks this long at most, under the client's read timeout; it then drops
# the games nobody waits on any more.
_SLICE_MS = 5000
# The latest entries of a followed game the hub keeps, for requests a little behind.
_KEPT = 256
# Requests a reader wakes before it lets others run (`Hub.landed`).
_WOKEN_AT_ONCE = 100
# How long a reader waits before asking again after Redis did not answer.
_AWAY_S = 0.5
# A reader is asked to take up a new game this many times at most, `_NUDGE_S` apart.
_NUDGES, _NUDGE_S = 100, 0.002


class Waiter:
    """One request waiting on a game: woken when entries land, or when it should give up
    (`leave`: its client went away)."""

    def __init__(self, urgent: bool = False):
        self.urgent = urgent  # woken before the others: a player waiting for a verdict
        self.woken = threading.Event()
        self.gone = False

    def leave(self) -> None:
        self.gone = True
        self.woken.set()


def _let_others_run() -> None:
    """Let what else the process has to do run before more followers are woken.

    Under gevent a woken request runs after those woken before it and after what became ready
    meanwhile: thousands of followers woken at once kept a player's answer (its socket ready)
    waiting behind every one of them. gevent's `idle` waits until nothing else is pending,
    so a player's request, its verdict's answer and the woken followers run before the
    next ones are woken. The store imports no gevent: a process it patched has loaded it."""
    gevent = sys.modules.get("gevent")
    monkey = sys.modules.get("gevent.monkey")
    if gevent is not None and monkey is not None and monkey.is_module_patched("threading"):
        gevent.idle()
    else:
        time.sleep(0)


@dataclass
class _Followed:
    """A game some request waits on: the last seq known to be in its log, the latest
    entries read, oldest first, and who waits (the urgent first)."""

    last: int
    urgent: set[Waiter] = field(default_factory=set)
    plain: set[Waiter] = field(default_factory=set)
    # Consecutive, ending at `last`; replaced whole, so that a waiter slices it unlocked.
    kept: tuple[dict[str, Any], ...] = ()

    def after(self, seq: int) -> list[dict[str, Any]] | None:
        """The kept entries past `seq`, or None when they do not reach back to it."""
        kept = self.kept
        if not kept or kept[0]["seq"] > seq + 1:
            return None
        return list(kept[seq + 1 - kept[0]["seq"]:])

    def waiting(self, waiter: Waiter) -> set[Waiter]:
        """The set the waiter joins: the urgent or the others."""
        return self.urgent if waiter.urgent else self.plain

    @property
    def waiters(self) -> list[Waiter]:
        return [*self.urgent, *self.plain]


class Hub:
    """The web process's waits on game logs, served by one reader per group of games."""

    def __init__(self, client: StoreClient):
        self._client = client
        self._cluster = isinstance(client, RedisCluster)
        self._lock = threading.Lock()
        self._games: dict[str, _Followed] = {}
        self._readers: dict[str, _Reader] = {}

    def wait(self, game_id: str, after: int, timeout_s: float, waiter: Waiter | None = None
             ) -> list[dict[str, Any]]:
        """The entries past seq `after`, once there are any; none after `timeout_s` or once
        the waiter leaves."""
        waiter = waiter or Waiter()
        followed = self._follow(game_id, after, waiter)
        deadline = time.monotonic() + timeout_s
        try:
            while True:
                waiter.woken.clear()
                left = deadline - time.monotonic()
                if followed.last > after or waiter.gone or left <= 0:
                    break
                waiter.woken.wait(left)
        finally:
            self._unfollow(followed, waiter)
        if followed.last <= after or waiter.gone:
            return []
        kept = followed.after(after)
        if kept is not None:
            return kept
        return entries_of(self._client.xrange(keys.game(game_id).log, min=f"{after + 1}-0"))

    def following(self) -> dict[str, int]:
        """How many requests wait on each followed game."""
        with self._lock:
            return {game_id: len(f.urgent) + len(f.plain) for game_id, f in self._games.items()
                    if f.urgent or f.plain}

    def _follow(self, game_id: str, after: int, waiter: Waiter) -> _Followed:
        with self._lock:
            followed = self._games.get(game_id)
            new = followed is None
            if new:
                followed = self._games[game_id] = _Followed(after)
            followed.waiting(waiter).add(waiter)
            reader = self._reader_for(game_id)
        if new:
            reader.take_up(game_id, followed)
        return followed

    def _unfollow(self, followed: _Followed, waiter: Waiter) -> None:
        """Forget a request that waits no more. Its game, once nobody waits on it, stays read
        until the reader's XREAD ends (`positions`): a request that waits again at once (a
        follower after each batch) finds the reader reading it, with no `take_up`."""
        with self._lock:
            followed.waiting(waiter).discard(waiter)

    def _reader_for(self, game_id: str) -> _Reader:
        """The reader of the game's group, started when it has none (under the lock)."""
        group = game_id if self._cluster else ""
        reader = self._readers.get(group)
        if reader is None or not reader.alive:
            reader = self._readers[group] = _Reader(self, group)
            reader.start()
        return reader

    def positions(self, group: str) -> dict[str, _Followed] | None:
        """The group's followed games, which its reader reads past their last seq, once the
        games nobody waits on any more are dropped; None once the group has none left (its
        reader ends)."""
        with self._lock:
            mine = [g for g in self._games if group in ("", g)]
            for game_id in mine:
                if not self._games[game_id].waiters:
                    del self._games[game_id]
            wanted = {g: self._games[g] for g in mine if g in self._games}
            if not wanted:
                self._readers.pop(group, None)
                return None
            return wanted

    def landed(self, followed: _Followed, entries: list[dict[str, Any]]) -> None:
        """Keep what a reader read of a game, and wake the requests waiting on it."""
        with self._lock:
            kept = list(followed.kept)
            for entry in entries:
                if entry["seq"] > followed.last:
                    if kept and kept[-1]["seq"] != entry["seq"] - 1:
                        kept = []
                    kept.append(entry)
                    followed.last = entry["seq"]
            followed.kept = tuple(kept[-_KEPT:])
            waiters = followed.waiters
        for woken, waiter in enumerate(waiters, 1):
            waiter.woken.set()
            if woken % _WOKEN_AT_ONCE == 0:
                _let_others_run()

    def unblock(self, client_id: int) -> None:
        """End the XREAD a reader's connection is blocked in."""
        self._client.client_unblock(client_id)

    def connection(self, group: str) -> redis.Redis:
        """A connection of the reader's own: a blocked XREAD is no pooled connection's."""
        if self._cluster:
            node = self._client.get_node_from_key(keys.game(group).log)
            pool = self._client.get_redis_connection(node).connection_pool
        else:
            pool = self._client.connection_pool
        own = redis.ConnectionPool(connection_class=pool.connection_class, max_connections=1,
                                   **pool.connection_kwargs)
        return redis.Redis(connection_pool=own, single_connection_client=True)


class _Reader:
    """Blocks on the logs of a group of followed games and hands what lands to the hub."""

    def __init__(self, hub: Hub, group: str):
        self._hub = hub
        self._group = group
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name=f"tablelog-hub-{group or 'all'}")
        self._reading: dict[str, _Followed] = {}
        self._id: int | None = None
        self.alive = True

    def start(self) -> None:
        self._thread.start()

    def take_up(self, game_id: str, followed: _Followed) -> None:
        """Have the reader read a game newly followed: end the XREAD it is blocked in until
        it reads that game too (it may be between two reads, where ending none is needed, or
        about to send one without the game)."""
        for _ in range(_NUDGES):
            if not self.alive or self._reading.get(game_id) is followed:
                return
            if self._id is not None:
                try:
                    self._hub.unblock(self._id)
                except UNREACHABLE:
                    return
            time.sleep(_NUDGE_S)

    def _run(self) -> None:
        connection: redis.Redis | None = None
        try:
            while (positions := self._hub.positions(self._group)) is not None:
                try:
                    if connection is None:
                        connection = self._hub.connection(self._group or next(iter(positions)))
                        self._id = connection.client_id()
                    self._read(connection, positions)
                except UNREACHABLE:
                    connection, self._id = None, None
                    time.sleep(_AWAY_S)
        finally:
            self.alive = False
            if connection is not None:
                connection.close()

    def _read(self, connection: redis.Redis, positions: dict[str, _Followed]) -> None:
        """One XREAD of every followed log (CLIENT UNBLOCK ends it as if it timed out)."""
        self._reading = positions
        games = {keys.game(g).log.encode(): g for g in positions}
        streams = {log: f"{positions[g].last}-0" for log, g in games.items()}
        for stream, entries in connection.xread(streams, block=_SLICE_MS) or ():
            self._hub.landed(positions[games[stream]], entries_of(entries))
