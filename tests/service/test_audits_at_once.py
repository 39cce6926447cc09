"""Audits asked for at once, over real HTTP: each gets a number of its own, the numbers follow
one another, none is a 500, and the cap on audits waiting for an auditor is exact.

The app is served in a thread of the test process (one thread a request) on a Redis database
of its own, which no auditor serves: the audits queued stay queued, so what waits is what was
let in. Every request is posted by a thread of the test, all released at once by a barrier;
each has a 30 s timeout.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from service import create_app
from tests.api import create
from tests.conftest import served
from tests.e2e.served import Http
from workers.queue import audit_queue

AT_ONCE = 40


@pytest.fixture
def serving(redis_url):
    url = redis_url.rsplit("/", 1)[0] + "/10"
    connection = redis.Redis.from_url(url)
    connection.flushdb()

    def app_with(most_waiting: int):
        app = create_app({"TESTING": True, "REDIS_URL": url, "AUDITS_WAITING": most_waiting})
        return served(app)

    yield app_with, connection
    connection.close()


def asked_at_once(http: Http, path: str, claims: list[dict]) -> list:
    """Every claim's audit asked for by a thread of its own, all at the same moment."""
    start = threading.Barrier(len(claims))

    def ask(claim):
        start.wait(30)
        return http.post(path, json={"claimed": claim})

    with ThreadPoolExecutor(len(claims)) as pool:
        return list(pool.map(ask, claims))


def number_of(answer) -> int:
    return int(answer.headers["Location"].rsplit("/", 1)[1])


def test_audits_asked_at_once_are_numbered_one_after_another(serving):
    app_with, connection = serving
    with app_with(most_waiting=1000) as base:
        http = Http(base)
        game = create(http)
        # Distinct claims, and ten asking for the same one: that one is a single audit.
        claims = [{"0": n} for n in range(AT_ONCE)] + [{"1": 7}] * 10
        answers = asked_at_once(http, game.url("/audit"), claims)
    assert sorted({a.status_code for a in answers}) == [202]
    numbers = [number_of(a) for a in answers]
    assert sorted(set(numbers)) == list(range(1, AT_ONCE + 2))
    assert len(set(numbers[AT_ONCE:])) == 1
    assert len(audit_queue(connection)) == AT_ONCE + 1


def test_the_cap_on_audits_waiting_is_never_passed_by_audits_asked_at_once(serving):
    app_with, connection = serving
    most = 12
    with app_with(most_waiting=most) as base:
        http = Http(base)
        game = create(http)
        answers = asked_at_once(http, game.url("/audit"), [{"0": n} for n in range(AT_ONCE)])
        statuses = [a.status_code for a in answers]
        assert sorted(statuses) == [202] * most + [503] * (AT_ONCE - most)
        assert {a.json["code"] for a in answers if a.status_code == 503} == {"audits-busy"}
        assert sorted(number_of(a) for a in answers if a.status_code == 202) == \
            list(range(1, most + 1))
        assert len(audit_queue(connection)) == most
        # Once an auditor takes one, there is room for one more, and only one.
        audit_queue(connection).pop_job_id()
        again = asked_at_once(http, game.url("/audit"), [{"1": n} for n in range(5)])
        assert sorted(a.status_code for a in again) == [202] + [503] * 4
