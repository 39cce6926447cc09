"""The key layout a store is in, and its games moved into this code's (`tablelog migrate`).

`keys` spells this code's layout and says what any other game key is called in it
(`keys.moved`). A process refuses to start on a store in another layout (`require_current`):
reading a game under names it is not stored under would answer 404 for every game written
before. Moving is resumable: each key is copied under its new name with its time to live
(DUMP, then RESTORE, replacing what an interrupted run left there), and its old name deleted
only once every copy of its batch was taken, so an interruption at any point loses nothing and a
run made again moves what is left. On a Redis Cluster the two names of a key live on different
shards: RENAME cannot move it there. Once a pass finds nothing left, each game with submissions
not judged yet is given the work item that gets them judged (`store.scheduler`: a store written
before had none), the scheduler's keys of before are deleted (`keys.RETIRED`), and the layout
key is written.
Rate limits' counts are not moved: each lapses within its window, and counting starts afresh.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import redis

from engine.log import SUBMITTED
from store import keys
from store.connection import StoreClient
from store.scheduler import queue_item
from store.stored import ENTRY, ProjField, entry_from

_BATCH = 500


class OlderLayout(RuntimeError):
    """The store holds games in another key layout than this code's."""

    def __init__(self, found: str):
        super().__init__(
            f"the store holds games in the key layout {found!r}, not this code's"
            f" {keys.PARTITIONED!r}: stop every web and worker process, back the store up"
            " (`tablelog backup`), and run `tablelog migrate`")
        self.found = found


def stale(client: StoreClient) -> str | None:
    """The layout the store is in, when it is not this code's; None when it is. An empty store
    is taken as this code's."""
    found = client.get(keys.LAYOUT)
    if found is not None:
        return None if found.decode() == keys.PARTITIONED else found.decode()
    if client.exists(keys.GAMES) or client.exists(keys.EVENTS):
        return keys.UNPARTITIONED
    client.set(keys.LAYOUT, keys.PARTITIONED, nx=True)
    return None


def require_current(client: StoreClient) -> None:
    """Raise `OlderLayout` on a store in another layout. A Redis not answering yet is let be,
    as every other check at a process's start lets it be: the process waits for it."""
    try:
        found = stale(client)
    except redis.RedisError:
        return
    if found is not None:
        raise OlderLayout(found)


class Moved(NamedTuple):
    """What a run of `move` came to."""

    keys: int  # moved
    looked_at: int  # keys looked at
    done: bool  # nothing is left to move: the store is in this layout


def move(client: StoreClient, advance: Callable[[int], None] = lambda _: None,
         at_most: int | None = None) -> Moved:
    """Move every game key not named as this layout names it, `at_most` of them in this run;
    `advance` is told of the keys looked at as it goes."""
    moved = looked = 0
    batch: list[tuple[bytes, bytes]] = []
    for name in client.scan_iter(count=_BATCH):
        looked += 1
        if (new := keys.moved(name)) is not None:
            batch.append((name, new))
        if len(batch) == _BATCH or (at_most is not None and moved + len(batch) == at_most):
            moved, batch = moved + _moved(client, batch), []
        if looked % _BATCH == 0:
            advance(_BATCH)
        if at_most is not None and moved >= at_most:
            advance(looked % _BATCH)
            return Moved(moved, looked, done=False)
    moved += _moved(client, batch)
    advance(looked % _BATCH)
    _give_work(client)
    client.delete(*keys.RETIRED)
    client.set(keys.LAYOUT, keys.PARTITIONED)
    return Moved(moved, looked, done=True)


def _give_work(client: StoreClient) -> None:
    """A work item for each game with a submission past its last judged one (its first such):
    the drain that takes it judges every submission pending. An item given twice (a run
    interrupted here, made again) finds nothing left to judge the second time."""
    ids = [g.decode() for g in client.zrange(keys.GAMES, 0, -1)]
    for start in range(0, len(ids), _BATCH):
        chunk = ids[start:start + _BATCH]
        read = client.pipeline(transaction=False)
        for game_id in chunk:
            read.hget(keys.game(game_id).meta, "submitted")
            read.hget(keys.game(game_id).proj, ProjField.JUDGED)
        found = read.execute()
        pending = [(g, int(j or 0)) for g, s, j in zip(chunk, found[::2], found[1::2],
                                                        strict=True) if int(s or 0) > int(j or 0)]
        logs = client.pipeline(transaction=False)
        for game_id, judged in pending:
            logs.xrange(keys.game(game_id).log, f"{judged + 1}-0", "+")
        write = client.pipeline(transaction=False)
        for (game_id, _), entries in zip(pending, logs.execute(), strict=True):
            stored = (fields[ENTRY.encode()] for _, fields in entries)
            first = next(raw for raw in stored if entry_from(raw)["type"] == SUBMITTED)
            queue_item(write, game_id, entry_from(first)["seq"], first)
        write.execute()


def _moved(client: StoreClient, names: list[tuple[bytes, bytes]]) -> int:
    """Each key copied under its new name, then its old name deleted: how many."""
    if not names:
        return 0
    read = client.pipeline(transaction=False)
    for old, _ in names:
        read.dump(old)
        read.pttl(old)
    found = read.execute()
    write = client.pipeline(transaction=False)
    copied = []
    for (old, new), dumped, ttl in zip(names, found[::2], found[1::2], strict=True):
        if dumped is None or ttl == -2:  # lapsed meanwhile
            continue
        write.restore(new, max(ttl, 0), dumped, replace=True)
        copied.append(old)
    write.execute()
    if copied:
        client.delete(*copied)  # split by slot on a cluster (redis-py's)
    return len(copied)
