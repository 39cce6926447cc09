"""A move to a game this web process took moves for is posted in one round trip: its game and
the caller's role are remembered, and the append refuses what the context read would have
(service/auth.py). Each test posts through an app of its own, so what it remembers is
the test's alone; a second app stands for another web process."""

from dataclasses import replace

import pytest
import redis

from engine import log
from service import create_app, limits
from store import keys
from store.games import token_digest
from tests.api import create


@pytest.fixture
def fresh_app(redis_url, workers, monkeypatch):
    """An app with the rates given (the others out of reach), on the suite's Redis."""

    def app_with(**rates: str):
        for name, rate in {**limits.out_of_reach(), **rates}.items():
            monkeypatch.setenv(name if name.startswith("TABLELOG_") else f"TABLELOG_{name}",
                               rate)
        return create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client()

    return app_with


def _entries(client, game):
    return client.get(game.url("/events"), headers=game.table).json["events"]


def test_a_known_game_s_move_reads_neither_its_game_nor_the_token_again(fresh_app, redis_url):
    client = fresh_app()
    game = create(client)
    assert game.move(0, {"type": "draw"}).status_code == 201  # learnt here
    # Were the token's role read again, the move would now be refused (401).
    redis.Redis.from_url(redis_url).hdel(keys.game(game.id).auth,
                                         token_digest(game.tokens[0]))
    answer = game.move(0, {"type": "place", "row": 0})
    assert answer.status_code == 201, answer.json
    assert answer.json["seq"] == 4
    other = replace(game, http=fresh_app())  # another process looks the token up, and refuses
    assert other.move(0, {"type": "draw"}).status_code == 401


def _by_table(game, seat, move):
    return game.http.post(game.url("/moves?wait=5"), json={"seat": seat, "move": move},
                          headers=game.table)


def test_a_move_onto_a_log_another_process_moved_is_chained_onto_its_head(fresh_app):
    here, there = fresh_app(), fresh_app()
    game = create(here)
    assert _by_table(game, 0, {"type": "draw"}).status_code == 201  # learnt here
    assert _by_table(replace(game, http=there), 0, {"type": "place", "row": 0}).status_code == 201
    answer = _by_table(game, 1, {"type": "draw"})  # the head remembered is two entries behind
    assert (answer.status_code, answer.json["seq"]) == (201, 6)
    entries = _entries(here, game)
    assert [e["seq"] for e in entries] == list(range(1, 8))
    assert log.broken_links(entries) == []
    assert _by_table(game, 1, {"type": "place", "row": 1}).status_code == 201
    assert log.broken_links(_entries(here, game)) == []


def test_a_move_after_one_not_waited_for_is_chained_and_judged(fresh_app):
    client = fresh_app()
    game = create(client)
    assert game.move(0, {"type": "draw"}).status_code == 201
    assert game.move(0, {"type": "place", "row": 0}, wait=0).status_code == 202
    answer = game.move(1, {"type": "draw"}, wait=5)
    assert answer.status_code == 201
    entries = _entries(client, game)
    # After the place's verdict (6), or before it (5) should the worker not have judged it yet.
    submitted = [e["seq"] for e in entries if e["type"] == log.SUBMITTED]
    assert submitted[-1] == answer.json["seq"] in (5, 6) and len(submitted) == 3
    assert log.broken_links(entries) == []


def test_a_known_game_that_is_over_refuses_a_move_at_once_and_is_forgotten(
        fresh_app, redis_url):
    client = fresh_app()
    game = create(client)
    assert game.move(0, {"type": "draw"}).status_code == 201
    # As a worker writes it once the game ends (a game played to its end: tests/service).
    redis.Redis.from_url(redis_url).hset(keys.game(game.id).proj, "status", "finished")
    for _ in range(2):  # remembered, then looked up again
        answer = game.move(0, {"type": "place", "row": 0}, wait=5)
        assert answer.status_code == 409 and answer.json["code"] == "game-finished"
    assert len(_entries(client, game)) == 3


def test_a_token_s_limit_counts_the_moves_to_a_known_game(fresh_app, redis_url):
    client = fresh_app(RATE_PER_TOKEN="4/minute")
    game = create(client)
    assert game.move(0, {"type": "draw"}).status_code == 201  # 1: with the context
    assert game.move(0, {"type": "place", "row": 0}).status_code == 201  # 2: in the append
    assert game.move(0, {"type": "nonsense"}).status_code == 400  # 3: refused before it
    not_its_seat = {"move": {"type": "draw"}, "seat": 1}
    assert client.post(game.url("/moves"), json=not_its_seat,
                       headers=game.seat(0)).status_code == 403  # 4: as well
    # Another seat's token, whose count is its own.
    assert game.move(1, {"type": "draw"}).status_code == 201
    limited = game.move(0, {"type": "draw"})
    assert limited.status_code == 429 and limited.json["code"] == "rate-limited"
    assert 1 <= int(limited.headers["Retry-After"]) <= 60
    assert len(_entries(client, game)) == 7  # the refused move is not in the log
    tagged = f"{{p{keys.partition(game.id)}}}/{game.id}/"
    counted = redis.Redis.from_url(redis_url).keys(f"LIMITS:*{tagged}*")
    assert len(counted) == 3  # one a token (two seats' and the table's), under the game's tag
