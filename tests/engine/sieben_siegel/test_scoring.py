"""Round scoring: 2 a coloured seal, 3 a black, 4 a white; the saboteur his base less blacks."""

from dataclasses import replace
from random import Random

import pytest

from engine.games.sieben_siegel import GAME
from engine.games.sieben_siegel.state import RoundScored
from engine.playout import play as playout_of
from engine.scoring import Component
from tests.engine.sieben_siegel.support import (
    FRANK,
    KATRIN,
    PETER,
    SABINE,
    Driver,
    at_tricks,
    dealt,
    seals,
)


def last_trick_to_the_saboteur(held, saboteur=KATRIN, **options):
    """Four seats each with one card left; the saboteur wins it, so no seal moves."""
    hands = [("B1",), ("B2",), ("B3",), ("B4",)]
    hands[saboteur] = ("B12",)
    state = at_tricks(tuple(hands), held=held, saboteur=saboteur, **options)
    play = Driver(state)
    play.trick(*(hands[s][0] for s in range(4)))
    return play


def test_example_4_the_round_scores_sabine_4_katrin_2_peter_5_frank_3():
    play = last_trick_to_the_saboteur(
        (seals("black"), seals("white"), (), seals("black", "yellow"))
    )
    assert RoundScored(1, (3, 4, 2, 5)) in play.facts
    totals = [s.total for s in GAME.score(play.state).seats]
    assert totals[FRANK] == 3 and totals[SABINE] == 4
    assert totals[KATRIN] == 2 and totals[PETER] == 5


def test_example_4_sabine_may_equally_hold_two_coloured_seals():
    play = last_trick_to_the_saboteur(
        (seals("black"), seals("red", "violet"), (), seals("black", "yellow"))
    )
    assert RoundScored(1, (3, 4, 2, 5)) in play.facts


@pytest.mark.parametrize(("blacks", "points"), [(0, 4), (1, 3), (3, 1), (4, 0), (6, 0)])
def test_example_5_the_saboteur_scores_4_less_the_others_black_seals_never_below_0(blacks, points):
    spread = (seals(*["black"] * min(blacks, 3)), seals(*["black"] * max(0, blacks - 3)), (), ())
    play = last_trick_to_the_saboteur(spread)
    scored = next(f for f in play.facts if isinstance(f, RoundScored))
    assert scored.points[KATRIN] == points


@pytest.mark.parametrize(("base", "points"), [(5, 3), (6, 4)])
def test_option_saboteur_max_raises_the_saboteurs_base(base, points):
    play = last_trick_to_the_saboteur((seals("black"), seals("black"), (), ()), saboteur_max=base)
    scored = next(f for f in play.facts if isinstance(f, RoundScored))
    assert scored.points[KATRIN] == points


def test_the_saboteur_counts_the_black_seals_of_every_other_seat():
    play = last_trick_to_the_saboteur(
        (seals("black", "black"), seals("black"), (), seals("black", "red")), saboteur=KATRIN
    )
    scored = next(f for f in play.facts if isinstance(f, RoundScored))
    assert scored.points == (6, 3, 0, 5)


def test_a_seat_with_no_seals_left_scores_0():
    play = last_trick_to_the_saboteur(((), (), (), ()))
    scored = next(f for f in play.facts if isinstance(f, RoundScored))
    assert scored.points == (0, 0, 4, 0)
    components = GAME.score(play.state).seats[FRANK].components
    assert components[0] == Component("no seals", "no seals left: 0", 0, 1)


def test_every_point_names_the_prediction_or_trick_that_left_the_seal():
    play = Driver(dealt(3, rounds=1))
    play(0, {"type": "predict", "seals": {"blue": 3}})  # seq 2
    play(1, {"type": "predict", "seals": {"blue": 1}, "from": {"blue": [0]}})  # seq 4
    play(2, {"type": "saboteur"})  # seq 6
    play.state = replace(play.state, hands=(("Y1",), ("Y9",), ("Y2",)))
    play.trick("Y1", "Y9", "Y2")  # seq 8, 10, 12: seat 1 wins yellow without a yellow seal
    assert GAME.is_over(play.state)
    score = GAME.score(play.state)
    assert score.final and score.rounds == 1
    assert score.seats[0].components == (
        Component("blue", "2 blue seals left, 2 each: 4", 4, 1, (2, 2)),
        Component("white", "1 white seal left, 4 each: 4", 4, 1, (4,)),
    )
    assert score.seats[1].components == (
        Component("blue", "1 blue seal left, 2 each: 2", 2, 1, (4,)),
        Component("black", "1 black seal left, 3 each: 3", 3, 1, (12,)),
    )
    assert score.seats[2].components == (
        Component(
            "saboteur",
            "saboteur: 4 less 1 black seal held by the others, never below 0: 3",
            3,
            1,
            (6, 12),
        ),
    )
    out = score.to_json(["a", "b", "c"])
    assert [p["total"] for p in out["players"]] == [8, 5, 3]
    assert [p["rank"] for p in out["players"]] == [3, 2, 1]  # lowest wins
    assert out["players"][0]["components"][0]["events"] == [2]


def test_tied_totals_share_the_place():
    play = last_trick_to_the_saboteur(
        (seals("black"), seals("red", "yellow"), (), seals("white")), saboteur=KATRIN
    )
    score = GAME.score(play.state)
    assert [s.total for s in score.seats] == [3, 4, 3, 4]
    assert score.ranks() == (1, 3, 1, 3)


def test_totals_add_up_the_rounds_with_components_per_round():
    play = last_trick_to_the_saboteur((seals("black"), (), (), ()), rounds=2)
    assert play.state.round == 2 and not GAME.is_over(play.state)
    # round 2: everybody predicts one red seal; the score so far is provisional
    for seat in (1, 2, 3, 0):
        play(seat, {"type": "predict", "seals": {"red": 1}})
    score = GAME.score(play.state)
    assert not score.final and score.rounds == 2
    frank = score.seats[FRANK].components
    assert [(c.label, c.round, c.points) for c in frank] == [("black", 1, 3), ("red", 2, 2)]
    assert score.seats[FRANK].total == 5
    assert GAME.view(play.state, FRANK)["totals"] == [3, 0, 3, 0]


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_a_whole_game_scores_every_round_and_components_sum_to_the_totals(seats):
    playout = playout_of(GAME, seats, "whole", Random(seats))
    score = GAME.score(playout.final)
    rounds = GAME.options(seats, {})["rounds"]
    assert score.final and score.rounds == rounds
    scored = [f for f in _facts(playout) if f["type"] == "round-scored"]
    assert len(scored) == rounds
    for seat in range(seats):
        assert {c.round for c in score.seats[seat].components} == set(range(1, rounds + 1))
        assert score.seats[seat].total == sum(f["points"][seat] for f in scored)


def _facts(playout):
    return [f for e in playout.entries if e["type"] == "move-accepted" for f in e["effects"]]


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_every_component_names_accepted_moves_of_its_own_round(seats):
    """Provenance: each event is a submission the log accepted, made during the component's
    round, and of a kind that moves seals (a prediction, the saboteur, or a trick's card)."""
    run = playout_of(GAME, seats, f"events-{seats}", Random(seats), {"rounds": 2})
    accepted = {e["of"] for e in run.entries if e["type"] == "move-accepted"}
    moves = {e["seq"]: e["move"] for e in run.entries if e["type"] == "move-submitted"}
    round_of = {seq: run.states[seq // 2 - 1].round for seq in moves}
    for seat_score in GAME.score(run.final).seats:
        for component in seat_score.components:
            assert bool(component.events) == (component.points > 0 or component.label == "saboteur")
            for seq in component.events:
                assert seq in accepted and round_of[seq] == component.round
                assert moves[seq]["type"] in ("predict", "saboteur", "play")
