"""What a body may hold, on every route: integers a JSON parser holds exactly and nesting to a
documented depth (I-JSON, schemas.api). Past either, 400 `invalid-json` and nothing written;
no body makes a route answer 500; and every replay the server can produce verifies alike in
the server and in a browser's verifier (service/static/js/verify.js, run with node)."""

from __future__ import annotations

import json
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemas.api import DEEPEST_BODY, LARGEST_INTEGER
from tests.api import bearer, create
from tests.conftest import ROOT

UNHELD = LARGEST_INTEGER + 1


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth - 1):
        value = [value]
    return value


def _sent(client, method, url, body, headers):
    # The app's own JSON (orjson) writes nothing nested past 255: the standard library's does.
    return getattr(client, method)(url, data=json.dumps(body), headers=headers,
                                   content_type="application/json")


def _routes(game):
    """Every route taking a body, with the token it needs to get as far as reading it."""
    return [
        ("post", "/v1/games", {}),
        ("post", game.url("/moves"), game.seat(0)),
        ("post", game.url("/audit"), {}),
        ("put", game.url("/seats/0/key"), game.seat(0)),
        ("post", "/v1/replays/verify", {}),
    ]


@pytest.mark.parametrize("depth", [DEEPEST_BODY + 1, 260, 600])
def test_a_body_nested_past_the_documented_depth_is_invalid_json_on_every_route(client, depth):
    game = create(client)
    for method, url, headers in _routes(game):
        answer = _sent(client, method, url, {"move": _nested(depth)}, headers)
        assert (answer.status_code, answer.json["code"]) == (400, "invalid-json"), url
        assert "nests deeper" in answer.json["detail"]


def test_an_import_nested_past_the_documented_depth_is_invalid_json(redis_url, workers):
    from service import create_app

    importing = create_app({"TESTING": True, "REDIS_URL": redis_url, "IMPORT_TOKEN": "op"})
    answer = _sent(importing.test_client(), "put", "/v1/games/imported/replay", {
        "format": "tablelog-replay/1", "entries": [_nested(300)]}, bearer("op"))
    assert (answer.status_code, answer.json["code"]) == (400, "invalid-json")


def test_a_body_at_the_documented_depth_is_read():
    from service.web import _beyond_interchange

    # The body's own object counts as one level.
    assert _beyond_interchange({"a": _nested(DEEPEST_BODY)}) is None
    assert _beyond_interchange({"a": _nested(DEEPEST_BODY + 1)}) is not None


@pytest.mark.parametrize("title, move", [
    ("coloretto", {"type": "take", "row": UNHELD}),
    ("coloretto", {"type": "take", "row": -UNHELD}),
    ("hermit", {"type": "play", "card": "1M", "group": UNHELD}),
    ("sieben-siegel", {"type": "predict", "seals": {"R": UNHELD}}),
])
def test_an_integer_no_browser_holds_is_refused_at_the_door_and_never_logged(client, title,
                                                                               move):
    players = ("ann", "bob", "cid")
    game = create(client, title, players)
    before = client.get(game.url(), headers=game.table).json["version"]
    answer = client.post(game.url("/moves"), json={"move": move}, headers=game.seat(0))
    assert (answer.status_code, answer.json["code"]) == (400, "invalid-json"), answer.json
    assert str(UNHELD) in answer.json["detail"]
    assert client.get(game.url(), headers=game.table).json["version"] == before


@pytest.mark.parametrize("body", [
    {"type": "takeback", "to": UNHELD},
    {"type": "takeback", "to": 1, "extra": [UNHELD]},
])
def test_a_table_action_or_a_version_past_2_53_is_refused_at_the_door(client, body):
    game = create(client)
    for url, sent, headers in [(game.url("/moves"), {"move": body}, game.table),
                               (game.url("/moves"), {"move": {"type": "draw"},
                                                     "expected_version": UNHELD}, game.seat(0))]:
        answer = _sent(client, "post", url, sent, headers)
        assert (answer.status_code, answer.json["code"]) == (400, "invalid-json"), answer.json


_JSON = st.recursive(
    st.none() | st.booleans() | st.text(max_size=8)
    | st.integers(min_value=-(2**64), max_value=2**64)
    | st.sampled_from([LARGEST_INTEGER, UNHELD, -UNHELD, 2**63]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=12,
)
_FIELDS = st.sampled_from(["row", "card", "group", "seals", "to", "seat", "type"])


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=st.lists(st.dictionaries(_FIELDS, _JSON, max_size=3), min_size=1, max_size=4),
       route=st.sampled_from(["moves", "table", "verify"]))
def test_no_body_makes_a_route_answer_500(client, moves, route):
    game = create(client)
    for move in moves:
        if route == "moves":
            answer = _sent(client, "post", game.url("/moves"), {"move": move}, game.seat(0))
        elif route == "table":
            answer = _sent(client, "post", game.url("/moves"), {"move": move}, game.table)
        else:
            answer = _sent(client, "post", "/v1/replays/verify", {
                "format": "tablelog-replay/1", "game": "coloretto", "entries": [move]}, {})
        assert answer.status_code < 500, (route, move, answer.json)


_INTEGERS = (st.integers(min_value=0, max_value=4) | st.integers(min_value=-(2**64),
                                                                  max_value=2**64)
             | st.sampled_from([LARGEST_INTEGER, UNHELD, -UNHELD, 2**63]))
# Coloretto's moves and the table's takeback, their integers hostile or not, and any other body.
_MOVES = (st.builds(lambda row: {"type": "take", "row": row}, _INTEGERS)
          | st.just({"type": "draw"})
          | st.builds(lambda to: {"type": "takeback", "to": to}, _INTEGERS)
          | st.dictionaries(_FIELDS, _JSON, max_size=3))

_VERIFY = f"""
import {{ verifyReplay }} from "{ROOT}/service/static/js/verify.js";
let text = "";
for await (const chunk of process.stdin) text += chunk;
const said = await verifyReplay(JSON.parse(text));
process.stdout.write(JSON.stringify({{ ok: said.ok, mismatches: said.mismatches }}));
"""


def _browser_verifies(replay: dict) -> dict:
    run = subprocess.run(["node", "--input-type=module", "-e", _VERIFY], cwd=ROOT, check=True,
                         input=json.dumps(replay), capture_output=True, text=True, timeout=60)
    return json.loads(run.stdout)


def test_the_browser_and_the_server_verify_alike_every_replay_of_random_bodies(client):
    """Random move bodies, the hostile integers among them, posted by a seat and the table
    (each answered, refused at the door or judged): the replay the server then gives is one
    the server's verifier and the browser's both find sound."""
    game = create(client)

    @settings(max_examples=80, deadline=None, derandomize=True)
    @given(move=_MOVES, table=st.booleans())
    def posted(move, table):
        headers = game.table if table else game.seat(0)
        body = {"move": move, "seat": 0} if table else {"move": move}
        answer = _sent(client, "post", game.url("/moves"), body, headers)
        assert answer.status_code < 500, answer.json

    posted()
    replay = client.get(game.url("/replay"), headers=game.table).json
    assert len(replay["entries"]) > 1
    server = client.post("/v1/replays/verify", json=replay).json
    browser = _browser_verifies(replay)
    assert (server["ok"], browser["ok"]) == (True, True), (server, browser)
