"""The prediction: each seat once, clockwise, takes seals for its tricks or the saboteur."""

from dataclasses import replace

import pytest

from engine.games.sieben_siegel import GAME
from engine.games.sieben_siegel.seals import supply
from engine.games.sieben_siegel.state import (
    TRICK,
    Predicted,
    SaboteurTaken,
    Seal,
    SealTakenFrom,
)
from tests.engine.sieben_siegel.support import (
    FRANK,
    KATRIN,
    PETER,
    SABINE,
    Driver,
    dealt,
    finish_round,
    held,
    illegal,
    seals,
)


def predict(seals_, **sources):
    move = {"type": "predict", "seals": seals_}
    if sources:
        move["from"] = sources
    return move


def test_example_2_a_missing_blue_seal_is_taken_from_sabine_who_gets_a_white_one():
    play = Driver(dealt(4))
    play(FRANK, predict({"red": 1, "blue": 2, "green": 1}))
    play(SABINE, predict({"violet": 2, "blue": 1, "red": 3}))
    assert play(KATRIN, {"type": "saboteur"}) == (SaboteurTaken(KATRIN),)
    assert supply(play.state)["blue"] == 0
    facts = play(PETER, predict({"yellow": 2, "green": 1, "blue": 1}, blue=[SABINE]))
    assert facts == (
        Predicted(PETER, ("yellow", "yellow", "green", "blue")),
        SealTakenFrom(PETER, "blue", SABINE),
    )
    assert held(play.state, FRANK) == {"red": 1, "green": 1, "blue": 2}
    assert held(play.state, SABINE) == {"red": 3, "violet": 2, "white": 1}
    assert held(play.state, KATRIN) == {}
    assert held(play.state, PETER) == {"yellow": 2, "green": 1, "blue": 1}
    assert supply(play.state)["white"] == 3
    assert play.state.phase == TRICK and GAME.to_act(play.state) == (FRANK,)


def test_seals_taken_remember_the_prediction_that_took_them():
    play = Driver(dealt(4))
    play(0, predict({"blue": 3}))  # seq 2
    play(1, predict({"blue": 1}, blue=[0]))  # seq 4
    assert play.state.seals[0] == (Seal("blue", (2,)), Seal("blue", (2,)), Seal("white", (4,)))
    assert play.state.seals[1] == (Seal("blue", (4,)),)


def test_predicting_no_trick_at_all_is_a_legal_prediction():
    play = Driver(dealt(4))
    assert play(0, predict({})) == (Predicted(0, ()),)
    assert play(1, predict({"red": 0})) == (Predicted(1, ()),)
    assert {"type": "predict", "seals": {}} in GAME.legal_moves(play.state, 2)
    assert held(play.state, 0) == {} and GAME.to_act(play.state) == (2,)


def test_predictions_go_clockwise_from_the_first_seat_then_the_tricks_begin():
    play = Driver(dealt(3))
    for seat in (0, 1, 2):
        assert GAME.to_act(play.state) == (seat,)
        play(seat, predict({}))
    assert play.state.phase == TRICK and play.state.acted == (0, 1, 2)


def test_nobody_need_take_the_saboteur():
    play = Driver(dealt(3))
    for seat in (0, 1, 2):
        play(seat, predict({"red": 1}))
    assert play.state.saboteur is None and play.state.phase == TRICK


def test_the_last_seat_may_take_the_saboteur():
    play = Driver(dealt(3))
    play(0, predict({}))
    play(1, predict({}))
    assert {"type": "saboteur"} in GAME.legal_moves(play.state, 2)
    play(2, {"type": "saboteur"})
    assert play.state.saboteur == 2 and play.state.saboteur_event == 6


def test_only_one_seat_may_take_the_saboteur_and_later_seats_must_predict():
    play = Driver(dealt(4))
    play(0, {"type": "saboteur"})
    illegal(play.state, 1, {"type": "saboteur"}, "saboteur-taken", "seat 0", "must predict")
    assert {"type": "saboteur"} not in GAME.legal_moves(play.state, 1)
    assert all(m["type"] == "predict" for m in GAME.legal_moves(play.state, 1))


def test_the_supply_is_used_first_and_only_the_missing_seals_come_from_other_seats():
    play = Driver(dealt(4))
    play(0, predict({"blue": 2}))
    play(1, predict({"blue": 3}, blue=[0, 0]))
    assert held(play.state, 0) == {"white": 2}
    assert held(play.state, 1) == {"blue": 3}
    assert supply(play.state)["blue"] == 0 and supply(play.state)["white"] == 2


def test_missing_seals_may_come_from_several_seats():
    play = Driver(dealt(4))
    play(0, predict({"yellow": 2}))
    play(1, predict({"yellow": 1}))
    play(2, predict({"yellow": 2}, yellow=[1, 0]))
    assert held(play.state, 0) == {"yellow": 1, "white": 1}
    assert held(play.state, 1) == {"white": 1}


def test_naming_a_seat_when_the_supply_has_the_seal_is_refused():
    illegal(
        dealt(4),
        0,
        predict({"blue": 1}, blue=[1]),
        "from-not-needed",
        "supply holds 3 blue",
        "only when the supply lacks it",
    )


def test_a_missing_seal_without_a_seat_to_take_it_from_is_refused():
    state = Driver(dealt(4))
    state(0, predict({"blue": 3}))
    illegal(
        state.state,
        1,
        predict({"blue": 1}),
        "from-count",
        "supply holds only 0 blue",
        "comes from another seat",
        'name 1 seat in "from", not 0',
    )
    illegal(state.state, 1, predict({"blue": 1}, blue=[0, 0]), "from-count", "not 2")


def test_taking_from_oneself_or_a_seat_that_does_not_exist_is_refused():
    play = Driver(dealt(4))
    play(0, predict({"blue": 2}))
    play(1, predict({"blue": 1}))
    illegal(play.state, 2, predict({"blue": 1}, blue=[4]), "no-such-seat", "0 to 3")
    play(2, predict({}))
    illegal(play.state, 3, predict({"blue": 1}, blue=[3]), "take-from-self", "another seat")


def test_taking_from_a_seat_that_holds_no_such_seal_is_refused():
    play = Driver(dealt(4))
    play(0, predict({"blue": 3}))
    play(1, {"type": "saboteur"})
    illegal(
        play.state,
        2,
        predict({"blue": 1}, blue=[1]),
        "seat-lacks-seal",
        "seat 1 holds no blue seal",
    )
    illegal(
        play.state,
        2,
        predict({"blue": 4}, blue=[0, 0, 0, 0]),
        "seat-lacks-seal",
        "seat 0 holds no blue seal left",
    )


def test_with_no_white_seal_left_a_seal_cannot_be_taken_from_another_seat():
    state = replace(
        dealt(4),
        seals=(seals("blue", "blue", "white", "white"), seals("blue", "white", "white"), (), ()),
        acted=(0, 1),
        turn=2,
    )
    assert supply(state)["white"] == 0 and supply(state)["blue"] == 0
    illegal(
        state,
        2,
        predict({"blue": 1}, blue=[0]),
        "no-white-seal",
        "no white seal is left",
        "predict fewer blue tricks",
    )
    assert not any("from" in m for m in GAME.legal_moves(state, 2))


def test_exchanges_in_one_prediction_need_one_white_seal_each():
    state = replace(
        dealt(4),
        seals=(seals("blue", "blue", "blue", "white", "white", "white"), (), (), ()),
        acted=(0,),
        turn=1,
    )
    illegal(state, 1, predict({"blue": 2}, blue=[0, 0]), "no-white-seal", "no white seal is left")
    play = Driver(state)
    play(1, predict({"blue": 1}, blue=[0]))
    assert held(play.state, 0) == {"blue": 2, "white": 4}


def test_white_and_black_seals_are_never_predicted():
    illegal(dealt(4), 0, predict({"white": 1}), "seal-not-predictable", "never taken")
    illegal(dealt(4), 0, predict({"black": 1}), "seal-not-predictable", "black seals are never")


@pytest.mark.parametrize(
    ("move", "code", "rule"),
    [
        (predict({"orange": 1}), "no-such-seal", "the seal colours are red, yellow"),
        (predict({"red": -1}), "bad-seal-count", "a whole number of seals, 0 or more"),
        (predict({"red": "1"}), "bad-seal-count", "a whole number of seals"),
        (predict({"red": True}), "bad-seal-count", "a whole number of seals"),
        (predict({"red": 1.5}), "bad-seal-count", "a whole number of seals"),
        ({"type": "predict"}, "malformed-move", "a prediction names its seals"),
        ({"type": "predict", "seals": [1]}, "malformed-move", "a prediction names its seals"),
        (
            {"type": "predict", "seals": {}, "from": {"blue": 1}},
            "malformed-move",
            '"from" maps a seal colour to the seats',
        ),
        (predict({}, blue=["0"]), "malformed-move", '"from" maps a seal colour to the seats'),
        (predict({}, pink=[1]), "no-such-seal", "the seal colours are red, yellow"),
        ({"type": "bid"}, "unknown-move", "the moves of sieben-siegel are predict, saboteur"),
        ({"seals": {}}, "unknown-move", "the moves of sieben-siegel are"),
        ("predict", "malformed-move", 'a move is an object with a "type"'),
    ],
)
def test_malformed_predictions_are_refused(move, code, rule):
    illegal(dealt(4), 0, move, code, rule)


def test_predicting_out_of_turn_is_refused():
    illegal(dealt(4), 1, predict({}), "not-your-turn", "seat 0's turn")


def test_playing_a_card_before_every_seat_has_predicted_is_refused():
    state = dealt(4)
    illegal(
        state,
        0,
        {"type": "play", "card": state.hands[0][0]},
        "predictions-first",
        "every seat predicts or takes the saboteur before the first trick",
    )
    illegal(state, 0, {"type": "return", "seal": "red"}, "predictions-first", "before the first")


def test_a_second_prediction_once_the_tricks_have_begun_is_refused():
    play = Driver(dealt(3))
    for seat in (0, 1, 2):
        play(seat, predict({}))
    illegal(play.state, 0, predict({}), "predictions-over", "once", "the tricks have begun")
    illegal(play.state, 0, {"type": "saboteur"}, "predictions-over", "the tricks have begun")


def test_legal_predictions_cover_every_count_the_supply_allows_and_every_exchange():
    play = Driver(dealt(3))
    first = GAME.legal_moves(play.state, 0)
    assert len(first) == 6 * 4**4 + 1  # red 0-5, other colours 0-3, and the saboteur
    play(0, predict({"blue": 3}))
    moves = GAME.legal_moves(play.state, 1)
    assert predict({"blue": 2}, blue=[0, 0]) in moves
    assert predict({"blue": 3}, blue=[0, 0, 0]) in moves
    assert predict({"blue": 4}, blue=[0, 0, 0, 0]) not in moves
    for move in moves[:: max(1, len(moves) // 50)]:
        after = GAME.apply(play.state, 1, move, 9).state
        if move["type"] == "predict":  # the seat now holds exactly the seals it predicted
            assert held(after, 1) == {k: n for k, n in move["seals"].items() if n}, move


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_at_every_player_count_each_seat_acts_once_clockwise_from_the_rounds_first_seat(seats):
    """Round 2 begins with seat 1: seat 1 predicts, seat 2 takes the saboteur, seat 3 takes a
    blue seal the supply lacks from seat 1, and every later seat must predict."""
    state = finish_round(dealt(seats, seed=f"order-{seats}", rounds=2))
    assert state.round == 2 and GAME.to_act(state) == (1,)
    order = [(1 + k) % seats for k in range(seats)]
    play = Driver(state)
    illegal(play.state, order[-1], predict({}), "not-your-turn", "seat 1's turn")
    play(order[0], predict({"blue": 3}))
    play(order[1], {"type": "saboteur"})
    taker = order[2]
    play(taker, predict({"blue": 1}, blue=[order[0]]))
    assert held(play.state, order[0]) == {"blue": 2, "white": 1}
    assert held(play.state, taker) == {"blue": 1}
    for seat in order[3:]:
        illegal(play.state, seat, {"type": "saboteur"}, "saboteur-taken", f"seat {order[1]}")
        play(seat, predict({"red": 1}))
    assert play.state.acted == tuple(order) and play.state.saboteur == order[1]
    assert play.state.phase == TRICK and GAME.to_act(play.state) == (1,)
