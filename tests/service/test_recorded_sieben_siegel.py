"""Die sieben Siegel recorded at a real table, through the API and its workers: a setup a round,
plays naming their cards, a revoke reported at the entry that proves it (verdict, log, audit),
a table takeback to before it, and a whole game scoring as the seeded game it records."""

import random

from engine.games import GAMES
from engine.playout import play
from tests.api import create, unwritten
from tests.service.test_recorded import entered_at_the_table, table

PLAYERS = ["ann", "bob", "cid", "dee"]
NOTHING = {"type": "predict", "seals": {}}


def recorded(client, **options):
    return create(client, "sieben-siegel", PLAYERS, deal="recorded", options=options)


def at_tricks(client):
    game = recorded(client, rounds=1)
    assert table(client, game, {"type": "setup"}).status_code == 201
    for seat in range(4):
        assert game.move(seat, NOTHING).status_code == 201
    return game


def played(game, seat, card):
    answer = game.move(seat, {"type": "play", "card": card})
    assert answer.status_code == 201, answer.json
    return answer.json


def test_a_recorded_round_is_set_up_by_the_table_and_its_hands_are_unknown(client):
    game = recorded(client)
    early = game.move(0, NOTHING)
    assert early.status_code == 422 and early.json["code"] == "setup-first"
    done = table(client, game, {"type": "setup"})
    assert done.status_code == 201 and done.json["effects"] == [
        {"type": "round-started", "round": 1, "first_seat": 0}]
    state = client.get(game.url("/state"), headers=game.seat(1)).json["state"]
    assert state["hand_sizes"] == [15] * 4 and state["you"]["hand"] == []
    assert len(state["unaccounted"]) == 60


def test_a_card_seen_or_set_aside_is_a_422_and_writes_nothing(client):
    game = at_tricks(client)
    first = played(game, 0, "G5")
    before = client.get(game.url("/state"), headers=game.table).json
    seen = unwritten(client, game, lambda: game.move(1, {"type": "play", "card": "G5"}),
                     "card-seen")
    assert f"entry {first['seq']}" in seen.json["detail"]
    unwritten(client, game, lambda: game.move(1, {"type": "play", "card": "G13"}),
              "card-not-in-game")
    after = client.get(game.url("/state"), headers=game.table).json
    assert after["state"] == before["state"]


def test_a_revoke_is_reported_at_the_entry_that_proves_it_and_a_takeback_undoes_it(client):
    game = at_tricks(client)
    played(game, 0, "G5")
    played(game, 1, "G7")
    broken = played(game, 2, "Y3")
    assert {"type": "had-none", "seat": 2, "suits": ["green"]} in broken["effects"]
    played(game, 3, "G1")
    played(game, 1, "B4")
    before = client.get(game.url()).json["version"]
    revoke = played(game, 2, "G9")
    assert {"type": "revoke", "seat": 2, "entry": broken["seq"], "suits": ["green"],
            "rule": "must-follow-suit", "card": "G9"} in revoke["effects"]
    events = client.get(game.url("/events")).json["events"]
    assert any(f["type"] == "revoke" for e in events for f in e.get("effects", ()))
    audit = client.post(game.url("/audit?wait=10")).json
    assert audit["ok"] and [(r["seq"], r["entry"]) for r in audit["revokes"]] == [
        (revoke["seq"], broken["seq"])]

    back = table(client, game, {"type": "takeback", "to": before})
    assert back.status_code == 201, back.json
    state = client.get(game.url("/state"), headers=game.table).json["state"]
    assert state["turn"] == 2 and "G9" in state["unaccounted"]
    assert state["had_none"] == [{"seat": 2, "suit": "green", "entry": broken["seq"]}]
    assert [f["type"] for f in played(game, 2, "B9")["effects"]] == ["played"]
    audit = client.post(game.url("/audit?wait=10")).json
    assert audit["ok"] and audit["revokes"] == []


def test_a_seeded_game_entered_at_the_table_scores_the_same_and_verifies(client):
    seeded = play(GAMES["sieben-siegel"], 4, "by-hand", random.Random("by-hand"), {"rounds": 1})
    game = recorded(client, rounds=1)
    entered_at_the_table(client, game, seeded, PLAYERS)
    audit = client.post(game.url("/audit?wait=10")).json
    assert audit["ok"] and audit["revokes"] == []
