"""A consistent copy of the store, and its restore into an empty Redis (`tablelog backup`,
`tablelog restore`).

A backup is Redis's own snapshot: `redis-cli --rdb` has the server fork and write every key as
of one instant, over the connection, so it needs no access to the server's disk and holds no
half-written game (an append is one script). A redis-server of the backup's own, on a loopback
port, then reads the snapshot back, and the manifest is read from it: every game's head (its
last seq and hash) at that instant, so that a restore can show it brought back what the backup
holds. A restore starts the same server on the snapshot and copies every key, with its time to
live, into the target (DUMP and RESTORE, in batches).
"""

from __future__ import annotations

import contextlib
import hashlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis

from store import keys

FORMAT = "tablelog-backup/1"
SNAPSHOT = "dump.rdb"
MANIFEST = "manifest.json"
_BATCH = 500
_UP_S = 30


class BackupFailed(RuntimeError):
    """A backup or restore that could not be made, and why."""


def snapshot(url: str, path: Path) -> None:
    """Redis's snapshot of every key as of one instant, written to `path`."""
    if shutil.which("redis-cli") is None:
        raise BackupFailed("redis-cli is not installed: it takes Redis's snapshot")
    done = subprocess.run(["redis-cli", "-u", url, "--rdb", str(path)], capture_output=True,
                          text=True, timeout=3600)
    if done.returncode != 0 or not path.exists() or path.stat().st_size == 0:
        raise BackupFailed(f"Redis did not give its snapshot: {done.stderr.strip()}")


@contextlib.contextmanager
def opened(path: Path, db: int) -> Iterator[redis.Redis]:
    """A redis-server of its own, on a loopback port, holding the snapshot at `path`, stopped
    after (it writes nothing to disk)."""
    if shutil.which("redis-server") is None:
        raise BackupFailed("redis-server is not installed: it reads the snapshot back")
    with tempfile.TemporaryDirectory(prefix="tablelog-backup-") as folder:
        shutil.copyfile(path, Path(folder, SNAPSHOT))
        port = _free_port()
        server = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", folder,
             "--dbfilename", SNAPSHOT, "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(port=port, db=db)
        try:
            _wait_loaded(client, server)
            yield client
        finally:
            client.close()
            server.terminate()
            server.wait(30)


def heads(client: redis.Redis) -> dict[str, dict[str, Any]]:
    """Every game's title and head (its last seq and that entry's hash), by id: in this key
    layout, or in the one before games had partitions (a backup taken before `tablelog
    migrate`)."""
    ids = [i.decode() for i in client.zrange(keys.GAMES, 0, -1)]
    pipe = client.pipeline(transaction=False)
    for game_id in ids:
        for spelled in (keys.game(game_id), keys.unpartitioned(game_id)):
            pipe.hmget(spelled.meta, "game", "version", "hash")
    read = pipe.execute()
    found = {}
    for game_id, now, before in zip(ids, read[::2], read[1::2], strict=True):
        title, version, last = now if now[1] is not None else before
        if version is not None:
            found[game_id] = {"game": title.decode(), "version": int(version),
                              "hash": last.decode()}
    return found


def holds_games(client: redis.Redis) -> bool:
    return bool(client.exists(keys.GAMES))


def copy(source: redis.Redis, target: redis.Redis, advance: Callable[[int], None],
         replace: bool = False) -> int:
    """Every key of `source` written to `target` as it is, with its time to live; how many."""
    copied = 0
    batch: list[bytes] = []
    for name in source.scan_iter(count=_BATCH):
        batch.append(name)
        if len(batch) == _BATCH:
            copied += _copied(source, target, batch, replace)
            advance(len(batch))
            batch = []
    if batch:
        copied += _copied(source, target, batch, replace)
        advance(len(batch))
    return copied


def _copied(source: redis.Redis, target: redis.Redis, names: list[bytes], replace: bool) -> int:
    read = source.pipeline(transaction=False)
    for name in names:
        read.dump(name)
        read.pttl(name)
    found = read.execute()
    write = target.pipeline(transaction=False)
    written = 0
    for name, dumped, ttl in zip(names, found[::2], found[1::2], strict=True):
        if dumped is None or ttl == -2:  # lapsed meanwhile
            continue
        write.restore(name, max(ttl, 0), dumped, replace=replace)
        written += 1
    write.execute()
    return written


def digest(path: Path) -> str:
    sha = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def shown(url: str) -> str:
    """A Redis URL without its password, to be written down."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def db_of(url: str) -> int:
    path = urlsplit(url).path.strip("/")
    return int(path) if path.isdigit() else 0


def _wait_loaded(client: redis.Redis, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + _UP_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise BackupFailed("redis-server could not read the snapshot")
        try:
            if client.info("persistence").get("loading") == 0:
                return
        except redis.exceptions.BusyLoadingError:
            pass
        except redis.ConnectionError:
            pass
        time.sleep(0.02)
    raise BackupFailed(f"redis-server did not read the snapshot within {_UP_S} s")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
