"""Every answer of the API fits what /openapi.json promises for its route and status.

Clients are generated from that document, so an answer with a field it does not declare, or
an error body that is not a Problem, breaks them: each request below is checked against it.
"""

import random
import re
from urllib.parse import unquote

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from engine.games import GAMES
from schemas import api
from tests.api import create


class Checked:
    """A test client whose every JSON answer is validated against the OpenAPI document."""

    def __init__(self, client):
        self.client = client
        self.spec = client.get("/openapi.json").json
        self.routes = [
            (re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), operations)
            for path, operations in self.spec["paths"].items()
        ]
        self.checked = 0

    def get(self, url, **kw):
        return self._check("get", url, self.client.get(url, **kw))

    def post(self, url, **kw):
        return self._check("post", url, self.client.post(url, **kw))

    def _check(self, method, url, answer):
        operation = self._operation(method, url.split("?")[0])
        declared = operation["responses"]
        response = self._resolved(declared.get(str(answer.status_code), declared["default"]))
        content = response.get("content", {}).get(answer.content_type)
        if content is not None:
            schema = {**content["schema"], "components": self.spec["components"]}
            Draft202012Validator(schema).validate(answer.json)
            self.checked += 1
        return answer

    def _resolved(self, response):
        """A response, or the component its `$ref` names (#/components/responses/...)."""
        if "$ref" not in response:
            return response
        return self.spec["components"]["responses"][response["$ref"].rsplit("/", 1)[1]]

    def _operation(self, method, path):
        for pattern, operations in self.routes:
            if pattern.match(path) and method in operations:
                return operations[method]
        raise AssertionError(f"{method.upper()} {path} is not in /openapi.json")


@pytest.fixture
def checked(client):
    return Checked(client)


def test_every_answer_of_a_whole_game_fits_the_openapi_document(checked):
    game = create(checked, players=("ann", "bob", "cid"), seed="openapi", options={"deals": 1})
    first = game.move(0, {"type": "take", "row": 0})
    assert first.status_code == 422
    game.play_to_end(random.Random(7))
    for url in ["/v1/games", "/v1/games?game=coloretto&limit=1", "/healthz",
                "/v1/boards/keltis-nwnz", "/v1/boards/coloretto", "/v1/games/nope"]:
        checked.get(url)
    for tail in ["", "/state", "/state?at=3", "/legal-moves", "/moves/2", "/events",
                 "/score", "/score?at=5", "/views", "/views?from=5&to=20&score=1",
                 "/views?from=9&to=3"]:
        checked.get(game.url(tail), headers=game.seat(1))
    checked.post(game.url("/audit"), json={"claimed": {"0": 41}})
    audit = checked.post(game.url("/audit?wait=10"), json={"claimed": {"0": 41}})
    assert audit.status_code == 200 and audit.json["ok"]
    checked.get(game.url("/audits/1?wait=10"))
    replay = checked.get(game.url("/replay")).json
    assert checked.post("/v1/replays/verify", json=replay).json["ok"]
    assert checked.post("/v1/replays/views?to=30&score=1", json=replay).json["steps"]
    tampered = {**replay, "entries": replay["entries"][1:]}
    assert not checked.post("/v1/replays/verify", json=tampered).json["ok"]
    assert checked.checked > 30


def test_every_refusal_fits_the_openapi_document(checked):
    game = create(checked)
    replay = checked.get(game.url("/replay")).json
    before = checked.checked
    refusals = [
        checked.get("/v1/games?cursor=not-one"),
        checked.post("/v1/games", json={"game": "hermit", "players": ["a", "b"], "decks": [1]}),
        checked.get(game.url("/state?at=x")),
        checked.get(game.url("/events?follow=1"), headers={"Accept": "application/json"}),
        checked.post("/v1/replays/views", json=replay),
        checked.get(game.url("/state"), headers={"Authorization": "Bearer forged"}),
        checked.post(game.url("/moves"), json={"move": {"type": "jump"}}, headers=game.seat(0)),
        checked.post(game.url("/audit"), json={"claimed": {"x": 1}}),
    ]
    for answer in refusals:
        assert answer.status_code >= 400
        assert answer.content_type == "application/problem+json"
    assert checked.checked - before == len(refusals)


def test_the_document_is_valid_openapi_3_1(client):
    validate(client.get("/openapi.json").json)


def test_every_api_route_is_in_the_document(app, client):
    """A route on an API blueprint documents itself; one that is not there is a page."""
    paths = client.get("/openapi.json").json["paths"]
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/v1/"):
            continue
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        assert path in paths, rule.rule
        assert {m.lower() for m in rule.methods - {"HEAD", "OPTIONS"}} <= set(paths[path])


def test_the_limits_shown_are_the_limits_enforced(client):
    spec = client.get("/openapi.json").json
    wait = _parameter(spec, "/v1/games/{game_id}/moves", "post", "wait")
    assert wait["schema"]["maximum"] == api.LONGEST_WAIT_S
    assert f"at most {api.LONGEST_WAIT_S}" in wait["description"]
    page = _parameter(spec, "/v1/games", "get", "limit")["schema"]
    assert (page["default"], page["maximum"]) == (api.GAMES_PAGE, api.LARGEST_GAMES_PAGE)
    too_many = client.get(f"/v1/games?limit={api.LARGEST_GAMES_PAGE + 1}")
    assert too_many.status_code == 400 and "limit" in too_many.json["errors"]
    game = create(client)
    too_long = client.post(game.url(f"/moves?wait={api.LONGEST_WAIT_S + 1}"),
                           json={"move": {"type": "draw"}}, headers=game.seat(0))
    assert too_long.status_code == 400 and "wait" in too_long.json["errors"]


def _parameter(spec, path, method, name):
    return next(p for p in spec["paths"][path][method]["parameters"] if p["name"] == name)


def test_every_route_about_a_game_documents_its_refusals(client):
    spec = client.get("/openapi.json").json
    # Those a game's token is for: importing one (the operator's) is about no stored game.
    about_games = [op for path, ops in spec["paths"].items()
                   if path.startswith("/v1/games/{game_id}")
                   for method, op in ops.items()
                   if method != "parameters" and {"token": []} in op.get("security", [])]
    assert len(about_games) > 10
    for operation in about_games:
        assert {"401", "404", "422"} <= set(operation["responses"]), operation["summary"]
    refusals = spec["components"]["responses"]
    assert "`unknown-rules-version`" in refusals["UNPROCESSABLE_ENTITY"]["description"]
    assert "`game-not-found`" in refusals["NOT_FOUND"]["description"]


def test_each_title_s_player_counts_are_documented(client):
    create_game = client.get("/openapi.json").json["components"]["schemas"]["CreateGame"]
    counts = {v["properties"]["game"]["const"]: v["properties"]["players"]
              for v in create_game["oneOf"]}
    assert set(counts) == set(GAMES)
    for name, game in GAMES.items():
        assert (counts[name]["minItems"], counts[name]["maxItems"]) == (
            min(game.seat_counts), max(game.seat_counts))
    too_few = min(GAMES["coloretto"].seat_counts) - 1
    refused = client.post("/v1/games", json={"game": "coloretto", "players": ["a"] * too_few})
    assert refused.json["code"] == "bad-player-count"


def test_a_created_game_links_to_its_operations(client):
    spec = client.get("/openapi.json").json
    links = spec["paths"]["/v1/games"]["post"]["responses"]["201"]["links"]
    assert {"summary", "state", "legal-moves", "move", "events", "score", "replay"} <= set(links)
    for link in links.values():
        assert link["parameters"] == {"game_id": "$response.body#/id"}
        _, _, path, method = link["operationRef"].split("/")
        assert method in spec["paths"][unquote(path).replace("~1", "/")]


def test_the_422s_of_uploaded_replays_are_named(client):
    paths = client.get("/openapi.json").json["paths"]
    views = paths["/v1/replays/views"]["post"]["responses"]["422"]["description"]
    assert "`replay-not-rebuildable`" in views
    assert "`unknown-rules-version`" in paths["/v1/replays/verify"]["post"]["responses"]["422"][
        "description"]
