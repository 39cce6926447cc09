"""`tablelog backup DIR` and `tablelog restore DIR`: the whole store copied as of one instant,
with the signing keys that make its receipts checkable, and brought back into an empty Redis.

Unlike the other commands these talk to the store itself, at REDIS_URL, as the workers do
(`store.backups`): a backup is the operator's, not a client's.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import time
from pathlib import Path
from typing import Any

import click
import redis

from cli.client import FAILED, USAGE, Failure
from cli.session import json_option
from cli.transfer import _progress
from store import backups

_KEYS = "keys"
REDIS_URL = click.option("--redis-url", envvar="REDIS_URL", default="redis://127.0.0.1:6379/0",
                          show_default=True, help="The store (or REDIS_URL).")


@click.command()
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@REDIS_URL
@click.option("--keys", "key_file", envvar="TABLELOG_SIGNING_KEY_FILE",
              type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="The server's signing key (or TABLELOG_SIGNING_KEY_FILE); its keys.json beside"
                   " it is copied too.")
@json_option
def backup(folder: Path, redis_url: str, key_file: Path | None, as_json: bool) -> None:
    """Copy the store as of one instant into FOLDER, with the signing keys and a manifest of
    every game's head."""
    if folder.exists() and any(folder.iterdir()):
        raise Failure(f"{folder} is not empty: a backup goes into a folder of its own", USAGE)
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)  # it holds the signing key
    started = time.monotonic()
    taken_at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    rdb = folder / backups.SNAPSHOT
    db = backups.db_of(redis_url)
    try:
        backups.snapshot(redis_url, rdb)
        with backups.opened(rdb, db) as copy:
            heads, key_count = backups.heads(copy), copy.dbsize()
    except backups.BackupFailed as failed:
        raise Failure(f"No backup: {failed}", FAILED) from None
    signing = _kept_keys(key_file, folder / _KEYS)
    manifest = {"format": backups.FORMAT, "taken_at": taken_at,
                "redis": backups.shown(redis_url), "db": db, "keys_stored": key_count,
                "snapshot": {"file": backups.SNAPSHOT, "sha256": backups.digest(rdb)},
                "signing_keys": signing, "games": heads}
    (folder / backups.MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    took = round(time.monotonic() - started, 3)
    said = (f"Backed up {len(heads)} games ({key_count} keys) to {folder} in {took} s"
            + ("." if signing else "; no signing key was given (--keys or"
               " TABLELOG_SIGNING_KEY_FILE): keep the server's key safe elsewhere, or no"
               " receipt it signed can be checked after a restore."))
    say(as_json, {**manifest, "games": len(heads), "seconds": took}, said)


@click.command()
@click.argument("folder", type=click.Path(file_okay=False, exists=True, path_type=Path))
@REDIS_URL
@click.option("--force", is_flag=True, help="Restore into a Redis that holds games already"
                                            " (keys of the same name are replaced).")
@click.option("--keys-to", type=click.Path(file_okay=False, path_type=Path),
              help="Put the backup's signing keys in this folder (then point"
                   " TABLELOG_SIGNING_KEY_FILE at its signing-key.pem).")
@json_option
def restore(folder: Path, redis_url: str, force: bool, keys_to: Path | None,
            as_json: bool) -> None:
    """Load the backup in FOLDER into the (empty) Redis at REDIS_URL, and check that every
    game's head the backup names is there."""
    manifest = _manifest(folder)
    rdb = folder / manifest["snapshot"]["file"]
    if backups.digest(rdb) != manifest["snapshot"]["sha256"]:
        raise Failure(f"{rdb} is not the snapshot the manifest names (its SHA-256 differs)",
                      FAILED)
    target = redis.Redis.from_url(redis_url)
    try:
        if backups.holds_games(target) and not force:
            raise Failure(f"the Redis at {backups.shown(redis_url)} holds games already: restore"
                          " into an empty one, or give --force", USAGE)
        started = time.monotonic()
        with (backups.opened(rdb, manifest["db"]) as source,
              _progress(f"restoring {folder}", manifest["keys_stored"]) as advance):
            copied = backups.copy(source, target, advance, replace=force)
        missing = _missing(manifest["games"], backups.heads(target))
    except backups.BackupFailed as failed:
        raise Failure(f"Not restored: {failed}", FAILED) from None
    finally:
        target.close()
    if keys_to is not None and manifest["signing_keys"]:
        _copied_keys(folder / _KEYS, keys_to)
    took = round(time.monotonic() - started, 3)
    tally = {"games": len(manifest["games"]), "keys": copied, "seconds": took,
             "missing": missing, "signing_keys": str(keys_to or folder / _KEYS)
             if manifest["signing_keys"] else None}
    said = (f"Restored {len(manifest['games'])} games ({copied} keys) from {folder} in {took} s;"
            + (f" {len(missing)} games not as the backup holds them: {', '.join(missing)}."
               if missing else " every game's head is the backup's."))
    say(as_json, tally, said)
    if missing:
        click.get_current_context().exit(FAILED)


def _kept_keys(key_file: Path | None, kept: Path) -> list[str]:
    """The signing key and its published keys copied beside the snapshot, readable by the
    owner alone; the files kept."""
    if key_file is None:
        return []
    kept.mkdir(mode=0o700)
    names = []
    for path in (key_file, key_file.parent / "keys.json"):
        if path.exists():
            shutil.copyfile(path, kept / path.name)
            os.chmod(kept / path.name, stat.S_IRUSR | stat.S_IWUSR)
            names.append(f"{_KEYS}/{path.name}")
    return names


def _copied_keys(kept: Path, to: Path) -> None:
    to.mkdir(parents=True, exist_ok=True, mode=0o700)
    for path in kept.iterdir():
        shutil.copyfile(path, to / path.name)
        os.chmod(to / path.name, stat.S_IRUSR | stat.S_IWUSR)


def _manifest(folder: Path) -> dict[str, Any]:
    try:
        manifest = json.loads((folder / backups.MANIFEST).read_text())
    except (OSError, ValueError) as bad:
        raise Failure(f"{folder} holds no backup's manifest: {bad}", USAGE) from None
    if manifest.get("format") != backups.FORMAT:
        raise Failure(f"{folder}'s manifest is not a {backups.FORMAT}", USAGE)
    return manifest


def _missing(wanted: dict[str, dict[str, Any]], found: dict[str, dict[str, Any]]) -> list[str]:
    """The games whose head is not the backup's."""
    return sorted(i for i, head in wanted.items() if found.get(i) != head)


def say(as_json: bool, tally: dict[str, Any], sentence: str) -> None:
    click.echo(json.dumps(tally) if as_json else sentence)
