"""Rate limits (fixed windows, counted on the game store's Redis): per token, per address
without one, new games and audits per address, and refused tokens per address, each set from a
TABLELOG_RATE_* variable; a refusal is a 429 problem with Retry-After. Across all addresses,
new audits are refused (503) while too many wait for an auditor.

Each test has an app of its own with the limits it sets (the suite's own are out of reach,
tests/conftest.py) on a Redis database of its own, so every count starts at zero. No worker
serves that database: the requests read, or leave moves pending.
"""

import socket

import pytest
import redis

from service import create_app, limits
from tests.api import bearer, create

BAD_TOKENS = 1000


@pytest.fixture
def limited(redis_url, monkeypatch):
    url = redis_url.rsplit("/", 1)[0] + "/6"
    redis.Redis.from_url(url).flushdb()

    def app_with(**rates: str):
        for name in limits.DEFAULTS:
            monkeypatch.delenv(f"TABLELOG_{name}", raising=False)
        for name, rate in rates.items():
            monkeypatch.setenv(f"TABLELOG_{name}", rate)
        return create_app({"TESTING": True, "REDIS_URL": url}).test_client()

    return app_with


def assert_rate_limited(answer, longest_wait_s):
    assert answer.status_code == 429
    assert answer.content_type == "application/problem+json"
    assert answer.json["code"] == "rate-limited"
    assert 1 <= int(answer.headers["Retry-After"]) <= longest_wait_s


def test_a_flood_of_bad_tokens_meets_429_and_then_so_does_a_good_token(limited):
    client = limited()  # the defaults: 30 refused tokens a minute from one address
    game = create(client)
    statuses = [
        client.get(game.url("/state"), headers=bearer(f"guess-{n}")).status_code
        for n in range(BAD_TOKENS)
    ]
    # The address's first refusal in this process is not counted (service/limits.py).
    first = statuses.index(429)
    assert statuses[:first] == [401] * first and first == 31
    assert set(statuses[first:]) == {429}
    # Once refused, a right guess would tell nothing: every token from that address waits.
    assert_rate_limited(client.get(game.url("/state"), headers=game.seat(0)), 60)
    assert client.get(game.url("/state")).status_code == 200  # a spectator needs no token


def test_a_token_has_a_limit_of_its_own(limited):
    client = limited(RATE_PER_TOKEN="5/minute")
    game = create(client)
    answers = [client.get(game.url("/state"), headers=game.seat(0)) for _ in range(6)]
    assert [a.status_code for a in answers] == [200] * 5 + [429]
    assert_rate_limited(answers[-1], 60)
    assert client.get(game.url("/state"), headers=game.seat(1)).status_code == 200
    assert client.get(game.url("/state")).status_code == 200


def test_an_address_without_a_token_has_a_limit(limited):
    client = limited(RATE_PER_ADDRESS="5/minute")
    game = create(client)  # the first of the five
    statuses = [client.get(game.url()).status_code for _ in range(6)]
    assert statuses == [200] * 4 + [429] * 2
    assert client.get(game.url(), headers=game.seat(0)).status_code == 200


def test_game_creation_has_a_limit_per_address(limited):
    client = limited(RATE_NEW_GAMES="3/minute")
    games = [create(client) for _ in range(3)]
    refused = client.post("/v1/games", json={"game": "hermit", "players": ["a", "b"]})
    assert_rate_limited(refused, 60)
    assert client.get(games[0].url()).status_code == 200


def test_audits_have_a_limit_per_address(limited):
    client = limited(RATE_AUDITS="2/minute")
    game = create(client)
    for claim in range(2):
        assert client.post(game.url("/audit"), json={"claimed": {"0": claim}}).status_code == 202
    assert_rate_limited(client.post(game.url("/audit"), json={"claimed": {"0": 9}}), 60)
    assert client.get(game.url("/audits/1")).status_code == 202  # read, not limited; no worker


def test_the_counts_live_on_the_service_redis(limited, redis_url):
    client = limited()
    create(client)
    counted = redis.Redis.from_url(redis_url.rsplit("/", 1)[0] + "/6").keys("LIMITS*")
    assert counted


def test_while_redis_is_away_the_limits_count_in_the_process(monkeypatch):
    for name in limits.DEFAULTS:
        monkeypatch.delenv(f"TABLELOG_{name}", raising=False)
    monkeypatch.setenv("TABLELOG_RATE_PER_ADDRESS", "3/minute")
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        away = f"redis://127.0.0.1:{closed.getsockname()[1]}/0"
    client = create_app({"TESTING": True, "REDIS_URL": away}).test_client()
    # The API's description needs no Redis: only its limit's count does.
    statuses = [client.get("/openapi.json").status_code for _ in range(4)]
    assert statuses == [200] * 3 + [429]
    assert 1 <= int(client.get("/openapi.json").headers["Retry-After"]) <= 60


def test_a_request_about_a_game_is_counted_with_its_context(limited, redis_url):
    client = limited(RATE_PER_ADDRESS="4/minute")
    game = create(client)  # the address's first request
    statuses = [client.get(game.url("/state")).status_code for _ in range(4)]
    assert statuses == [200] * 3 + [429]
    # Refused before anything else is looked at: a missing game is refused alike.
    assert_rate_limited(client.get("/v1/games/no-such-game/state"), 60)


def test_new_audits_are_refused_while_too_many_wait_for_an_auditor(redis_url):
    # No auditor serves this database: the audits queued stay queued.
    url = redis_url.rsplit("/", 1)[0] + "/7"
    redis.Redis.from_url(url).flushdb()
    client = create_app({"TESTING": True, "REDIS_URL": url, "AUDITS_WAITING": 2}).test_client()
    game = create(client)
    for claim in range(2):
        assert client.post(game.url("/audit"), json={"claimed": {"0": claim}}).status_code == 202
    refused = client.post(game.url("/audit"), json={"claimed": {"0": 9}})
    assert refused.status_code == 503
    assert refused.json["code"] == "audits-busy"
    assert refused.headers["Retry-After"] == "1"
    assert client.get(game.url("/audits/2")).status_code == 202  # those queued still stand
