"""What a request may be: bodies within their route's size, JSON where JSON is read, and lists
within the limits schemas/api.py names (checked before their items, and shown in /openapi.json).
"""

import pytest

from schemas import api
from tests.api import create

NEW_GAME = {"game": "hermit", "players": ["ann", "bob"]}


def test_a_body_over_the_limit_is_a_413_problem(client):
    answer = client.post("/v1/games", data=b" " * (api.LARGEST_BODY + 1),
                         content_type="application/json")
    assert answer.status_code == 413
    assert answer.content_type == "application/problem+json"
    assert answer.json["code"] == "body-too-large"


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded"])
def test_a_body_that_is_not_json_is_a_415_problem(client, content_type):
    answer = client.post("/v1/games", data=b'{"game": "hermit", "players": ["a", "b"]}',
                         content_type=content_type)
    assert answer.status_code == 415
    assert answer.content_type == "application/problem+json"
    assert answer.json["code"] == "unsupported-media-type"
    assert "application/json" in answer.json["detail"]


def test_json_by_any_json_media_type_and_no_body_at_all_are_read(client):
    game = create(client)
    typed = client.post("/v1/games", data=b'{"game": "hermit", "players": ["a", "b"]}',
                        content_type="application/json; charset=utf-8")
    assert typed.status_code == 201
    bare = client.post(game.url("/audit?wait=5"))
    assert bare.status_code in (200, 202)


@pytest.mark.parametrize(("field", "value"), [
    ("players", [f"p{n}" for n in range(api.MOST_PLAYERS + 1)]),
    ("players", ["x" * (api.LONGEST_NAME + 1), "bob"]),
    ("deck", ["card"] * 100_000),
    ("decks", [["card"]] * (api.MOST_DECKS + 1)),
    ("decks", [["card"] * (api.LARGEST_DECK + 1)]),
    ("deck", ["c" * (api.LONGEST_CARD + 1)]),
])
def test_lists_and_names_over_their_limits_are_refused(client, field, value):
    answer = client.post("/v1/games", json={**NEW_GAME, field: value})
    assert answer.status_code == 400
    assert field in answer.json["errors"]


def test_an_oversized_list_is_refused_before_its_items_are_read(client):
    """100,000 items that are not even strings: one message about the length, none per item."""
    answer = client.post("/v1/games", json={**NEW_GAME, "deck": [None] * 100_000})
    assert answer.json["errors"]["deck"] == [f"Longer than maximum length {api.LARGEST_DECK}."]


def test_the_limits_are_in_the_openapi_document(client):
    spec = client.get("/openapi.json").json
    create_game = spec["paths"]["/v1/games"]["post"]
    assert str(api.LARGEST_BODY) in create_game["responses"]["413"]["description"]
    assert "415" in create_game["responses"]
    for path in ("/v1/replays/verify", "/v1/replays/views"):
        upload = spec["paths"][path]["post"]
        assert str(api.LARGEST_UPLOAD) in upload["responses"]["413"]["description"]
        assert "uploads-busy" in upload["responses"]["429"]["description"]
    imported = spec["paths"]["/v1/games/{game_id}/replay"]["put"]
    assert str(api.LARGEST_REPLAY) in imported["responses"]["413"]["description"]
    body = spec["components"]["schemas"]["CreateGame"]["properties"]
    assert body["players"]["maxItems"] == api.MOST_PLAYERS
    assert body["decks"]["maxItems"] == api.MOST_DECKS
    assert body["decks"]["items"]["maxItems"] == api.LARGEST_DECK
