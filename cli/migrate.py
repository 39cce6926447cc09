"""`tablelog migrate`: the stored games moved into this code's key layout (`store.layout`).

Like backup and restore it talks to the store itself, at REDIS_URL (or the Redis Cluster at
REDIS_CLUSTER_URL), with every web and worker process stopped: they refuse to start on a store
in another layout. It can be stopped at any point and run again; `--at-most` moves a slice.
"""

from __future__ import annotations

import time

import click
import redis

from cli.backups import REDIS_URL, say
from cli.client import USAGE, Failure
from cli.session import json_option
from cli.transfer import _progress
from store import keys, layout
from store.connection import store_client


@click.command()
@REDIS_URL
@click.option("--cluster-url", envvar="REDIS_CLUSTER_URL", default=None,
              help="Any node of the Redis Cluster holding the games (or REDIS_CLUSTER_URL).")
@click.option("--at-most", type=click.IntRange(min=1), default=None,
              help="Move at most this many keys, then stop (run again to go on).")
@json_option
def migrate(redis_url: str, cluster_url: str | None, at_most: int | None,
            as_json: bool) -> None:
    """Move the stored games into this version's key layout; resumable."""
    client = store_client(redis_url, cluster_url)
    try:
        found = layout.stale(client)
        if found is None:
            say(as_json, {"layout": keys.PARTITIONED, "moved": 0, "done": True},
                f"The store is in the layout {keys.PARTITIONED} already: nothing to move.")
            return
        started = time.monotonic()
        with _progress(f"moving {found} to {keys.PARTITIONED}", client.dbsize()) as advance:
            moved = layout.move(client, advance, at_most)
    except redis.RedisError as failed:
        raise Failure(f"Not moved: {failed}. Run the same command again to go on.",
                      USAGE) from None
    took = round(time.monotonic() - started, 3)
    tally = {"layout": keys.PARTITIONED, "from": found, "moved": moved.keys,
             "looked_at": moved.looked_at, "done": moved.done, "seconds": took}
    said = (f"Moved {moved.keys} keys of {moved.looked_at} from {found} to {keys.PARTITIONED}"
            f" in {took} s; ")
    say(as_json, tally, said + ("the store is in this layout now." if moved.done else
                                "some are left: run the same command again to go on."))
