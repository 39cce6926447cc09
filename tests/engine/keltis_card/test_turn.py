"""A turn: one action (play, discard or wish), then one draw per card used."""

import itertools
import random
from dataclasses import replace

import pytest

from engine.game import IllegalMove
from engine.games.keltis_card import GAME
from engine.playout import play as playout_of
from tests.engine.keltis_card.support import (
    COLOURS,
    dealt,
    draw,
    play,
    refused,
    replace_turn,
    row_cards,
    run,
    with_deck,
    with_hand,
    with_rows,
)

HAND = ("G3", "G5", "G6", "G7", "P5", "P7", "GF", "R5")


def ready(**rows):
    return with_rows(with_hand(dealt(3), 0, *HAND), 0, **rows)


# -- C. coloured cards into colour rows ----------------------------------------------------


def test_a_numbered_card_starts_its_colour_row_and_the_seat_must_then_draw():
    state, facts = run(ready(), 0, play("G5"))
    assert row_cards(state, 0, "G") == ("G5",)
    assert "G5" not in state.hands[0] and state.to_draw == 1
    assert GAME.to_act(state) == (0,)
    assert GAME.legal_moves(state, 0)[0] == draw()
    assert facts[0].to_json() == {"type": "played", "seat": 0, "card": "G5", "row": "G"}


def test_after_the_draw_the_hand_is_back_to_8_and_the_turn_passes():
    state, _ = run(ready(), 0, play("G5"), draw())
    assert len(state.hands[0]) == 8 and GAME.to_act(state) == (1,) and state.to_draw == 0


def test_example_1_ascending_row_3_3_6_7_7_and_a_5_is_then_refused():
    """Digest example 1, the seed text's "dopo un 3 può essere giocato un 3, poi un 6, poi un 7,
    poi un altro 7"; the refused 5 is the digest's derived case."""
    state = with_hand(ready(G=("G3", "G3", "G6", "G7")), 0, "G7", "G5")
    state, _ = run(state, 0, play("G7"))
    assert row_cards(state, 0, "G") == ("G3", "G3", "G6", "G7", "G7")
    detail = refused(with_hand(replace_turn(state), 0, "G5"), 0, play("G5"), "row-direction")
    assert detail == "the green row is ascending: 5 is below its highest card 7"


def test_example_2_descending_row_9_8_8_5_3_and_a_4_is_then_refused():
    """Digest example 2, the seed text's "dopo un 9 può essere giocato un 8, poi un altro 8, poi
    un 5, quindi un 3"; the refused 4 is the digest's derived case."""
    state = with_hand(ready(B=("B9", "B8", "B8", "B5")), 0, "B3", "B4")
    state, _ = run(state, 0, play("B3"))
    assert row_cards(state, 0, "B") == ("B9", "B8", "B8", "B5", "B3")
    detail = refused(with_hand(replace_turn(state), 0, "B4"), 0, play("B4"), "row-direction")
    assert detail == "the blue row is descending: 4 is above its lowest card 3"


def test_open_question_1_a_row_of_equal_values_is_open_to_either_side():
    state = with_hand(ready(G=("G6", "G6")), 0, "G3")
    assert GAME.apply(state, 0, play("G3"), 5).state.to_draw == 1
    state = with_hand(ready(G=("G6", "G6")), 0, "G7")
    assert GAME.apply(state, 0, play("G7"), 5).state.to_draw == 1


def test_open_question_2_a_row_begun_with_0_only_rises_and_with_10_only_falls():
    state = with_hand(ready(R=("R0",), Y=("Y10",)), 0, "R3", "Y3")
    state, _ = run(state, 0, play("R3"))
    assert row_cards(state, 0, "R") == ("R0", "R3")
    state, _ = run(state, 0, draw(), seq=20)
    state = with_hand(replace_turn(state), 0, "Y3")
    state, _ = run(state, 0, play("Y3"))
    assert row_cards(state, 0, "Y") == ("Y10", "Y3")


def test_open_question_2_once_a_0_row_rises_lower_cards_are_refused_and_a_10_row_likewise():
    state = with_hand(ready(R=("R0", "R3"), Y=("Y10", "Y3")), 0, "R2", "Y5")
    detail = refused(state, 0, play("R2"), "row-direction")
    assert detail == "the red row is ascending: 2 is below its highest card 3"
    detail = refused(state, 0, play("Y5"), "row-direction")
    assert detail == "the yellow row is descending: 5 is above its lowest card 3"


def test_a_coloured_card_named_into_another_colour_row_is_refused():
    refused(ready(), 0, play("G5", "R"), "wrong-row", "own colour")


def test_a_final_card_goes_only_into_the_row_of_its_colour():
    detail = refused(ready(R=("R4",)), 0, play("GF", "R"), "wrong-row")
    assert detail == (
        "a coloured card goes only into the row of its own colour: GF is green, not red"
    )


def test_a_coloured_card_may_name_its_own_row():
    state, _ = run(ready(), 0, play("G5", "G"))
    assert row_cards(state, 0, "G") == ("G5",)


def test_open_question_3_a_final_card_may_start_an_empty_row():
    state, _ = run(ready(), 0, play("GF"))
    assert row_cards(state, 0, "G") == ("GF",)


def test_open_question_4_after_a_final_no_numbered_nor_point_card_may_follow():
    state = ready(G=("G5", "GF"))
    refused(state, 0, play("G6"), "after-final", "only the second green final")
    refused(state, 0, play("P5", "G"), "after-final")


def test_a_final_card_may_follow_point_cards_and_the_second_final_closes_the_row():
    state, _ = run(ready(G=("G5", "P5")), 0, play("GF"))
    assert row_cards(state, 0, "G") == ("G5", "P5", "GF")
    closed = with_hand(ready(G=("G5", "GF", "GF")), 0, "GF")
    refused(closed, 0, play("GF"), "row-closed", "closed")


# -- D. point cards --------------------------------------------------------------------------


def test_a_point_card_without_a_row_goes_into_the_point_row():
    state, facts = run(ready(), 0, play("P7"))
    assert state.tableaux[0].point_row.cards == ("P7",)
    assert facts[0].row == "points"


def test_a_point_card_joins_a_colour_row_on_a_last_numbered_card_of_its_value():
    state, _ = run(ready(G=("G3", "G5")), 0, play("P5", "G"))
    assert row_cards(state, 0, "G") == ("G3", "G5", "P5")


def test_a_point_card_of_another_value_is_refused_from_a_colour_row():
    refused(ready(G=("G3", "G5")), 0, play("P7", "G"), "point-card-value",
            "last numbered card of the green row is 5, not 7")
    refused(ready(), 0, play("P7", "G"), "point-card-value")


def test_a_point_card_into_an_unknown_row_is_refused():
    refused(ready(), 0, play("P7", "X"), "no-such-row", "colour rows")


# -- A. discarding and drawing ------------------------------------------------------------------


def test_a_discard_goes_on_its_colour_pile_or_the_point_pile():
    state, facts = run(ready(), 0, {"type": "discard", "card": "G7"})
    assert state.piles.top("G") == "G7" and state.to_draw == 1
    assert facts[0].to_json() == {"type": "discarded", "seat": 0, "card": "G7"}
    state, _ = run(ready(), 0, {"type": "discard", "card": "P5"})
    assert state.piles.top("P") == "P5"


def test_a_card_not_in_hand_cannot_be_discarded():
    detail = refused(ready(), 0, {"type": "discard", "card": "B9"}, "not-in-hand")
    assert detail == "B9 is not in your hand: only own cards are used"


def test_the_card_discarded_this_turn_cannot_be_drawn_back():
    state, _ = run(ready(), 0, {"type": "discard", "card": "G7"})
    detail = refused(state, 0, draw("G"), "discarded-this-turn")
    assert detail == (
        "G7 was discarded this turn: a card discarded in the same turn cannot be drawn"
    )
    assert draw("G") not in GAME.legal_moves(state, 0)


def test_the_next_seat_may_take_the_top_of_a_colour_pile():
    state, _ = run(ready(), 0, {"type": "discard", "card": "G7"}, draw())
    state = with_hand(state, 1, "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8")
    state, facts = run(state, 1, {"type": "discard", "card": "R1"}, draw("G"))
    assert "G7" in state.hands[1] and state.piles.top("G") is None
    assert facts[-1].to_json() == {"type": "took-discard", "seat": 1, "pile": "G",
                                   "card": "G7"}


def test_open_question_6_the_point_card_pile_cannot_be_drawn_from():
    state, _ = run(ready(), 0, {"type": "discard", "card": "P5"}, draw())
    state = with_hand(state, 1, "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8")
    state, _ = run(state, 1, {"type": "discard", "card": "R1"})
    detail = refused(state, 1, draw("P"), "pile-not-drawable")
    assert detail.startswith("the point-card discard pile cannot be drawn from")
    assert draw("P") not in GAME.legal_moves(state, 1)


def test_drawing_from_an_empty_or_unknown_pile_is_refused():
    state, _ = run(ready(), 0, play("G5"))
    detail = refused(state, 0, draw("Y"), "pile-empty")
    assert detail == "the yellow discard pile is empty: there is no top card to draw"
    detail = refused(state, 0, draw("top"), "no-such-pile")
    assert detail.startswith("a draw takes the top card of the deck or of a discard pile")


def test_a_draw_must_say_where_from():
    state, _ = run(ready(), 0, play("G5"))
    for move in ({"type": "draw"}, {"type": "draw", "from": ["deck"]}):
        refused(state, 0, move, "malformed-move", '"from": "deck"')


# -- B. wish stones ----------------------------------------------------------------------------


def test_a_wish_with_a_numbered_and_a_point_card_takes_the_stone_then_two_draws():
    state, facts = run(ready(), 0, {"type": "wish", "cards": ["G5", "P5"]})
    assert state.stones == (1, 2, 3, 4, 6, 7, 8, 9)
    assert state.tableaux[0].stones.cards == ("W5",)
    assert state.piles.top("G") == "G5" and state.piles.top("P") == "P5"
    assert state.to_draw == 2 and facts[0].stone == 5
    state, _ = run(state, 0, draw(), seq=11)
    assert GAME.to_act(state) == (0,) and state.to_draw == 1
    refused(state, 0, draw("G"), "discarded-this-turn")
    state, _ = run(state, 0, draw(), seq=12)
    assert GAME.to_act(state) == (1,) and len(state.hands[0]) == 8


def test_a_wish_with_two_copies_of_one_card_blocks_their_pile_for_both_draws():
    state, _ = run(ready(), 0, {"type": "discard", "card": "G3"}, draw())
    state = replace_turn(with_hand(state, 0, "G5", "G5", "G6", "G7", "P7", "GF", "R5", "Y1"))
    state, _ = run(state, 0, {"type": "wish", "cards": ["G5", "G5"]})
    assert state.piles.discards[2] == ("G3", "G5", "G5")
    refused(state, 0, draw("G"), "discarded-this-turn")
    state, _ = run(state, 0, draw(), seq=11)
    refused(state, 0, draw("G"), "discarded-this-turn")
    assert draw("G") not in GAME.legal_moves(state, 0)


def test_the_second_draw_after_a_wish_may_come_from_an_older_pile():
    state, _ = run(ready(), 0, {"type": "discard", "card": "R5"}, draw("deck"))
    state = replace_turn(with_hand(state, 0, *HAND[:7], "Y5"))
    state, _ = run(state, 0, {"type": "wish", "cards": ["G5", "Y5"]}, draw(), draw("R"))
    assert "R5" in state.hands[0]


def test_both_draws_after_a_wish_may_come_from_the_same_older_pile():
    state = replace_turn(ready(), seat=0)
    state = replace(state, piles=state.piles.discard("R1").discard("R2").end_turn())
    state, facts = run(state, 0, {"type": "wish", "cards": ["G5", "P5"]}, draw("R"), draw("R"))
    assert [f.card for f in facts[1:3]] == ["R2", "R1"] and state.piles.top("R") is None
    assert GAME.to_act(state) == (1,)


def test_a_wish_of_two_cards_of_one_code_needs_both_copies():
    state = with_hand(ready(), 0, "G5", "G5", "G3", "G6", "G7", "P7", "GF", "R7")
    state, _ = run(state, 0, {"type": "wish", "cards": ["G5", "G5"]})
    assert state.tableaux[0].stones.cards == ("W5",)
    refused(ready(), 0, {"type": "wish", "cards": ["R5", "R5"]}, "not-in-hand")


def test_a_wish_needs_two_cards_of_the_same_value():
    detail = refused(ready(), 0, {"type": "wish", "cards": ["G5", "G6"]}, "wish-pair")
    assert detail == (
        "a wish stone is taken with two cards of the same value: G5 and G6 do not match"
        " (final cards have no value)"
    )


@pytest.mark.parametrize("pair", [["GF", "RF"], ["GF", "GF"]])
def test_final_cards_have_no_value_for_a_wish(pair):
    state = with_hand(ready(), 0, "GF", "RF", "GF", "G6", "G7", "P7", "G5", "R5")
    refused(state, 0, {"type": "wish", "cards": pair}, "wish-pair", "final cards have no value")


@pytest.mark.parametrize("value", [0, 10])
def test_pairs_of_0_or_10_take_no_stone(value):
    state = with_hand(ready(), 0, f"G{value}", f"P{value}", "G3", "G6", "G7", "P7", "G5", "R5")
    refused(state, 0, {"type": "wish", "cards": [f"G{value}", f"P{value}"]}, "wish-value", "1 to 9")


def test_a_stone_already_taken_cannot_be_taken_again():
    state, _ = run(ready(), 0, {"type": "wish", "cards": ["G5", "P5"]}, draw(), draw())
    state = with_hand(state, 1, "R5", "Y5", "R1", "R2", "R3", "R4", "R6", "R7")
    refused(state, 1, {"type": "wish", "cards": ["R5", "Y5"]}, "stone-taken",
            "no longer in the middle")
    assert not any(m["type"] == "wish" for m in GAME.legal_moves(state, 1))


def test_legal_wishes_list_each_pair_once_for_stones_in_the_middle():
    wishes = [m for m in GAME.legal_moves(ready(), 0) if m["type"] == "wish"]
    assert wishes == [{"type": "wish", "cards": ["R5", "G5"]},
                      {"type": "wish", "cards": ["R5", "P5"]},
                      {"type": "wish", "cards": ["G5", "P5"]},
                      {"type": "wish", "cards": ["G7", "P7"]}]


# -- turn order and malformed moves --------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_turn_passes_clockwise_and_wraps_round(seats):
    state = dealt(seats)
    order = []
    for seat in range(seats + 1):
        order.append(GAME.to_act(state)[0])
        card = state.hands[seat % seats][0]
        state, _ = run(state, seat % seats, {"type": "discard", "card": card}, draw())
    assert order == [*range(seats), 0]


def test_moves_out_of_turn_are_refused():
    refused(ready(), 1, play("G5"), "not-your-turn", "seat 0's turn")
    assert GAME.legal_moves(ready(), 1) == ()


def test_after_using_a_card_only_a_draw_is_allowed():
    state, _ = run(ready(), 0, play("G5"))
    refused(state, 0, play("G6"), "must-draw", "draw 1 card")
    assert {m["type"] for m in GAME.legal_moves(state, 0)} == {"draw"}


def test_a_draw_before_using_a_card_is_refused():
    refused(ready(), 0, draw(), "nothing-to-draw", "one card per card")


def test_pass_is_only_for_the_end_phase():
    refused(ready(), 0, {"type": "pass"}, "pass-not-allowed", "end phase")


@pytest.mark.parametrize(
    ("move", "code"),
    [({"type": "fly"}, "unknown-move"), ({}, "unknown-move"), ("play", "malformed-move"),
     ({"type": "play"}, "malformed-move"), ({"type": "play", "card": 7}, "malformed-move"),
     ({"type": "wish", "cards": "G5"}, "malformed-move"),
     ({"type": "wish", "cards": ["G5"]}, "malformed-move"),
     ({"type": "wish", "cards": [["G5"], "P5"]}, "malformed-move"),
     ({"type": "play", "card": "Z9"}, "not-in-hand"),
     ({"type": "discard"}, "malformed-move"), ({"type": "discard", "card": 5}, "malformed-move"),
     ({"type": "play", "card": "P7", "row": ["G"]}, "no-such-row")],
)
def test_malformed_moves_are_refused_with_a_code(move, code):
    refused(ready(), 0, move, code)


def test_malformed_and_unknown_moves_say_what_a_move_looks_like():
    assert refused(ready(), 0, {"type": "fly"}, "unknown-move") == (
        "keltis-card has no move of type 'fly'"
    )
    assert refused(ready(), 0, "play", "malformed-move") == 'a move is an object with a "type"'
    assert refused(ready(), 0, {"type": "play"}, "malformed-move") == (
        'name the card as a string, e.g. "card": "G7"'
    )
    assert refused(ready(), 0, {"type": "wish", "cards": ["G5"]}, "malformed-move") == (
        'a wish names two cards: "cards": ["G5", "P5"]'
    )


def test_a_card_not_in_hand_is_refused_without_telling_where_it_is():
    detail = refused(ready(), 0, play("B9"), "not-in-hand")
    assert detail == "B9 is not in your hand: only own cards are used"


def test_the_listed_moves_follow_the_rising_row_and_each_uses_its_cards_and_owes_their_draws():
    """Green rises from 3 to 5: G3 may not follow; any card may be discarded, and equal values
    may be wished away in pairs."""
    state = ready(G=("G3", "G5"))
    listed = GAME.legal_moves(state, 0)
    plays = [(m["card"], m.get("row")) for m in listed if m["type"] == "play"]
    assert plays == [("R5", None), ("G5", None), ("G6", None), ("G7", None), ("GF", None),
                     ("P5", None), ("P5", "G"), ("P7", None)]
    assert sorted(m["card"] for m in listed if m["type"] == "discard") == sorted(HAND)
    wishes = [m["cards"] for m in listed if m["type"] == "wish"]
    assert wishes == [["R5", "G5"], ["R5", "P5"], ["G5", "P5"], ["G7", "P7"]]
    for move in listed:
        used = move.get("cards") or [move["card"]]
        after, _ = run(state, 0, move)
        assert len(after.hands[0]) == len(HAND) - len(used) and after.to_draw == len(used)


def test_a_draw_of_the_deck_gives_its_top_card():
    state = with_deck(ready(), "V9", "V8")
    state, _ = run(state, 0, play("G5"), draw())
    assert "V9" in state.hands[0] and state.piles.deck == ("V8",)




@pytest.mark.parametrize("seats", [2, 3, 4])
def test_legal_moves_list_every_accepted_move_once_in_its_plain_form(seats):
    """Every candidate move is accepted exactly when its plain form is listed (a coloured card
    naming its own row is the same move as one naming none; a wish pair in either order)."""
    playout = playout_of(GAME, seats, "complete", random.Random(seats))
    for state in playout.states[:-1:5]:
        seat = GAME.to_act(state)[0]
        listed = [_plain(m) for m in GAME.legal_moves(state, seat)]
        assert len(listed) == len(set(listed))
        for move in _candidates(state.hands[seat]):
            try:
                GAME.apply(state, seat, move, 1)
            except IllegalMove:
                assert _plain(move) not in listed, move
            else:
                assert _plain(move) in listed, move


def _candidates(hand):
    yield from ({"type": "draw", "from": s} for s in ("deck", *COLOURS, "P"))
    yield {"type": "pass"}
    for card in set(hand):
        yield {"type": "discard", "card": card}
        yield {"type": "play", "card": card}
        yield from ({"type": "play", "card": card, "row": c} for c in COLOURS)
    for a, b in itertools.product(hand, repeat=2):
        yield {"type": "wish", "cards": [a, b]}


def _plain(move):
    if move["type"] == "play" and move.get("row") == move["card"][0]:
        return ("play", move["card"], None)
    if move["type"] == "wish":
        return ("wish", *sorted(move["cards"]))
    return (move["type"], move.get("card"), move.get("row") or move.get("from"))
