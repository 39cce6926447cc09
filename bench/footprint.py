"""What the stored games cost in Redis, against the bytes of their entries' canonical JSON."""

from __future__ import annotations

from dataclasses import dataclass

import redis

from bench.ceiling import PREFIX


@dataclass(frozen=True)
class Memory:
    entries: int
    entry_bytes: int  # their canonical JSON, as the log holds it
    used: int  # growth of INFO memory's used_memory since the baseline
    logs: int  # MEMORY USAGE of the log streams alone
    played: int  # growth of used_memory while moves were posted to games already created
    moves: int  # the entries past each game's first, and their bytes
    move_bytes: int

    def lines(self) -> list[str]:
        mean = self.entry_bytes / self.entries
        return [
            f"{self.entries} entries, {mean:.0f} bytes of canonical JSON each on average",
            f"used_memory growth {self.used / self.entries:8.0f} bytes an entry"
            f"   {self.used / self.entry_bytes:5.2f} x its JSON   (everything: logs, meta,"
            " projections, indexes)",
            f"while moves played {self.played / self.moves:8.0f} bytes an entry"
            f"   {self.played / self.move_bytes:5.2f} x its JSON   (what a move adds: its entries,"
            " projections, indexes)",
            f"the log streams    {self.logs / self.entries:8.0f} bytes an entry"
            f"   {self.logs / self.entry_bytes:5.2f} x its JSON",
        ]


def used_memory(connection: redis.Redis) -> int:
    return int(connection.info("memory")["used_memory"])


def forget_ceiling(connection: redis.Redis) -> None:
    """The ceiling's streams are no part of what the service stores."""
    for key in connection.scan_iter(match=PREFIX + "*", count=1000):
        connection.unlink(key)


def entry_sizes(connection: redis.Redis, log: bytes | str) -> list[int]:
    """The bytes of each entry's canonical JSON in one log, in order, read a page at a time."""
    sizes: list[int] = []
    after: bytes | str = "-"
    while found := connection.xrange(log, min=after, count=1000):
        sizes += (len(fields[b"e"]) for _, fields in found)
        after = b"(" + found[-1][0]
    return sizes


def stored_entries(connection: redis.Redis) -> tuple[int, int]:
    """The entries of every stored log, and the bytes of their canonical JSON."""
    entries = entry_bytes = 0
    for key in connection.scan_iter(match="tl:*:log", count=1000):
        sizes = entry_sizes(connection, key)
        entries, entry_bytes = entries + len(sizes), entry_bytes + sum(sizes)
    return entries, entry_bytes


def freed(connection: redis.Redis) -> list[str]:
    """What deleting every game's keys gives back, against its entries' JSON: the memory the
    stored games hold, without what Redis holds for itself, its scripts and its clients (a
    constant share of used_memory that a short run's growth counts in full). Last thing a run
    does: the games are gone after it."""
    entries, entry_bytes = stored_entries(connection)
    # Audit records are no part of a stored entry (they expire within the hour), and the
    # benchmark's flood of audits leaves hundreds of them.
    game_keys = [key for key in connection.scan_iter(match="tl:{*", count=1000)
                 if not key.startswith(b"tl:{sched}") and b":audit" not in key]
    before = used_memory(connection)
    for start in range(0, len(game_keys), 1000):
        connection.delete(*game_keys[start:start + 1000])
    gone = before - used_memory(connection)
    return [f"{entries} entries in all, {entry_bytes / entries:.0f} bytes of canonical JSON each",
            f"deleting the games frees {gone / entries:6.0f} bytes an entry"
            f"   {gone / entry_bytes:5.2f} x its JSON   (what a stored entry holds: its log,"
            " meta, projections, indexes)"]


def measure(connection: redis.Redis, baseline: int, played: int) -> Memory:
    """Every stored game's entries against the memory they took: since `baseline` (before any
    game was created), and `played` while moves were posted to games already created."""
    entries = entry_bytes = logs = created = created_bytes = 0
    for key in connection.scan_iter(match="tl:*:log", count=1000):
        # A game that ended meanwhile may have been compacted: its log is gone.
        logs += connection.memory_usage(key, samples=0) or 0
        sizes = entry_sizes(connection, key)
        if sizes:
            created, created_bytes = created + 1, created_bytes + sizes[0]
        entries, entry_bytes = entries + len(sizes), entry_bytes + sum(sizes)
    used = used_memory(connection) - baseline
    return Memory(entries, entry_bytes, used, logs, played, entries - created,
                  entry_bytes - created_bytes)
