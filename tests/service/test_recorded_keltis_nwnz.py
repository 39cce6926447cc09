"""A Keltis "Neue Wege, neue Ziele" game recorded at a real table, through the API and its
workers: the table's setup names the path tiles and deals face down, a card seen too often is a
422 that changes nothing, and the whole game's replay, audit and verification re-judge every
entry."""

import random
from collections import Counter

from engine.games import GAMES
from engine.games.keltis_nwnz.state import TILES
from engine.playout import play
from tests.api import create, unwritten
from tests.service.test_recorded import entered_at_the_table, table

LAID = ["discard", *(Counter(TILES) - Counter(["discard"])).elements()]
SETUP = {"type": "setup", "tiles": LAID}


def recorded(client, players=("ann", "bob")):
    return create(client, "keltis-nwnz", list(players), deal="recorded")


def test_the_setup_names_the_tiles_and_a_card_seen_already_is_a_422(client):
    game = recorded(client, ("ann", "bob", "cid"))
    early = game.move(0, {"type": "discard", "card": "G7"})
    assert early.status_code == 422 and early.json["code"] == "setup-first"
    wrong = table(client, game, {"type": "setup", "tiles": ["clover", *LAID[1:]]})
    assert wrong.status_code == 422 and wrong.json["code"] == "tile-set"
    done = table(client, game, SETUP)
    assert done.status_code == 201, done.json
    assert done.json["effects"] == [{"type": "tiles-laid", "tiles": 22, "hand": 8, "deck": 86,
                                     "set_aside": 0}]
    state = client.get(game.url("/state"), headers=game.table).json["state"]
    assert state["private"][0]["hand"] == ["?"] * 8 and state["tiles"][0]["tile"] == "discard"
    first = game.move(0, {"type": "discard", "card": "B9"})
    game.move(0, {"type": "draw", "from": "deck"})
    second = game.move(1, {"type": "discard", "card": "B9"})
    assert second.status_code == 201, second.json
    game.move(1, {"type": "draw", "from": "deck"})
    before = client.get(game.url("/state"), headers=game.table).json
    again = unwritten(client, game, lambda: game.move(2, {"type": "discard", "card": "B9"}),
                      "card-seen")
    assert f"entries {first.json['seq']}, {second.json['seq']}" in again.json["detail"]
    assert client.get(game.url("/state"), headers=game.table).json["state"] == before["state"]


def test_a_seeded_game_entered_at_the_table_scores_the_same_and_verifies(client):
    seeded = play(GAMES["keltis-nwnz"], 2, "by-hand", random.Random("by-hand"), {})
    game = recorded(client)
    _, want = entered_at_the_table(client, game, seeded, ["ann", "bob"])
    audit = client.post(game.url("/audit?wait=10"), json={"claimed": {"1": 0}}).json
    assert audit["ok"] and audit["claims"][0]["recomputed"] == want["players"][1]["total"]
