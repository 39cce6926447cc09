"""Whole Hermit games under every variant end and score with provenance; misshapen moves do not
fit the schema (every listed move does: tests/engine/test_conformance.py)."""

import json
import random

import pytest

from engine import log
from engine.games.hermit import GAME
from engine.games.hermit.cards import COMPANIES, PERSONALITIES
from engine.playout import play
from schemas.moves import MOVES

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


def mentions(run, seq: int, names: set[str]) -> bool:
    """Whether submission `seq` or its verdict names one of `names` (in moves or effects)."""
    text = json.dumps(run.entries[seq - 1 : seq + 1])
    return any(f'"{name}"' in text for name in names)


def deals_a_hand(run, seq: int) -> bool:
    return seq == 1 or '"hand-dealt"' in json.dumps(run.entries[seq])


@pytest.mark.parametrize("seats", [2, 3, 5])
@pytest.mark.parametrize("options", VARIANTS)
def test_each_hands_components_add_up_to_its_points_and_name_the_entries_of_their_cards(
    seats, options
):
    run = play(GAME, seats, f"provenance-{seats}", random.Random(seats + 10), options)
    score = GAME.score(run.final)
    scored = [f for e in run.entries if e["type"] == log.ACCEPTED
              for f in e["effects"] if f["type"] == "hand-scored"]
    assert [f["hand"] for f in scored] == list(range(1, run.final.hand + 1))
    for fact in scored:
        per_seat = [sum(c.points for c in s.components if c.round == fact["hand"])
                    for s in score.seats]
        assert per_seat == fact["points"]
    for seat in score.seats:
        for component in seat.components:
            if component.label in PERSONALITIES:
                cards = {component.label}
            elif component.label.startswith("pleasant company"):
                cards = set(COMPANIES[component.label.split("(")[1].rstrip(")")])
            else:  # house party: the lone collector's personalities
                cards = set(PERSONALITIES)
            for seq in component.events:
                assert run.entries[seq - 1]["seq"] == seq
                assert mentions(run, seq, cards) or deals_a_hand(run, seq), (component, seq)
