"""A Hermit game recorded at a real table, through the API and its workers: the table's setup,
cards named as they are seen, a broken follow rule reported at the entry that proves it (naming
the earlier one) and taken back, and a whole game entered as a scorekeeper would, its replay,
audit and verification re-judging every entry."""

import random

from engine.games import GAMES
from engine.playout import play
from tests.api import create, unwritten
from tests.service.test_recorded import entered_at_the_table, table

PLAYERS = ["ann", "bob", "cid"]


def recorded(client, players=PLAYERS, **options):
    return create(client, "hermit", players, deal="recorded", options=options)


def posted(client, game, move, seat=None):
    answer = table(client, game, move, seat)
    assert answer.status_code == 201, answer.json
    return answer.json


def state_of(client, game):
    return client.get(game.url("/state"), headers=game.table).json["state"]


def started(client, starts=("ace-moons", "ace-suns", "ace-waves")):
    """A recorded three-player hand, set up (entry 2) and each seat's starting card named."""
    game = recorded(client)
    assert table(client, game, {"type": "play", "card": "bard"}, 0).json["code"] == (
        "setup-first")
    posted(client, game, {"type": "setup"})
    for seat, card in enumerate(starts):
        posted(client, game, {"type": "start", "card": card}, seat)
    return game


def test_the_table_sets_up_each_hand_and_names_each_card_as_it_is_seen(client):
    game = recorded(client)
    state = state_of(client, game)
    assert state["setup_needed"] and state["hand_sizes"] == [0, 0, 0]
    by_seat = game.move(0, {"type": "setup"})
    assert by_seat.status_code == 422 and by_seat.json["code"] == "setup-by-table"
    centre = table(client, game, {"type": "setup", "centre": "bard"})
    assert centre.status_code == 422 and centre.json["code"] == "no-centre"
    done = posted(client, game, {"type": "setup"})
    assert done["effects"] == [{"type": "hand-dealt", "hand": 1, "first_seat": 0,
                                "cards_each": 12, "centre": None}]
    state = state_of(client, game)
    assert state["hand_sizes"] == [12, 12, 12] and len(state["unaccounted"]) == 36
    assert state["private"][0]["hand"] == []
    legal = client.get(game.url("/legal-moves"), headers=game.table).json["moves"]
    assert {"seat": 2, "move": {"type": "start", "card": "bard"}} in legal
    posted(client, game, {"type": "start", "card": "bard"}, 0)
    spectator = client.get(game.url("/state")).json["state"]
    assert "bard" in spectator["unaccounted"]  # a hidden choice shows nowhere yet


def test_the_table_is_offered_no_starting_card_another_seat_chose_face_down(client):
    """The table sees the choices: a card chosen face down is offered to no other seat there
    (it would be refused when revealed); the seat's own link, which sees none, still lists it."""
    game = recorded(client)
    posted(client, game, {"type": "setup"})
    posted(client, game, {"type": "start", "card": "bard"}, 0)
    at_table = client.get(game.url("/legal-moves"), headers=game.table).json["moves"]
    assert {"seat": 1, "move": {"type": "start", "card": "bard"}} not in at_table
    assert {"seat": 1, "move": {"type": "start", "card": "sea"}} in at_table
    own = client.get(game.url("/legal-moves"), headers=game.seat(1)).json["moves"]
    assert {"seat": 1, "move": {"type": "start", "card": "bard"}} in own
    assert len(own) == len([m for m in at_table if m["seat"] == 1]) + 1


def test_a_card_seen_twice_is_a_422_naming_where_and_changes_nothing(client):
    game = started(client)
    first = posted(client, game, {"type": "play", "card": "lunatic", "group": 2}, 0)
    before = state_of(client, game)
    lunatic = {"type": "play", "card": "lunatic", "group": 0}
    again = unwritten(client, game, lambda: table(client, game, lunatic, 1), "card-seen")
    assert f"entry {first['seq']}" in again.json["detail"]
    assert state_of(client, game) == before


def test_a_broken_follow_rule_is_reported_at_the_entry_that_proves_it_and_taken_back(client):
    game = started(client)
    new = posted(client, game, {"type": "play", "card": "ace-leaves"}, 0)
    proof = new["seq"]  # the submission's entry
    assert {"type": "had-none", "seat": 0, "suits": ["moons", "suns", "waves"]} in new["effects"]
    assert state_of(client, game)["had_none"] == [
        {"seat": 0, "suit": suit, "entry": proof} for suit in ("moons", "suns", "waves")]
    posted(client, game, {"type": "play", "card": "origin", "group": 2}, 1)
    posted(client, game, {"type": "play", "card": "sailor", "group": 2}, 2)
    shown = posted(client, game, {"type": "play", "card": "lunatic", "group": 0}, 0)
    assert {"type": "revoke", "seat": 0, "entry": proof, "suits": ["moons", "waves"],
            "rule": "must_follow", "card": "lunatic"} in shown["effects"]
    events = client.get(game.url("/events"), headers=game.table).json["events"]
    assert any(f.get("type") == "revoke" for e in events for f in e.get("effects", ()))

    back = posted(client, game, {"type": "takeback", "to": proof - 1})
    assert back["status"] == "accepted"
    state = state_of(client, game)
    assert state["had_none"] == [] and state["turn"] == 0 and state["hand_sizes"] == [11] * 3
    assert "ace-leaves" in state["unaccounted"]
    followed = posted(client, game, {"type": "play", "card": "lunatic", "group": 0}, 0)
    assert not [f for f in followed["effects"] if f["type"] in ("had-none", "revoke")]


def test_a_seeded_game_entered_at_the_table_scores_the_same_and_verifies(client):
    players = ["ann", "bob", "cid", "dan", "eve"]
    seeded = play(GAMES["hermit"], 5, "by-hand", random.Random("by-hand"), {})
    game = recorded(client, players)
    # The Stagecoach is known in the Decktet's order, not the order laid: components unordered.
    _, want = entered_at_the_table(client, game, seeded, players, ordered=False)
    audit = client.post(game.url("/audit?wait=10"), json={"claimed": {"0": 1}}).json
    assert audit["ok"] and audit["claims"][0]["recomputed"] == want["players"][0]["total"]
