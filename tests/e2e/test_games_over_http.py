"""Every registered game played to the end over the HTTP API, each seat with its own token.

Along the way no seat, spectator or event stream sees what it may not: a seat's state is the
spectator's plus its own `you`, and every private field of another seat reaches it as null.
At the end the game is finished, scored, audits clean and its replay verifies.
"""

import json
import random

import pytest

from engine.games import GAMES
from tests.api import create

CASES = [(name, min(game.seat_counts)) for name, game in sorted(GAMES.items())]
CASES += [(name, max(game.seat_counts)) for name, game in sorted(GAMES.items())]


def private_fields_of_others(value, seat):
    """Every value in `value` that is marked hidden for a seat other than `seat`."""
    if isinstance(value, list):
        return [v for item in value for v in private_fields_of_others(item, seat)]
    if not isinstance(value, dict):
        return []
    found = []
    if value.get("hidden") and value.get("seat") != seat:
        found += [value[k] for k in value["hidden"] if value.get(k) is not None]
    for v in value.values():
        found += private_fields_of_others(v, seat)
    return found


def assert_nothing_leaks(client, game, seats):
    spectator = client.get(game.url("/state")).json["state"]
    assert not {"you", "private", "deck"} & set(spectator)
    for seat in range(seats):
        mine = client.get(game.url("/state"), headers=game.seat(seat)).json["state"]
        assert {k: v for k, v in mine.items() if k != "you"} == spectator
        events = client.get(game.url("/events?limit=5000"), headers=game.seat(seat)).json
        assert private_fields_of_others(events["events"], seat) == []
        legal = client.get(game.url("/legal-moves"), headers=game.seat(seat)).json["moves"]
        assert {m["seat"] for m in legal} <= {seat}
    spectated = client.get(game.url("/events?limit=5000")).json["events"]
    assert private_fields_of_others(spectated, None) == []


@pytest.mark.parametrize(("name", "seats"), sorted(set(CASES)))
def test_a_whole_game_over_http(client, name, seats):
    game = create(client, name, [f"p{i}" for i in range(seats)], seed=f"http-{name}")
    rnd = random.Random(name)
    moves = 0
    while True:
        legal = client.get(game.url("/legal-moves"), headers=game.table).json["moves"]
        if not legal:
            break
        if moves % 25 == 0:
            assert_nothing_leaks(client, game, seats)
        choice = rnd.choice(legal)
        answer = game.move(choice["seat"], choice["move"])
        assert answer.status_code == 201, (choice, answer.json)
        moves += 1
    summary = client.get(game.url()).json
    assert summary["status"] == "finished" and summary["seed"] == f"http-{name}"
    score = client.get(game.url("/score")).json
    assert score["final"] is True
    audit = client.post(game.url("/audit?wait=10")).json
    assert audit["ok"], audit["mismatches"]
    assert audit["score"] == score  # the worker's rebuild from the log scores it the same
    replay = client.get(game.url("/replay")).json
    verified = client.post("/v1/replays/verify", json=replay).json
    assert verified["ok"], verified["mismatches"]
    # Finished: everything is public, so a spectator now sees the table's view.
    assert json.dumps(client.get(game.url("/state")).json) == json.dumps(
        client.get(game.url("/state"), headers=game.table).json)
