"""The move schema takes the contract's move shapes and refuses misshapen ones; that it takes
every listed legal move is checked for every game in tests/engine/test_conformance.py."""

import pytest

from schemas.moves import MOVES

SCHEMAS = MOVES["sieben-siegel"]


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
