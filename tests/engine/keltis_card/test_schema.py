"""The move schema takes the contract's move shapes and refuses misshapen ones; that it takes
every listed legal move is checked for every game in tests/engine/test_conformance.py."""

import pytest

from schemas.moves import MOVES

SCHEMAS = MOVES["keltis-card"]


@pytest.mark.parametrize(
    "move",
    [
        {"type": "play", "card": "P7", "row": "G"},
        {"type": "play", "card": "R10"},
        {"type": "wish", "cards": ["G5", "P5"]},
        {"type": "draw", "from": "G"},
        {"type": "draw", "from": "P"},  # refused by the engine with its own code
    ],
)
def test_the_contract_s_move_shapes_fit_the_schema(move):
    assert SCHEMAS[move["type"]]().validate(move) == {}


@pytest.mark.parametrize(
    "move",
    [
        {"type": "play"},
        {"type": "play", "card": 7},
        {"type": "play", "card": "P7", "row": "P"},
        {"type": "play", "card": "G7", "row": None},
        {"type": "discard", "card": "G7", "row": "G"},
        {"type": "wish", "cards": ["G5"]},
        {"type": "wish", "cards": ["G5", "P5", "Y5"]},
        {"type": "draw"},
        {"type": "draw", "from": "pile"},
        {"type": "pass", "card": "G7"},
    ],
)
def test_misshapen_moves_do_not_fit_the_schema(move):
    assert SCHEMAS[move["type"]]().validate(move) != {}
