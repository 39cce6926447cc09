"""The hub: every request of a process waiting on a game's log is served by one reader.

The counts of Redis clients are read from the server itself (CLIENT LIST), so a wait that
held a connection of its own would show.
"""

from __future__ import annotations

import threading
import time

from store import Store, keys
from store.log import ACCEPTED
from tests.store.conftest import append

FOLLOWERS = 200


def _game(store: Store, game_id: str) -> None:
    store.redis.delete(keys.game(game_id).log, keys.game(game_id).meta)
    store.redis.hset(keys.game(game_id).meta, mapping={"version": 0, "hash": "0" * 64})


def _append(store: Store, game_id: str, count: int = 1) -> None:
    append(store, game_id, [{"type": "note", "n": i} for i in range(count)])


def _clients(store: Store) -> int:
    return len(store.redis.client_list())


def _waiting(store: Store, game_id: str, count: int, after: int = 0, timeout_s: float = 5):
    """`count` threads waiting on the game past `after`, and what each got."""
    got: list[list[dict]] = []
    threads = [threading.Thread(target=lambda: got.append(store.hub.wait(game_id, after,
                                                                          timeout_s)))
               for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads, got


def _until(condition, timeout_s: float = 5) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert condition()


def test_many_waiters_of_a_game_share_one_connection_and_all_get_the_entry(store):
    _game(store, "hub-many")
    before = _clients(store)
    threads, got = _waiting(store, "hub-many", FOLLOWERS)
    _until(lambda: store.hub.following().get("hub-many") == FOLLOWERS)
    # The reader's own connection, and the pool's for this test's reads and the unblock.
    assert _clients(store) - before <= 2
    _append(store, "hub-many")
    for thread in threads:
        thread.join(10)
    assert len(got) == FOLLOWERS
    assert all([e["seq"] for e in entries] == [1] for entries in got)


def test_a_wait_answers_at_once_with_what_landed_before_it(store):
    _game(store, "hub-early")
    _append(store, "hub-early", 3)
    started = time.monotonic()
    assert [e["seq"] for e in store.hub.wait("hub-early", 1, 5)] == [2, 3]
    assert time.monotonic() - started < 1


def test_a_wait_with_nothing_landing_ends_empty_at_its_timeout(store):
    _game(store, "hub-quiet")
    started = time.monotonic()
    assert store.hub.wait("hub-quiet", 0, 0.3) == []
    assert 0.3 <= time.monotonic() - started < 2
    assert "hub-quiet" not in store.hub.following()


def test_a_game_followed_while_the_reader_blocks_is_read_at_once(store):
    _game(store, "hub-first")
    _game(store, "hub-second")
    first, _ = _waiting(store, "hub-first", 1, timeout_s=3)
    _until(lambda: "hub-first" in store.hub.following())
    time.sleep(0.1)  # the reader now blocks on the first game alone
    second, got = _waiting(store, "hub-second", 1, timeout_s=3)
    _until(lambda: "hub-second" in store.hub.following())
    started = time.monotonic()
    _append(store, "hub-second")
    second[0].join(5)
    assert [e["seq"] for e in got[0]] == [1]
    assert time.monotonic() - started < 1
    first[0].join(5)


def test_a_waiter_behind_the_kept_entries_reads_them_from_the_log(store):
    _game(store, "hub-behind")
    threads, _ = _waiting(store, "hub-behind", 1)
    _until(lambda: "hub-behind" in store.hub.following())
    _append(store, "hub-behind", 300)
    threads[0].join(5)
    assert [e["seq"] for e in store.hub.wait("hub-behind", 0, 1)] == list(range(1, 301))


def test_a_waiter_ahead_of_the_reader_waits_for_what_it_has_not_seen(store):
    _game(store, "hub-ahead")
    _append(store, "hub-ahead", 2)
    behind, _ = _waiting(store, "hub-ahead", 1, after=2)
    _until(lambda: "hub-ahead" in store.hub.following())
    _append(store, "hub-ahead")  # seq 3, which the next waiter read by itself
    ahead, got = _waiting(store, "hub-ahead", 1, after=3, timeout_s=3)
    time.sleep(0.2)
    _append(store, "hub-ahead")
    ahead[0].join(5)
    assert [e["seq"] for e in got[0]] == [4]
    behind[0].join(5)


def test_the_reader_ends_and_its_connection_closes_once_nobody_waits(store):
    _game(store, "hub-gone")
    before = _clients(store)
    store.hub.wait("hub-gone", 0, 0.2)
    assert store.hub.following() == {}
    _append(store, "hub-gone")  # wakes the reader's XREAD, which then finds nothing to read
    _until(lambda: _clients(store) <= before + 1)


def test_a_verdict_wait_finds_the_verdict_among_the_entries(store):
    _game(store, "hub-verdict")
    threads, got = _waiting(store, "hub-verdict", 1)
    _until(lambda: "hub-verdict" in store.hub.following())
    _append(store, "hub-verdict")
    append(store, "hub-verdict", [{"type": ACCEPTED, "of": 1}])
    threads[0].join(5)
    assert got[0][0]["seq"] == 1
