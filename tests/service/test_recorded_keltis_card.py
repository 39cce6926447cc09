"""A Keltis card game recorded at a real table, through the API and its workers: the table's
setup deals face down, each card played names itself, a card seen too often is a 422 that
changes nothing, and the whole game's replay, audit and verification re-judge every entry."""

import random

from engine.games import GAMES
from engine.playout import play
from tests.api import create, unwritten
from tests.service.test_recorded import entered_at_the_table, table

SETUP = {"type": "setup"}


def recorded(client, players=("ann", "bob")):
    return create(client, "keltis-card", list(players), deal="recorded")


def test_the_setup_deals_face_down_and_a_card_played_names_itself(client):
    game = recorded(client, ("ann", "bob", "cid"))
    early = game.move(0, {"type": "discard", "card": "G7"})
    assert early.status_code == 422 and early.json["code"] == "setup-first"
    done = table(client, game, SETUP)
    assert done.status_code == 201, done.json
    assert done.json["effects"] == [{"type": "dealt-face-down", "hand": 8, "deck": 77,
                                     "set_aside": 0}]
    state = client.get(game.url("/state"), headers=game.table).json["state"]
    assert state["private"][0]["hand"] == ["?"] * 8 and state["deck_size"] == 77
    legal = client.get(game.url("/legal-moves"), headers=game.table).json["moves"]
    assert {"seat": 0, "move": {"type": "discard", "card": "P10"}} in legal
    played = game.move(0, {"type": "play", "card": "G10"})
    assert played.status_code == 201, played.json
    drew = game.move(0, {"type": "draw", "from": "deck"})
    assert drew.json["effects"] == [{"type": "drew-unseen", "seat": 0}]


def test_a_card_seen_already_is_a_422_naming_its_entry_and_changes_nothing(client):
    game = recorded(client)
    table(client, game, SETUP)
    first = game.move(0, {"type": "play", "card": "B9"})
    game.move(0, {"type": "draw", "from": "deck"})
    before = client.get(game.url("/state"), headers=game.table).json
    again = unwritten(client, game, lambda: game.move(1, {"type": "play", "card": "B9"}),
                      "card-seen")
    assert f"entry {first.json['seq']}" in again.json["detail"]
    unwritten(client, game, lambda: game.move(1, {"type": "discard", "card": "W3"}),
              "card-not-in-game")
    unwritten(client, game, lambda: game.move(1, {"type": "draw", "from": "deck"}),
              "nothing-to-draw")
    assert client.get(game.url("/state"), headers=game.table).json["state"] == before["state"]


def test_a_seeded_game_entered_at_the_table_scores_the_same_and_verifies(client):
    seeded = play(GAMES["keltis-card"], 2, "by-hand", random.Random("by-hand"), {})
    game = recorded(client)
    _, want = entered_at_the_table(client, game, seeded, ["ann", "bob"])
    audit = client.post(game.url("/audit?wait=10"), json={"claimed": {"1": 0}}).json
    assert audit["ok"] and audit["claims"][0]["recomputed"] == want["players"][1]["total"]


def test_a_table_takeback_to_before_a_card_named_frees_it_again(client):
    game = recorded(client)
    table(client, game, SETUP)
    played = game.move(0, {"type": "play", "card": "R0"})
    back = table(client, game, {"type": "takeback", "to": played.json["seq"] - 1})
    assert back.status_code == 201, back.json
    state = client.get(game.url("/state"), headers=game.table).json["state"]
    assert state["unaccounted"]["R0"] == 1 and state["private"][0]["hand"] == ["?"] * 8
    assert game.move(0, {"type": "play", "card": "R0"}).status_code == 201
