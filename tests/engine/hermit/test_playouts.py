"""Whole Hermit games under every variant: they end, score with provenance, and fit the schema."""

import random

import pytest

from engine import log
from engine.games.hermit import GAME
from schemas.moves import MOVES
from tests.engine.playout import play

VARIANTS = [
    {},
    {"must_follow": False},
    {"pleasant_company": True, "house_party": True},
]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("options", VARIANTS)
def test_random_games_end_with_every_point_traced_to_the_log(seats, options):
    run = play(GAME, seats, f"variant-{seats}", random.Random(seats), options)
    final = run.final
    score = GAME.score(final)
    assert score.final and score.rounds == final.hand
    if seats == 2:
        assert final.hand == 4
    else:
        assert max(s.total for s in score.seats) >= final.table.options["target"]
    last = len(run.entries)
    for seat in score.seats:
        for component in seat.components:
            assert component.events and all(1 <= e <= last for e in component.events)
    totals = [s.total for s in score.seats]
    scored = [e for e in run.entries if e["type"] == log.ACCEPTED
              for f in e["effects"] if f["type"] == "hand-scored"]
    assert scored[-1]["effects"][-1]["totals"] == totals


def test_every_legal_move_fits_the_move_schema():
    schemas = MOVES["hermit"]
    run = play(GAME, 2, "schema", random.Random(1))
    for entry in run.entries:
        if entry["type"] == log.SUBMITTED:
            move = entry["move"]
            assert schemas[move["type"]]().validate(move) == {}


@pytest.mark.parametrize(
    "move",
    [
        {"type": "play", "card": "bard", "group": -1},
        {"type": "play", "card": "bard", "group": "1"},
        {"type": "start"},
        {"type": "stagecoach", "card": "sea", "group": 1},
    ],
)
def test_the_schema_refuses_misshapen_moves(move):
    assert MOVES["hermit"][move["type"]]().validate(move)
