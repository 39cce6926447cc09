"""The move schema accepts every move the engine lists and refuses misshapen ones."""

import random

import pytest

from engine import log
from engine.games.sieben_siegel import GAME
from schemas.moves import MOVES
from tests.engine.playout import play

SCHEMAS = MOVES["sieben-siegel"]


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_every_legal_move_fits_the_move_schema(seats):
    run = play(GAME, seats, "schema", random.Random(seats))
    kinds = set()
    for entry in run.entries:
        if entry["type"] == log.SUBMITTED:
            move = entry["move"]
            kinds.add(move["type"])
            assert SCHEMAS[move["type"]]().validate(move) == {}
    assert {"predict", "play"} <= kinds


def test_a_prediction_with_seats_to_take_from_fits_the_schema():
    move = {"type": "predict", "seals": {"yellow": 2, "blue": 1}, "from": {"blue": [1]}}
    assert SCHEMAS["predict"]().validate(move) == {}
    assert SCHEMAS["predict"]().validate({"type": "predict", "seals": {}}) == {}


@pytest.mark.parametrize(
    "move",
    [
        {"type": "predict"},
        {"type": "predict", "seals": {"orange": 1}},
        {"type": "predict", "seals": {"red": -1}},
        {"type": "predict", "seals": {"red": "1"}},
        {"type": "predict", "seals": {}, "from": {"blue": 1}},
        {"type": "predict", "seals": {}, "from": {"blue": [-1]}},
        {"type": "saboteur", "seat": 1},
        {"type": "play"},
        {"type": "play", "card": 12},
        {"type": "return", "seal": "gold"},
    ],
)
def test_the_schema_refuses_misshapen_moves(move):
    assert SCHEMAS[move["type"]]().validate(move)
