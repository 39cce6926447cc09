"""The deck, the deal per player count, options and the first turn."""

from collections import Counter

import pytest

from engine.game import BadSetup
from engine.games.keltis_card import GAME
from engine.shuffle import shuffle
from tests.engine.keltis_card.support import CANONICAL, dealt, stack


def test_canonical_deck_is_101_cards_colour_by_colour_then_point_cards():
    red = ["R0", "R1", "R2", "R3", "R3", "R4", "R4", "R5", "R5", "R6", "R6", "R7", "R7", "R8",
           "R9", "R10", "RF", "RF"]
    assert list(CANONICAL[:18]) == red
    assert len(CANONICAL) == 101
    assert CANONICAL[-11:] == tuple(f"P{v}" for v in range(11))
    assert [c[0] for c in CANONICAL[:90:18]] == ["R", "Y", "G", "B", "V"]
    assert not any(c.startswith("W") for c in CANONICAL)


def test_the_seeded_deck_is_the_contract_shuffle_labelled_deal_1():
    state = dealt(3, seed="abc")
    deck = shuffle(CANONICAL, "abc", "deal-1")
    assert state.hands == (tuple(deck[0:8]), tuple(deck[8:16]), tuple(deck[16:24]))
    assert state.piles.deck == tuple(deck[24:])


@pytest.mark.parametrize(("seats", "pile"), [(2, 55), (3, 77), (4, 69)])
def test_eight_cards_each_and_the_draw_pile_per_player_count(seats, pile):
    state = dealt(seats)
    assert [len(h) for h in state.hands] == [8] * seats
    assert len(state.piles.deck) == pile


def test_hands_are_whole_hands_from_the_top_seat_0_first():
    deck = stack("R0", "R1", "R2", "R3", "R3", "R4", "R4", "R5", "G0", "G1")
    state = dealt(2, deck)
    assert state.hands[0] == deck[:8] and state.hands[1] == deck[8:16]


def test_two_players_set_aside_the_bottom_30_cards_unseen():
    deck = stack()
    state = dealt(2, deck)
    assert state.set_aside == deck[-30:]
    assert state.piles.deck == deck[16:-30]
    assert Counter([*state.piles.deck, *state.set_aside, *state.hands[0], *state.hands[1]]) == \
        Counter(CANONICAL)


@pytest.mark.parametrize("seats", [3, 4])
def test_three_and_four_players_set_nothing_aside(seats):
    assert dealt(seats).set_aside == ()


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_nine_wish_stones_lie_in_the_middle_and_seat_0_begins(seats):
    state = dealt(seats)
    assert state.stones == tuple(range(1, 10))
    assert GAME.to_act(state) == (0,) and GAME.round(state) == 1 and not GAME.is_over(state)
    assert GAME.view(state, "spectator")["wish_stones"] == [f"W{v}" for v in range(1, 10)]


def test_no_options_and_two_to_four_players():
    assert GAME.options(3, {}) == {}
    with pytest.raises(BadSetup):
        GAME.options(3, {"variant": 1})
    with pytest.raises(BadSetup):
        GAME.options(5, {})
