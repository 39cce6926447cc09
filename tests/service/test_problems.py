"""Every error path answers RFC 9457 problem+json with a stable kebab-case code."""

import re

import pytest

from tests.api import bearer, create


@pytest.fixture
def game(client):
    return create(client)


def requests(game):
    seat0, table = game.seat(0), game.table
    return [
        ("post", "/v1/games", {"game": "coloretto", "players": ["a"]}, {}, 400),
        ("get", "/v1/games/nope", None, {}, 404),
        ("get", "/v1/games?limit=0", None, {}, 400),
        ("get", "/v1/games?cursor=%3E%C3%9C", None, {}, 400),
        ("post", "/v1/games", {"game": "hermit", "players": ["a", "b"], "decks": [True]}, {},
         400),
        ("get", game.url("/state?at=x"), None, {}, 400),
        ("get", game.url("/state"), None, bearer("nope"), 401),
        ("get", game.url("/moves/1"), None, {}, 404),
        ("get", game.url("/audits/5"), None, {}, 404),
        ("post", game.url("/moves"), {"move": {"type": "draw"}}, {}, 401),
        ("post", game.url("/moves"), {"move": {"type": "draw"}, "seat": 2}, seat0, 403),
        ("post", game.url("/moves"), {"move": {"type": "jump"}}, seat0, 400),
        ("post", game.url("/moves"), {"move": {"type": {"draw": 1}}}, seat0, 400),
        ("post", game.url("/moves"), {"move": {"type": "draw"}}, table, 400),
        ("post", game.url("/moves?wait=99"), {"move": {"type": "draw"}}, seat0, 400),
        ("post", game.url("/moves"), {"move": {"type": "draw"}, "expected_version": 9}, seat0,
         409),
        ("post", game.url("/moves?wait=5"), {"move": {"type": "take", "row": 0}}, seat0, 422),
        ("post", game.url("/audit"), {"claimed": {"9": 1}}, {}, 400),
        ("post", "/v1/replays/verify", {"format": "tablelog-replay/1"}, {}, 400),
        ("get", "/v1/boards/coloretto", None, {}, 404),
        ("get", "/v1/nothing-here", None, {}, 404),
        ("delete", "/v1/games", None, {}, 405),
        ("put", "/healthz", None, {}, 405),
    ]


def test_every_error_is_problem_json_with_a_code(client, game):
    for method, url, body, headers, status in requests(game):
        answer = getattr(client, method)(url, json=body, headers=headers)
        assert answer.status_code == status, (method, url, answer.json)
        assert answer.content_type == "application/problem+json", url
        problem = answer.json
        assert problem["status"] == status
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", problem["code"]), problem
        assert problem["type"].endswith(problem["code"])
        assert problem["title"] and problem["detail"]


def test_a_refused_method_names_the_allowed_ones(client):
    answer = client.delete("/v1/games")
    assert answer.status_code == 405
    assert {"GET", "POST"} <= {m.strip() for m in answer.headers["Allow"].split(",")}
