"""What a judging worker does once as it starts: games stored before the index of creations
existed are entered in it, so that an import refuses a copy of any of them."""

import time

import redis

from store import Store, keys
from tests.conftest import start_workers, stop
from tests.store.conftest import new_game


def test_a_starting_worker_enters_games_stored_before_the_index(redis_url):
    url = redis_url.rsplit("/", 1)[0] + "/6"
    store = Store(redis.Redis.from_url(url))
    store.redis.flushdb()
    game_id = new_game(store, "stored-before")
    store.redis.delete(keys.BY_CREATION)  # as stored before the index existed
    created = store.log.entries(game_id, upto=1)[0]["hash"]
    workers = start_workers(url, 1)
    try:
        deadline = time.monotonic() + 10
        while not store.redis.exists(keys.BY_CREATION_FILLED) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert store.redis.hget(keys.BY_CREATION, created) == game_id.encode()
    finally:
        stop(workers)
        store.redis.flushdb()
