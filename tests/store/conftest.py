"""The store against a real Redis: a database of its own, which no worker process listens on."""

import re
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
import redis

from engine import log
from engine.game import Table
from engine.games import GAMES
from store import Store, keys
from store.batch import Batch
from store.locks import LOCK_MS
from store.log import Appended, Writing
from store.projections import Projection


@pytest.fixture
def store(redis_url, request):
    # Its connections carry the test's name, so that CLIENT LIST tells them (`once_blocked`).
    client = redis.Redis.from_url(redis_url.rsplit("/", 1)[0] + "/2",
                                  client_name="test:" + re.sub(r"\s", "_", request.node.name))
    client.flushdb()
    return Store(client)


def new_game(store: Store, game_id: str = "g", seed: str = "s") -> str:
    """A three-player Coloretto game written straight into the store."""
    game, players = GAMES["coloretto"], ["a", "b", "c"]
    created = {**log.created(game, players, {}, seed, []), "at": "2026-01-01T00:00:00.000Z"}
    state = game.deal(Table(len(players), {}, seed, ()))
    store.games.create(game_id, created, {"seed": seed, "decks": []}, {"t": "table"},
                       Projection.of(game, state, 0))
    return game_id


def submit(store: Store, game_id: str, seat: int = 0, move: dict | None = None):
    body = {"type": log.SUBMITTED, "seat": seat, "move": move or {"type": "draw"}}
    return append(store, game_id, [body], submission=True)


def append(store: Store, game_id: str, bodies: list[dict], **writing) -> Appended:
    """`bodies` chained onto the log as the service and the workers write (`LogStore.write`),
    with `writing`'s other fields (`Writing`)."""
    return store.log.write(Writing(game_id, tuple(bodies), **writing))


def wait_past(store: Store, game_id: str, after: int, timeout_ms: int) -> int:
    """Block until the log holds entries after `after` or the time is up; the last seq seen."""
    found = store.redis.xread({keys.game(game_id).log: f"{after}-0"}, block=timeout_ms)
    return int(found[0][1][-1][0].split(b"-")[0]) if found else after


@contextmanager
def once_blocked(store: Store, command: str, act: Callable[[], object]) -> Iterator[None]:
    """Run `act` in a thread once a connection of `store` is blocked in `command` (as CLIENT
    LIST shows it): the blocking call the block makes is then surely waiting, not about to.
    The thread is joined on the way out, and what it raised is raised."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            name = store.redis.connection_pool.connection_kwargs["client_name"]
            wait_until_blocked(store.redis, command, name=name)
            act()
        except BaseException as error:  # handed to the test's thread below
            failed.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield
    finally:
        thread.join(_BLOCKED_WITHIN_S + 10)
    assert not thread.is_alive(), f"{act} did not return"
    if failed:
        raise failed[0]


_BLOCKED_WITHIN_S = 10


def wait_until_blocked(client: redis.Redis, command: str, **fields: str) -> None:
    """Until a client of the server (one whose CLIENT LIST `fields` are those given) is blocked
    in `command`."""
    deadline = time.monotonic() + _BLOCKED_WITHIN_S
    while not any(c["cmd"] == command and "b" in c["flags"]
                  and all(c[k] == v for k, v in fields.items()) for c in client.client_list()):
        if time.monotonic() > deadline:
            raise AssertionError(f"no client blocked in {command} within {_BLOCKED_WITHIN_S} s")
        time.sleep(0.005)


def take_lock(store: Store, game_id: str) -> str | None:
    """The game's lock taken as another worker judging it holds it: its token, or None when
    it is held already."""
    token = f"test/{secrets.token_hex(4)}"
    taken = store.redis.set(keys.game(game_id).lock, token, nx=True, px=LOCK_MS)
    return token if taken else None


def release_lock(store: Store, game_id: str, token: str) -> None:
    """Release the game's lock as its holder does with its commit (a token not the holder's
    releases nothing)."""
    batch = Batch(store.redis)
    store.locks.queue_release(batch, game_id, token)
    batch.run()
