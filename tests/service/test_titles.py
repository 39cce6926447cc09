"""GET /v1/titles serves each game's declared spec, which the pages and the command line read
instead of lists of their own; each title's table module is served from its package."""

import json

from engine.games import GAMES
from tests.service.test_openapi import Checked


def test_every_title_is_served_as_its_game_declares_it(client):
    answer = Checked(client).get("/v1/titles")
    assert answer.status_code == 200
    served = {spec["name"]: spec for spec in answer.json["titles"]}
    declared = {name: {**game.spec.to_json(), "lowest_wins": game.lowest_wins}
                for name, game in GAMES.items()}
    assert served == json.loads(json.dumps(declared))
    for spec in served.values():
        low, high = spec["seats"]
        assert list(range(low, high + 1)) == list(GAMES[spec["name"]].seat_counts)
        assert set(spec["says"]) == set(spec["moves"])


def test_a_title_says_which_way_it_ranks_and_what_its_names_hide(client):
    served = {spec["name"]: spec for spec in client.get("/v1/titles").json["titles"]}
    assert {name for name, spec in served.items() if spec["lowest_wins"]} == {
        "hermit", "sieben-siegel"}
    assert served["hermit"]["cards"]["castle"] == {
        "rank": 7, "suits": ["suns", "knots"], "personality": False}
    assert served["hermit"]["cards"]["bard"] == {
        "rank": 10, "suits": ["suns"], "personality": True}


def test_seat_counts_and_options_are_refused_as_the_spec_declares(client):
    for spec in client.get("/v1/titles").json["titles"]:
        low, high = spec["seats"]
        too_many = client.post("/v1/games", json={
            "game": spec["name"], "players": [f"p{n}" for n in range(high + 1)]})
        assert too_many.status_code == 400 and too_many.json["code"] == "bad-player-count"
        assert f"{low} to {high} players" in too_many.json["detail"]
        bounded = [o for o in spec["options"] if o["kind"] == "int"]
        for option in bounded:
            beyond = client.post("/v1/games", json={
                "game": spec["name"], "players": [f"p{n}" for n in range(high)],
                "options": {option["name"]: option["high"] + 1}})
            assert beyond.status_code == 400 and beyond.json["code"] == "bad-options"
            assert option["name"] in beyond.json["detail"]


def test_each_title_s_table_is_drawn_by_the_module_of_its_package(client):
    for name in GAMES:
        module = client.get(f"/tables/{name}.js")
        body = module.get_data()
        module.close()  # a file sent is closed with its answer
        assert module.status_code == 200 and b"export function draw" in body
    assert client.get("/tables/chess.js").status_code == 404
