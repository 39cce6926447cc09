"""Tricks: follow the led colour, red trumps, and the winner returns a fitting seal."""

from dataclasses import replace

import pytest

from engine.games.sieben_siegel import GAME
from engine.games.sieben_siegel.seals import supply
from engine.games.sieben_siegel.state import (
    RETURN,
    TRICK,
    BlackSealTaken,
    CardPlayed,
    NoBlackSealLeft,
    Seal,
    SealChoice,
    SealReturned,
    TrickWon,
)
from tests.engine.sieben_siegel.support import (
    ALL_SEALS,
    FRANK,
    KATRIN,
    PETER,
    SABINE,
    Driver,
    at_tricks,
    held,
    illegal,
    seals,
)


def example_3():
    """The seats and seals of the rule book's example 2, with hands fitting example 3."""
    return at_tricks(
        (
            ("Y10", "B1", "V2", "V8"),  # Frank
            ("R3", "Y4", "B2", "V12"),  # Sabine: no violet besides the 12
            ("Y2", "B3", "V1", "V7"),  # Katrin, the saboteur
            ("Y9", "G3", "G8", "B4"),  # Peter: no violet
        ),
        held=(
            seals("red", "green", "blue", "blue"),
            seals("red", "red", "red", "violet", "violet", "white"),
            (),
            seals("yellow", "yellow", "green", "blue"),
        ),
        saboteur=KATRIN,
        turn=FRANK,
    )


def test_example_3a_highest_violet_wins_without_red_and_sabine_returns_a_violet_seal():
    play = Driver(example_3())
    play.play(FRANK, "V2")
    play.play(SABINE, "V12")
    play.play(KATRIN, "V7")
    facts = play.play(PETER, "G3")  # Peter has no violet: any card
    assert facts == (
        CardPlayed(PETER, "G3"),
        TrickWon(SABINE, 1, "V", ("V2", "V12", "V7", "G3")),
        SealChoice(SABINE, ("violet", "white")),  # white always fits too
    )
    assert play.state.phase == RETURN and GAME.to_act(play.state) == (SABINE,)
    assert GAME.legal_moves(play.state, SABINE) == (
        {"type": "return", "seal": "violet"},
        {"type": "return", "seal": "white"},
    )
    assert play(SABINE, {"type": "return", "seal": "violet"}) == (SealReturned(SABINE, "violet"),)
    assert held(play.state, SABINE) == {"red": 3, "violet": 1, "white": 1}
    assert play.state.phase == TRICK and GAME.to_act(play.state) == (SABINE,)


def test_example_3b_frank_wins_yellow_holding_no_yellow_seal_and_takes_a_black_one():
    play = Driver(example_3())
    play.trick("V2", "V12", "V7", "G3")
    play(SABINE, {"type": "return", "seal": "violet"})
    facts = play.trick("Y4", "Y2", "Y9", "Y10")
    assert facts[-2:] == (
        TrickWon(FRANK, 2, "Y", ("Y4", "Y2", "Y9", "Y10")),
        BlackSealTaken(FRANK),
    )
    assert held(play.state, FRANK)["black"] == 1
    assert play.state.seals[FRANK][-1] == Seal("black", (play.seq - 2,))
    assert GAME.to_act(play.state) == (FRANK,) and play.state.phase == TRICK


def test_example_3c_sabine_trumps_with_red_and_may_return_red_or_violet():
    play = Driver(example_3())
    play.trick("V2", "V12", "V7", "G3")
    play(SABINE, {"type": "return", "seal": "violet"})
    play.trick("Y4", "Y2", "Y9", "Y10")
    facts = play.trick("V8", "R3", "V1", "G8")
    assert facts[-2:] == (
        TrickWon(SABINE, 3, "V", ("V8", "R3", "V1", "G8")),
        SealChoice(SABINE, ("red", "violet", "white")),
    )
    moves = GAME.legal_moves(play.state, SABINE)
    assert {"type": "return", "seal": "red"} in moves
    assert {"type": "return", "seal": "violet"} in moves
    play(SABINE, {"type": "return", "seal": "red"})
    assert held(play.state, SABINE) == {"red": 2, "violet": 1, "white": 1}


def test_example_1_frank_returns_yellow_for_yellow_blue_for_blue_and_takes_black_for_green():
    """The overview: Frank predicted 3 yellow and 2 blue tricks."""
    state = at_tricks(
        (("Y9", "B9", "G9", "Y1"), ("Y2", "B2", "G2", "Y3"), ("Y4", "B3", "G3", "Y5")),
        held=(seals("yellow", "yellow", "yellow", "blue", "blue"), (), ()),
    )
    play = Driver(state)
    assert play.trick("Y9", "Y2", "Y4")[-1] == SealReturned(0, "yellow")
    assert play.trick("B9", "B2", "B3")[-1] == SealReturned(0, "blue")
    assert held(play.state, 0) == {"yellow": 2, "blue": 1}
    assert play.trick("G9", "G2", "G3")[-1] == BlackSealTaken(0)
    assert held(play.state, 0) == {"yellow": 2, "blue": 1, "black": 1}


def refused_unfollowed(state, seat, card, led):
    """`card` is refused from `seat`, who holds the `led` colour and so must follow it."""
    illegal(state, seat, {"type": "play", "card": card}, "must-follow-suit",
            f"you hold {led}, so you must follow {led}")


def test_a_seat_holding_the_led_colour_must_follow_it():
    state = at_tricks((("Y5", "R9"), ("Y7", "G1"), ("B1", "B2")))
    play = Driver(state)
    play.play(0, "Y5")
    refused_unfollowed(play.state, 1, "G1", "yellow")
    assert GAME.legal_moves(play.state, 1) == ({"type": "play", "card": "Y7"},)


def test_a_seat_without_the_led_colour_may_play_any_card_trumping_is_not_compulsory():
    state = at_tricks((("Y5", "R9"), ("R1", "G1"), ("B1", "B2")))
    play = Driver(state)
    play.play(0, "Y5")
    assert GAME.legal_moves(play.state, 1) == (
        {"type": "play", "card": "R1"},
        {"type": "play", "card": "G1"},
    )
    play.play(1, "G1")
    play.play(2, "B2")
    assert play.facts[-2] == TrickWon(0, 1, "Y", ("Y5", "G1", "B2"))


def red_led():
    """Seat 0 leads red 5; seat 1 holds red 2 and green 1; seat 2 holds no red."""
    play = Driver(at_tricks((("R5", "B1"), ("R2", "G1"), ("Y3", "B2"))))
    play.play(0, "R5")
    return play


def test_a_red_lead_must_be_followed_by_a_seat_holding_red():
    """Red is trump and is followed like any colour: "Ciascuno deve, al proprio turno, giocare
    una carta del colore chiesto, se è possibile"."""
    play = red_led()
    refused_unfollowed(play.state, 1, "G1", "red")
    assert GAME.legal_moves(play.state, 1) == ({"type": "play", "card": "R2"},)


def test_a_seat_void_in_red_may_play_any_card_on_a_red_lead():
    play = red_led()
    play.play(1, "R2")
    assert GAME.legal_moves(play.state, 2) == (
        {"type": "play", "card": "Y3"},
        {"type": "play", "card": "B2"},
    )
    play.play(2, "Y3")
    assert TrickWon(0, 1, "R", ("R5", "R2", "Y3")) in play.facts


def test_the_highest_red_wins_over_any_card_of_the_led_colour():
    state = at_tricks((("Y9", "B9"), ("R1", "B8"), ("R2", "B7")))
    play = Driver(state)
    play.trick("Y9", "R1", "R2")
    assert any(f == TrickWon(2, 1, "Y", ("Y9", "R1", "R2")) for f in play.facts)
    assert GAME.to_act(play.state) == (2,)


def test_the_highest_card_of_the_led_colour_wins_other_colours_never_do():
    state = at_tricks((("B2", "B9"), ("G9", "Y8"), ("B3", "B7")))
    play = Driver(state)
    play.trick("B2", "G9", "B3")
    assert TrickWon(2, 1, "B", ("B2", "G9", "B3")) in play.facts


def test_the_winner_leads_the_next_trick_with_any_card():
    state = at_tricks((("B2", "R9", "B4"), ("G9", "Y8", "G1"), ("B3", "Y7", "R1")))
    play = Driver(state)
    play.trick("B2", "G9", "B3")
    assert GAME.to_act(play.state) == (2,)
    assert GAME.legal_moves(play.state, 2) == (
        {"type": "play", "card": "Y7"},
        {"type": "play", "card": "R1"},
    )


def test_playing_a_card_not_held_is_refused_without_naming_whose_it_is():
    state = at_tricks((("B2", "R9"), ("G9", "B8"), ("B3", "Y7")))
    detail = illegal(state, 0, {"type": "play", "card": "G9"}, "card-not-held",
                     "you do not hold G9")
    assert "seat 1" not in detail


@pytest.mark.parametrize("card", ["R10", "X1", "V0", "Y"])
def test_playing_a_card_that_is_not_in_the_game_is_refused(card):
    state = at_tricks((("B2", "R9"), ("G9", "B8"), ("B3", "Y7")))
    illegal(state, 0, {"type": "play", "card": card}, "no-such-card", "values 1 to 9")


def test_a_play_without_a_card_is_malformed_and_out_of_turn_is_refused():
    state = at_tricks((("B2", "R9"), ("G9", "B8"), ("B3", "Y7")))
    illegal(state, 0, {"type": "play"}, "malformed-move", "a play names its card")
    illegal(state, 1, {"type": "play", "card": "G9"}, "not-your-turn", "seat 0's turn")


def test_with_one_fitting_seal_it_is_returned_with_the_last_card():
    state = at_tricks(
        (("B9", "R9"), ("B1", "B8"), ("B3", "Y7")),
        held=(seals("blue", "red", "yellow"), (), ()),
    )
    play = Driver(state)
    facts = play.trick("B9", "B1", "B3")
    assert facts[-1] == SealReturned(0, "blue")
    assert held(play.state, 0) == {"red": 1, "yellow": 1}
    assert play.state.phase == TRICK


def test_a_white_seal_alone_fits_any_trick_and_is_returned_automatically():
    state = at_tricks(
        (("B9", "R9"), ("B1", "B8"), ("B3", "Y7")), held=(seals("white", "red"), (), ())
    )
    play = Driver(state)
    assert play.trick("B9", "B1", "B3")[-1] == SealReturned(0, "white")


def test_the_winner_may_return_a_white_seal_though_holding_the_led_colour():
    state = at_tricks(
        (("B9", "R9"), ("B1", "B8"), ("B3", "Y7")), held=(seals("blue", "white"), (), ())
    )
    play = Driver(state)
    play.trick("B9", "B1", "B3")
    play(0, {"type": "return", "seal": "white"})
    assert held(play.state, 0) == {"blue": 1}


def test_a_red_led_trick_takes_back_red_or_white_never_another_colour():
    state = at_tricks(
        (("R9", "B9"), ("R1", "B8"), ("R3", "Y7")),
        held=(seals("blue", "red", "white"), (), ()),
    )
    play = Driver(state)
    assert play.trick("R9", "R1", "R3")[-1] == SealChoice(0, ("red", "white"))
    illegal(
        play.state,
        0,
        {"type": "return", "seal": "blue"},
        "seal-does-not-fit",
        "a trick led in red takes back a red or white seal",
        "blue does not fit",
    )


def test_a_red_led_trick_won_by_a_seat_with_only_other_colours_brings_a_black_seal():
    state = at_tricks(
        (("R9", "B9"), ("R1", "B8"), ("R3", "Y7")), held=(seals("blue", "yellow"), (), ())
    )
    play = Driver(state)
    assert play.trick("R9", "R1", "R3")[-1] == BlackSealTaken(0)


def test_a_trumped_trick_with_only_the_led_colour_held_returns_it_automatically():
    state = at_tricks(
        (("B9", "B2"), ("R1", "G8"), ("B3", "Y7")), held=((), seals("blue", "green"), ())
    )
    play = Driver(state)
    assert play.trick("B9", "R1", "B3")[-1] == SealReturned(1, "blue")


def test_a_trumped_trick_with_only_red_held_returns_red_automatically():
    state = at_tricks(
        (("B9", "B2"), ("R1", "G8"), ("B3", "Y7")), held=((), seals("red", "green"), ())
    )
    play = Driver(state)
    assert play.trick("B9", "R1", "B3")[-1] == SealReturned(1, "red")


def test_returning_a_fitting_seal_not_held_is_refused():
    state = at_tricks(
        (("B9", "B2"), ("R1", "G8"), ("B3", "Y7")), held=((), seals("red", "white"), ())
    )
    play = Driver(state)
    play.trick("B9", "R1", "B3")
    illegal(
        play.state,
        1,
        {"type": "return", "seal": "blue"},
        "seal-not-held",
        "you hold no blue seal",
        "return one you hold (red, white)",
    )
    illegal(
        play.state,
        1,
        {"type": "return", "seal": "green"},
        "seal-does-not-fit",
        "a blue trick won by trumping with red takes back a red, blue or white seal",
    )
    illegal(
        play.state,
        1,
        {"type": "return", "seal": "black"},
        "seal-does-not-fit",
        "takes back a red, blue or white seal: black does not fit",
    )
    illegal(play.state, 1, {"type": "return", "seal": "gold"}, "no-such-seal", "the seals are")
    illegal(play.state, 1, {"type": "return"}, "no-such-seal", "the seals are red, yellow")


def test_while_a_seal_is_awaited_only_the_winner_acts_and_only_by_returning():
    state = at_tricks(
        (("B9", "B2"), ("R1", "G8"), ("B3", "Y7")), held=((), seals("red", "white"), ())
    )
    play = Driver(state)
    play.trick("B9", "R1", "B3")
    illegal(play.state, 1, {"type": "play", "card": "G8"}, "must-return-seal", "red, white")
    illegal(play.state, 2, {"type": "play", "card": "Y7"}, "not-your-turn", "seat 1's turn")
    assert GAME.legal_moves(play.state, 2) == ()


def test_returning_a_seal_when_no_trick_awaits_one_is_refused():
    state = at_tricks((("B9", "B2"), ("R1", "G8"), ("B3", "Y7")))
    illegal(state, 0, {"type": "return", "seal": "white"}, "nothing-to-return", "no trick")


def test_with_all_six_black_seals_out_a_winner_without_a_fitting_seal_takes_nothing():
    state = at_tricks(
        (("B9", "B2"), ("B1", "G8"), ("B3", "Y7")),
        held=(seals("red"), seals(*["black"] * 4), seals("black", "black")),
    )
    assert supply(state)["black"] == 0
    play = Driver(state)
    assert play.trick("B9", "B1", "B3")[-1] == NoBlackSealLeft(0)
    assert held(play.state, 0) == {"red": 1}


def test_the_saboteur_wins_tricks_but_never_returns_or_takes_a_seal():
    state = at_tricks(
        (("B9", "B2"), ("B1", "G8"), ("B3", "Y7")),
        held=((), seals("blue"), seals("blue")),
        saboteur=0,
    )
    play = Driver(state)
    facts = play.trick("B9", "B1", "B3")
    assert facts[-1] == TrickWon(0, 1, "B", ("B9", "B1", "B3"))
    assert play.state.seals[0] == () and GAME.to_act(play.state) == (0,)


def test_the_round_ends_after_the_seal_of_the_last_trick_is_chosen():
    state = replace(
        at_tricks((("B9",), ("R1",), ("B3",)), held=((), seals("red", "blue"), ()), rounds=2),
    )
    play = Driver(state)
    play.trick("B9", "R1", "B3")
    assert play.state.phase == RETURN and play.state.round == 1
    play(1, {"type": "return", "seal": "blue"})
    assert play.state.round == 2 and GAME.to_act(play.state) == (1,)
    assert [c.points for c in play.state.scored[1]] == [2]


def test_seals_and_the_saboteur_go_back_to_the_middle_for_the_next_round():
    state = at_tricks(
        (("B9",), ("B1",), ("B3",)),
        held=(seals("black", "red"), (), seals(*["black"] * 5)),
        saboteur=1,
        rounds=2,
    )
    play = Driver(state)
    play.trick("B9", "B1", "B3")  # seat 0 has no blue seal, but every black seal is out
    assert NoBlackSealLeft(0) in play.facts
    assert play.state.round == 2 and play.state.saboteur is None
    assert play.state.seals == ((), (), ())
    assert supply(play.state) == ALL_SEALS
    assert {"type": "saboteur"} in GAME.legal_moves(play.state, 1)


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_at_every_player_count_follow_trump_win_choose_a_seal_and_lead(seats):
    """Seat 1 must follow yellow; seat 2, void, trumps with red 2 and beats yellow 9; holding
    red and yellow seals it chooses; seats void in yellow discard; the winner leads next."""
    hands = [("Y5", "B1"), ("Y9", "G1"), ("R2", "B2"), ("B3", "G3"), ("G4", "B4")][:seats]
    held_seals = ((), (), seals("red", "yellow"), (), ())[:seats]
    play = Driver(at_tricks(tuple(hands), held=held_seals))
    play.play(0, "Y5")
    refused_unfollowed(play.state, 1, "G1", "yellow")
    play.play(1, "Y9")
    assert len(GAME.legal_moves(play.state, 2)) == 2  # void in yellow: any card
    play.play(2, "R2")
    for seat in range(3, seats):
        play.play(seat, hands[seat][0])
    cards = tuple(hand[0] for hand in hands)
    assert play.facts[-2:] == [TrickWon(2, 1, "Y", cards), SealChoice(2, ("red", "yellow"))]
    play(2, {"type": "return", "seal": "yellow"})
    assert held(play.state, 2) == {"red": 1}
    assert GAME.legal_moves(play.state, 2) == ({"type": "play", "card": "B2"},)


def test_no_move_is_taken_once_the_game_is_over():
    play = Driver(at_tricks((("B9",), ("B1",), ("B3",)), rounds=1))
    play.trick("B9", "B1", "B3")
    assert GAME.is_over(play.state) and GAME.to_act(play.state) == ()
    assert GAME.legal_moves(play.state, 0) == ()
    illegal(play.state, 0, {"type": "play", "card": "B9"}, "game-finished", "the game is over")
