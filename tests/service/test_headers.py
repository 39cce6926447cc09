"""The headers of every answer (service/headers.py): nosniff on all of them, no-store on those
that may hold what only their caller sees, and on the pages a policy allowing nothing but the
server's own files and no framing."""

import json

from service.headers import POLICY
from tests.api import create
from tests.service.test_move_lane import VIA_FLASK


def test_the_pages_allow_only_the_servers_own_scripts_and_no_framing(client):
    game = create(client)
    for url in ("/", f"/games/{game.id}", "/replay"):
        with client.get(url) as answer:
            headers = answer.headers
        assert headers["Content-Security-Policy"] == POLICY
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["X-Content-Type-Options"] == "nosniff"
    policy = dict(part.strip().split(" ", 1) for part in POLICY.split(";"))
    assert policy["default-src"] == "'self'" and policy["frame-ancestors"] == "'none'"
    assert "unsafe" not in POLICY  # no inline script or style, no eval


def test_every_answer_says_nosniff(client):
    with client.get("/static/js/viewer.js") as script:
        assert script.headers["X-Content-Type-Options"] == "nosniff"
    for url in ("/healthz", "/openapi.json", "/v1/games", "/v1/games/nope", "/nowhere"):
        assert client.get(url).headers["X-Content-Type-Options"] == "nosniff", url
    refused = client.post("/v1/replays/verify", data="[", content_type="application/json")
    assert refused.status_code == 400 and refused.headers["X-Content-Type-Options"] == "nosniff"


def test_what_a_token_is_answered_is_never_stored(client):
    created = client.post("/v1/games", json={"game": "coloretto", "players": ["a", "b", "c"]})
    assert created.headers["Cache-Control"] == "no-store"  # it holds the tokens
    game = create(client)
    for tail in ("/state", "/legal-moves", "/views", "/events", "/replay", "/score"):
        answer = client.get(game.url(tail), headers=game.seat(0))
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store", tail
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert "Cache-Control" not in client.get(game.url("/state")).headers  # a spectator's
    assert client.get(game.url("/state"), headers={"Authorization": "Bearer nope"}
                      ).headers["Cache-Control"] == "no-store"


def test_a_move_is_answered_no_store_on_the_express_lane_and_through_flask(client):
    game = create(client)
    assert game.move(0, {"type": "draw"}).status_code == 201  # learnt: the lane takes the next
    for content_type in ("application/json", VIA_FLASK):
        legal = client.get(game.url("/legal-moves"), headers=game.table).json["moves"][0]
        answer = client.post(game.url("/moves?wait=5"), content_type=content_type,
                             data=json.dumps(legal), headers=game.table)
        assert answer.status_code == 201, answer.json
        assert answer.headers.getlist("Cache-Control") == ["no-store"]
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
