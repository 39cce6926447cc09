"""Compacting ended games: each written as one record in place of its live keys.

`compact_listed` is the job a game gets a while after it ends (`store.compacted`). It reads
the game, checks its log chains to its head, and hands the record to `store.compacted`, whose
one script swaps the live keys for it. It writes nothing but that script, so a worker killed
anywhere leaves the game live, or compacted; and run twice it finds the game compacted
already.

`python -m workers.compaction` compacts every game that ended before compaction existed (or
whose job was lost), with a progress bar: games already compacted are skipped a page at a
time, so it is safe to interrupt and to run again. It also writes again, in spans, the records
written before spans (2026-11-27 and 28: their first reads decode the whole log), each swapped
in one step for the one it was made from (`respanned`).
"""

from __future__ import annotations

import collections
import logging
import sys
from enum import StrEnum
from typing import Any

import orjson
from rich.progress import Progress

from engine import log
from store import Store
from store.compacted import Broken, decode, encode, seal
from store.connection import cluster_url, redis_url
from store.projections import score_json
from store.stored import state_json

_log = logging.getLogger(__name__)
# Games read at once by the sweep of ended games.
PAGE = 200


class Compaction(StrEnum):
    """What compacting a game came to."""

    WRITTEN = "written"
    COMPACTED = "compacted"  # it was already
    RUNNING = "running"  # not ended
    MOVED = "moved"  # its head moved between the reads and the write: compacted next time
    MISSING = "missing"
    BROKEN = "broken"  # its live log does not chain to its head: left as it is, and logged
    SPANNED = "spanned"  # its record, written before spans, written again in spans


def compact_listed(store: Store, game_id: str) -> Compaction:
    """The job: compact a game listed among the ended ones, then unlist it, unless its head
    moved meanwhile (it is taken again when its lease lapses)."""
    done = compact(store, game_id)
    if done != Compaction.MOVED:
        store.compacted.done(game_id)
    return done


def compact(store: Store, game_id: str) -> Compaction:
    if store.compacted.compacted([game_id])[0]:
        return Compaction.COMPACTED
    head = store.log.head(game_id)
    if head is None:
        return Compaction.MISSING
    position, state = store.projections.standing(game_id)
    if not position.status.over:
        return Compaction.RUNNING
    if state is None:  # a live game's proj hash holds its state: this one was compacted since
        return Compaction.COMPACTED
    entries = store.log.entries(game_id)
    if len(entries) != head[0] or entries[-1]["hash"] != head[1]:
        return Compaction.MOVED
    record = _made(game_id, entries, state, store.games.secret(game_id), head[1])
    if record is None:
        # A record's hashes are recomputed from its entries: compacting a log that does not
        # chain would hide what an audit must find. Its record does not read back as it (its
        # hashes recomputed are not those stored), so it is not checked on its own first.
        _log.error("game %s is not compacted: its record does not read back as its log"
                   " (its log breaks at entries %s)", game_id, log.broken_links(entries))
        return Compaction.BROKEN
    return Compaction(store.compacted.write(game_id, head, record))


def _made(game_id: str, entries: list[dict[str, Any]], state: bytes,
          secret: tuple[str, list[list[str]]], head: str) -> bytes | None:
    """An ended game's record, None unless it reads back as the very log, state and score."""
    game = log.rules(entries[0])
    score = score_json(game, game.decode(orjson.loads(state)), entries[0]["players"])
    record = encode(entries, state, score)
    try:
        read = decode(game_id, record, head, secret, seal(record))
        same = (read.read() == entries and read.final_state() == state
                and read.kept_score() == score)
    except Broken:
        return None
    return record if same else None


def respanned(store: Store, game_id: str) -> Compaction:
    """A game compacted before records were kept in spans, written again in spans (its first
    reads then decode only what they need): its old record read back whole, every hash checked,
    made again and swapped for the new one in one step, only while it is still the one read."""
    fetched = store.compacted.fetched(game_id)
    if fetched is None or fetched[1].meta_head is None:
        return Compaction.MISSING
    raw, old = fetched
    try:
        old.check()
        entries = old.read()
        state = old.final_state() or final_state(entries, *old.secret)
    except Broken:
        _log.exception("game %s is not compacted again: its record does not verify", game_id)
        return Compaction.BROKEN
    record = _made(game_id, entries, state, old.secret, old.meta_head)
    if record is None:
        return Compaction.BROKEN
    written = store.compacted.rewrite(game_id, raw, record)
    return Compaction.SPANNED if written == "written" else Compaction.MOVED


def final_state(entries: list[dict[str, Any]], seed: str, decks: list[list[str]]) -> bytes:
    """The JSON of the state a whole log folds to, as the projections write it: what a record
    written before spans may not keep (the store folds nothing)."""
    return state_json(log.folded(entries, seed, decks)).encode()


def compact_ended(store: Store, shown: bool = True) -> collections.Counter[Compaction]:
    """Compact every game listed among the finished ones (and abandoned), oldest first, and
    write again in spans those compacted before spans."""
    done: collections.Counter[Compaction] = collections.Counter()
    after = None
    with Progress(disable=not shown) as progress:
        bar = progress.add_task("compacting ended games", total=store.games.finished_count())
        while batch := store.games.ids(after, PAGE, finished=True):
            after = batch[-1][1], batch[-1][0]
            ids = [game_id for game_id, _ in batch]
            found = zip(ids, store.compacted.compacted(ids), store.compacted.before_spans(ids),
                        strict=True)
            for game_id, already, before_spans in found:
                if before_spans:
                    done[respanned(store, game_id)] += 1
                else:
                    done[Compaction.COMPACTED if already else compact(store, game_id)] += 1
            progress.advance(bar, len(ids))
    return done


def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    done = compact_ended(Store.connect(redis_url(), cluster_url()), shown=sys.stderr.isatty())
    print(", ".join(f"{count} {outcome}" for outcome, count in sorted(done.items())) or
          "no ended game")


if __name__ == "__main__":
    main()
