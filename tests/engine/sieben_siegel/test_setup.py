"""Setup: the cards by player count, the deal, the options, who begins each round."""

import pytest

from engine.game import SPECTATOR, BadSetup, Table
from engine.games import GAMES
from engine.games.sieben_siegel import GAME
from engine.games.sieben_siegel.seals import supply
from engine.games.sieben_siegel.state import PREDICT
from engine.shuffle import shuffle
from tests.engine.sieben_siegel.support import (
    ALL_SEALS,
    Driver,
    dealt,
    deck_for,
    finish_round,
    table,
)


@pytest.mark.parametrize(("seats", "top"), [(3, 9), (4, 12), (5, 15)])
def test_the_deck_has_values_1_to_9_12_or_15_in_each_colour_colour_by_colour(seats, top):
    deck = GAME.canonical_deck(seats, {})
    assert len(deck) == 5 * top == 15 * seats
    assert deck[:2] == ("R1", "R2") and deck[top - 1] == f"R{top}" and deck[top] == "Y1"
    assert deck[-1] == f"V{top}"


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_whole_hands_of_15_are_dealt_from_the_top_seat_0_first(seats):
    deck = tuple(shuffle(GAME.canonical_deck(seats, {}), "s", "deal-1"))
    state = dealt(seats, seed="s")
    for seat in range(seats):
        assert sorted(state.hands[seat]) == sorted(deck[15 * seat : 15 * seat + 15])
    assert sum(len(h) for h in state.hands) == len(deck)


def test_an_explicit_deck_is_dealt_as_given():
    deck = deck_for(3, ("V9", "R1"))
    state = dealt(3, deck)
    assert "V9" in state.hands[0] and "R1" in state.hands[0]
    assert state.hands[1] == tuple(sorted(deck[15:30], key=GAME.canonical_deck(3, {}).index))


def test_hands_are_sorted_colour_by_colour_and_by_value():
    state = dealt(5, seed="sorted")
    order = GAME.canonical_deck(5, {})
    for hand in state.hands:
        assert list(hand) == sorted(hand, key=order.index)


def test_the_first_round_begins_with_seat_0_predicting():
    state = dealt(4)
    assert state.phase == PREDICT and state.round == 1
    assert GAME.to_act(state) == (0,)
    assert state.seals == ((),) * 4 and state.saboteur is None


@pytest.mark.parametrize(("seats", "rounds"), [(3, 6), (4, 4), (5, 5)])
def test_a_game_has_as_many_rounds_as_players_and_six_with_three(seats, rounds):
    assert GAME.options(seats, {}) == {"rounds": rounds, "saboteur_max": 4}


def test_options_rounds_and_saboteur_max_are_taken():
    assert GAME.options(3, {"rounds": 2, "saboteur_max": 6}) == {"rounds": 2, "saboteur_max": 6}


@pytest.mark.parametrize(
    "options",
    [
        {"rounds": 0},
        {"rounds": "2"},
        {"rounds": True},
        {"saboteur_max": 3},
        {"saboteur_max": 7},
        {"saboteur_max": 5.0},
        {"colour": "red"},
    ],
)
def test_bad_options_are_refused(options):
    with pytest.raises(BadSetup):
        GAME.options(4, options)


def test_two_or_six_players_are_refused():
    with pytest.raises(BadSetup):
        GAME.options(2, {})
    with pytest.raises(BadSetup):
        GAME.options(6, {})


def test_the_game_is_registered_and_lowest_wins():
    assert GAMES["sieben-siegel"].title is GAME
    assert GAME.lowest_wins and GAME.board() is None


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_round_r_is_dealt_from_deal_r_and_begun_by_seat_r_minus_1_mod_n(seats):
    state = dealt(seats, seed="rounds", rounds=seats + 1)
    for number in range(1, seats + 2):
        assert state.round == number and GAME.round(state) == number
        assert state.first == (number - 1) % seats
        assert GAME.to_act(state) == ((number - 1) % seats,)
        deck = table(seats, seed="rounds").deck(number, GAME.canonical_deck(seats, {}))
        assert sorted(state.hands[0]) == sorted(deck[:15])
        state = finish_round(state)
    assert GAME.is_over(state)


def test_the_first_seat_of_a_round_also_leads_its_first_trick():
    state = finish_round(dealt(4, seed="lead"))
    play = Driver(state)
    for seat in (1, 2, 3, 0):
        play(seat, {"type": "predict", "seals": {}})
    assert GAME.to_act(play.state) == (1,)
    assert GAME.legal_moves(play.state, 1)[0]["type"] == "play"


def test_the_27_seals_are_5_red_3_of_each_other_colour_4_white_and_6_black():
    state = dealt(4)
    assert supply(state) == ALL_SEALS
    assert sum(supply(state).values()) == 27
    assert GAME.view(state, SPECTATOR)["supply"] == supply(state)


def test_a_table_whose_options_were_never_filled_in_still_plays_six_rounds_with_three():
    state = GAME.deal(Table(3, {}, "raw"))
    assert GAME.view(state, SPECTATOR)["rounds"] == 6
    for number in range(1, 7):
        assert state.round == number and not GAME.is_over(state)
        state = finish_round(state)
    assert GAME.is_over(state)
