"""`GET /metrics` is the operator's: answered to this machine, elsewhere only with the metrics
token; and every request's id is answered back (`service.traced`)."""

from __future__ import annotations

import pytest
from prometheus_client.parser import text_string_to_metric_families

from service import create_app
from telemetry.metrics import SCRAPED

_ELSEWHERE = {"REMOTE_ADDR": "192.0.2.7"}


@pytest.fixture(scope="module")
def guarded(redis_url):
    """An app whose metrics token is set."""
    return create_app({"TESTING": True, "REDIS_URL": redis_url, "METRICS_TOKEN": "s3cret"})


@pytest.mark.parametrize("address", ["127.0.0.1", "127.8.9.1", "::1", "::ffff:127.0.0.1"])
def test_this_machine_scrapes_with_no_token(client, address):
    answer = client.get("/metrics", environ_base={"REMOTE_ADDR": address})
    assert answer.status_code == 200
    assert answer.content_type.startswith("text/plain")
    names = {family.name for family in text_string_to_metric_families(answer.text)}
    assert set(SCRAPED) <= names


def test_a_scrape_from_elsewhere_is_refused_when_no_token_is_set(client):
    answer = client.get("/metrics", environ_base=_ELSEWHERE,
                        headers={"Authorization": "Bearer anything"})
    assert answer.status_code == 403
    assert answer.content_type == "application/problem+json"
    assert answer.json["code"] == "metrics-forbidden"


@pytest.mark.parametrize("authorization", [None, "Bearer wrong", "s3cret", "Bearer s3cret "])
def test_a_scrape_from_elsewhere_without_the_token_is_refused(guarded, authorization):
    headers = {"Authorization": authorization} if authorization else {}
    answer = guarded.test_client().get("/metrics", environ_base=_ELSEWHERE, headers=headers)
    assert answer.status_code == 403
    assert answer.json["code"] == "metrics-forbidden"


def test_a_scrape_from_elsewhere_with_the_token_is_answered(guarded):
    answer = guarded.test_client().get("/metrics", environ_base=_ELSEWHERE,
                                       headers={"Authorization": "Bearer s3cret"})
    assert answer.status_code == 200
    assert "tablelog_store_up 1.0" in answer.text


def test_a_request_id_sent_is_answered_back(client):
    answer = client.get("/healthz", headers={"X-Request-Id": "club-night.42:a_b"})
    assert answer.headers["X-Request-Id"] == "club-night.42:a_b"


@pytest.mark.parametrize("sent", [None, "", "x" * 65, "two words", "caf\u00e9"])
def test_a_request_with_no_plain_id_is_given_one(client, sent):
    headers = {} if sent is None else {"X-Request-Id": sent}
    first, second = (client.get("/healthz", headers=headers).headers["X-Request-Id"]
                     for _ in range(2))
    assert first != second and first != sent and 0 < len(first) <= 64
