"""The views of a range of steps: one answer instead of one `state?at=N` per step.

For stored games and for uploaded replays, each listed step is exactly what `state?at=N` (and,
when asked, `score?at=N`) answers the same caller, and the state right after any entry is that
of the last step listed at or before it.
"""

import random

import pytest

from engine.games import GAMES
from tests.api import create


def played(client, name, moves=12, seed=None):
    """A game of `name` with `moves` random legal moves made and one refused move."""
    game = create(client, name, [f"p{i}" for i in range(min(GAMES[name].seat_counts))],
                  seed=seed or f"views-{name}")
    rnd = random.Random(name)
    for _ in range(moves):
        legal = client.get(game.url("/legal-moves"), headers=game.table).json["moves"]
        choice = rnd.choice(legal)
        assert game.move(choice["seat"], choice["move"]).status_code == 201
    waiting = set(client.get(game.url()).json["to_act"])
    idle = next(s for s in range(len(game.tokens)) if s not in waiting)
    legal = client.get(game.url("/legal-moves"), headers=game.table).json["moves"]
    assert game.move(idle, legal[0]["move"]).status_code == 422
    return game


def state_at(steps, seq):
    return [s for s in steps if s["at"] <= seq][-1]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_step_is_the_state_at_that_entry_for_each_viewer(client, name):
    game = played(client, name)
    version = client.get(game.url()).json["version"]
    for headers in ({}, game.seat(0), game.table):
        answer = client.get(game.url("/views"), headers=headers).json
        assert answer["version"] == version and (answer["from"], answer["to"]) == (1, version)
        steps = answer["steps"]
        assert steps[0]["at"] == 1
        for seq in range(1, version + 1):
            expected = client.get(game.url(f"/state?at={seq}"), headers=headers).json
            step = state_at(steps, seq)
            assert (step["state"], step["to_act"], step["round"], step["status"]) == (
                expected["state"], expected["to_act"], expected["round"], expected["status"]
            ), seq


def test_a_range_starts_at_its_first_entry_and_lists_only_acceptances_after_it(client):
    game = played(client, "coloretto")
    events = client.get(game.url("/events")).json["events"]
    answer = client.get(game.url("/views?from=4&to=9")).json
    accepted = [e["seq"] for e in events if e["type"] == "move-accepted" and 4 < e["seq"] <= 9]
    assert [s["at"] for s in answer["steps"]] == [4, *accepted]
    assert "score" not in answer["steps"][0]


def test_scores_are_listed_on_request(client):
    game = played(client, "sieben-siegel")
    answer = client.get(game.url("/views?from=2&to=12&score=1")).json
    for step in answer["steps"]:
        assert step["score"] == client.get(game.url(f"/score?at={step['at']}")).json


def test_bad_ranges_are_refused(client):
    game = played(client, "coloretto", moves=2)
    version = client.get(game.url()).json["version"]
    assert client.get(game.url(f"/views?to={version + 1}")).json["code"] == "no-such-version"
    assert client.get(game.url("/views?from=3&to=2")).json["code"] == "bad-range"
    assert client.get(game.url("/views?from=0")).status_code == 400
    long_game = played(client, "keltis-card", moves=110)
    refused = client.get(long_game.url("/views?score=true")).json
    assert refused["code"] == "range-too-long"


def test_a_seats_views_hold_its_own_hand_and_no_one_elses(client):
    game = played(client, "keltis-card")
    mine = client.get(game.url("/views"), headers=game.seat(1)).json["steps"]
    spectated = client.get(game.url("/views")).json["steps"]
    for own, public in zip(mine, spectated, strict=True):
        assert {k: v for k, v in own["state"].items() if k != "you"} == public["state"]
        assert own["state"]["you"]["hand"] and "you" not in public["state"]


def test_an_uploaded_finished_replay_steps_like_the_stored_game(client):
    game = create(client, "coloretto", ["ann", "bob", "cid"], seed="upload",
                  options={"deals": 1})
    game.play_to_end(random.Random("upload"))
    replay = client.get(game.url("/replay")).json
    stored = client.get(game.url("/views?from=40&to=90&score=1")).json
    uploaded = client.post("/v1/replays/views?from=40&to=90&score=1", json=replay)
    assert uploaded.status_code == 200 and uploaded.json == stored


def test_an_uploaded_replay_of_a_running_game_rebuilds_only_with_its_deal(client):
    game = played(client, "hermit")
    table = client.get(game.url("/replay"), headers=game.table).json
    assert client.post("/v1/replays/views", json=table).json == \
        client.get(game.url("/views"), headers=game.table).json
    spectated = client.get(game.url("/replay")).json
    refused = client.post("/v1/replays/views", json=spectated)
    assert refused.status_code == 422 and refused.json["code"] == "replay-not-rebuildable"


def test_an_uploaded_replay_that_cannot_be_read_is_a_400(client):
    game = played(client, "coloretto", moves=2)
    table = client.get(game.url("/replay"), headers=game.table).json
    table["entries"][0] = {"seq": 1, "type": "move-submitted", "game": "coloretto"}
    answer = client.post("/v1/replays/views", json=table)
    assert answer.status_code == 400 and answer.json["code"] == "malformed-replay"
    table["entries"][0] = {"seq": 1, "type": "game-created", "game": "coloretto",
                           "rules_version": "coloretto/1"}  # and no players
    answer = client.post("/v1/replays/views", json=table)
    assert answer.status_code == 400 and answer.json["code"] == "malformed-replay"


def test_a_finished_games_whole_range_is_kept_for_the_next_viewers(client, app):
    game = create(client, "coloretto", ["ann", "bob", "cid"], seed="kept", options={"deals": 1})
    kept = app.extensions["store"].projections
    assert client.get(game.url("/views")).status_code == 200
    assert kept.steps(game.id) is None, "a running game's views change: nothing is kept"
    game.play_to_end(random.Random("kept"))
    first = client.get(game.url("/views"))
    assert kept.steps(game.id) == first.data
    again = client.get(game.url("/views"), headers=game.seat(1))
    assert again.data == first.data and again.json["steps"][-1]["status"] == "finished"
    assert client.get(game.url("/views?from=2")).json["steps"][0]["at"] == 2
