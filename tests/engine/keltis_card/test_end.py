"""The two ways the game ends, and the end phase of up to two placements per seat."""

import pytest

from engine.games.keltis_card import GAME
from tests.engine.keltis_card.support import (
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

HAND = ("VF", "RF", "V3", "G4", "P4", "P7", "Y2", "B6")


def four_final_rows():
    """Seat 0 to play: finals already lie in four rows of three different seats."""
    state = with_hand(dealt(3), 0, *HAND)
    state = with_rows(state, 0, R=("R2", "RF"), Y=("YF",))
    state = with_rows(state, 1, G=("GF", "GF"))
    return with_rows(state, 2, B=("B3", "BF"))


def end_phase():
    """Seat 0 just laid the fifth row's final: seats 1, 2, 0 make their placements."""
    return run(four_final_rows(), 0, play("VF"))[0]


def test_the_fifth_row_with_a_final_ends_the_game_at_once_without_a_draw():
    state, facts = run(four_final_rows(), 0, play("VF"))
    assert state.phase == "end-phase" and state.to_draw == 0
    assert len(state.hands[0]) == 7
    assert facts[-1].to_json() == {"type": "end-phase-began", "reason": "five-final-rows",
                                   "order": [1, 2, 0]}
    assert GAME.to_act(state) == (1,)
    refused(state, 0, draw(), "not-your-turn")


def test_final_rows_count_whoever_owns_them_and_whatever_their_colour():
    """Seed text: "non importa a chi appartengono oppure di che colore sono"."""
    state = with_hand(dealt(2), 0, *HAND)
    state = with_rows(state, 0, R=("RF",), V=("V3", "VF"))
    state = with_rows(state, 1, R=("R1", "RF"), V=("VF",))
    state, _ = run(state, 0, play("G4"), draw())
    assert state.phase == "playing"
    state = with_hand(state, 1, "Y5", "YF", "G1", "G2", "G3", "G4", "G5", "G6")
    state, facts = run(state, 1, play("YF"))
    assert state.phase == "end-phase" and facts[-1].order == (0, 1)


def test_open_question_9_two_finals_in_one_row_count_once():
    state = with_hand(four_final_rows(), 0, "RF", *HAND[2:], "VF")
    state = with_rows(state, 0, R=("R2", "RF"), Y=("YF",))
    state, _ = run(state, 0, play("RF"))
    assert row_cards(state, 0, "R") == ("R2", "RF", "RF")
    assert state.phase == "playing" and state.to_draw == 1


def test_open_question_9_discarded_final_cards_do_not_count():
    state, _ = run(four_final_rows(), 0, {"type": "discard", "card": "VF"})
    assert state.phase == "playing" and state.to_draw == 1


def test_the_last_card_drawn_ends_the_game():
    state = with_deck(with_hand(dealt(3), 0, *HAND), "G9")
    state, facts = run(state, 0, play("G4"), draw())
    assert state.phase == "end-phase" and "G9" in state.hands[0]
    assert facts[-1].reason == "deck-exhausted" and facts[-1].order == (1, 2, 0)


def test_open_question_8_the_deck_running_out_mid_wish_skips_the_second_draw():
    state = with_deck(with_hand(dealt(3), 0, *HAND), "G9")
    state, _ = run(state, 0, {"type": "wish", "cards": ["G4", "P4"]}, draw())
    assert state.phase == "end-phase" and len(state.hands[0]) == 7
    assert GAME.to_act(state) == (1,)


def test_the_deck_running_out_on_the_second_draw_after_a_wish_ends_the_game():
    """Seed text: "La partita si conclude quando viene pescata l’ultima carta presente nel
    mazzo di pesca"."""
    state = with_deck(with_hand(dealt(3), 0, *HAND), "G9", "Y5")
    state, _ = run(state, 0, {"type": "wish", "cards": ["G4", "P4"]}, draw())
    assert state.phase == "playing" and state.to_draw == 1
    state, facts = run(state, 0, draw())
    assert state.phase == "end-phase" and len(state.hands[0]) == 8
    assert facts[-1].reason == "deck-exhausted" and facts[-1].order == (1, 2, 0)
    assert GAME.to_act(state) == (1,)


@pytest.mark.parametrize(
    ("seats", "ender", "order"),
    [(2, 0, (1, 0)), (2, 1, (0, 1)), (3, 2, (0, 1, 2)), (4, 1, (2, 3, 0, 1)),
     (4, 3, (0, 1, 2, 3))],
)
def test_the_end_phase_begins_after_the_seat_whose_turn_ended_the_game(seats, ender, order):
    state = with_deck(with_hand(dealt(seats), ender, *HAND), "G9")
    state, facts = run(replace_turn(state, seat=ender), ender, play("G4"), draw())
    assert facts[-1].order == order and GAME.to_act(state) == (order[0],)
    for seat in order:
        assert GAME.to_act(state) == (seat,)
        state, _ = run(state, seat, {"type": "pass"})
    assert GAME.is_over(state)


def test_two_players_end_when_the_draw_pile_is_empty_the_set_aside_cards_are_never_drawn():
    state = with_deck(with_hand(dealt(2), 0, *HAND), "G9")
    assert len(state.set_aside) == 30
    state, facts = run(state, 0, play("G4"), draw())
    assert facts[-1].reason == "deck-exhausted" and len(state.set_aside) == 30


def test_two_placements_end_a_seat_s_placements_by_themselves():
    state = with_hand(end_phase(), 1, "Y1", "Y2", "P3", "R9")
    state, _ = run(state, 1, play("Y1"))
    assert GAME.to_act(state) == (1,) and state.end_placed == 1
    state, _ = run(state, 1, play("P3"))
    assert row_cards(state, 1, "Y") == ("Y1",) and state.tableaux[1].point_row.cards == ("P3",)
    assert GAME.to_act(state) == (2,) and state.end_placed == 0


def test_pass_ends_a_seat_s_placements_early_or_at_once():
    state = with_hand(end_phase(), 1, "Y1", "Y2")
    state, facts = run(state, 1, play("Y1"), {"type": "pass"})
    assert GAME.to_act(state) == (2,) and facts[-1].to_json() == {"type": "passed", "seat": 1}
    state, _ = run(state, 2, {"type": "pass"})
    assert GAME.to_act(state) == (0,)


def test_after_the_last_seat_the_game_is_over_and_scored():
    state = end_phase()
    state, _ = run(state, 1, {"type": "pass"})
    state, _ = run(state, 2, {"type": "pass"})
    state, facts = run(state, 0, {"type": "pass"})
    assert GAME.is_over(state) and GAME.to_act(state) == ()
    assert facts[-1].kind == "game-over"
    assert facts[-1].totals == tuple(
        s.total for s in GAME.score(state).seats
    )
    assert GAME.score(state).final
    detail = refused(state, 0, {"type": "pass"}, "game-finished")
    assert detail == "the game is over: no more moves are taken"
    assert GAME.legal_moves(state, 0) == ()


def test_open_question_7_no_discards_wishes_or_draws_in_the_end_phase():
    state = with_hand(end_phase(), 1, "Y1", "P1", "R9")
    for move in ({"type": "discard", "card": "R9"}, {"type": "wish", "cards": ["Y1", "P1"]},
                 draw()):
        refused(state, 1, move, "end-phase", "up to two cards")
    types = {m["type"] for m in GAME.legal_moves(state, 1)}
    assert types == {"play", "pass"}


def test_in_the_end_phase_only_the_seat_placing_may_move():
    state = with_hand(end_phase(), 0, "Y1")
    for seat in (0, 2):
        refused(state, seat, {"type": "pass"}, "not-your-turn", "seat 1's turn")
        assert GAME.legal_moves(state, seat) == ()


def test_end_phase_placements_follow_the_row_rules():
    state = with_rows(with_hand(end_phase(), 1, "Y5"), 1, Y=("Y2", "Y4"))
    refused(state, 1, play("Y3"), "not-in-hand")
    state = with_hand(state, 1, "Y3")
    refused(state, 1, play("Y3"), "row-direction")


def test_end_phase_point_cards_may_join_a_colour_row_or_the_point_row():
    state = with_rows(with_hand(end_phase(), 1, "P4", "P7", "Y1"), 1, G=("G2", "G4"))
    state, _ = run(state, 1, play("P4", "G"), play("P7"))
    assert row_cards(state, 1, "G") == ("G2", "G4", "P4")
    assert state.tableaux[1].point_row.cards == ("P7",) and GAME.to_act(state) == (2,)


def test_open_question_7_the_end_condition_is_not_checked_again():
    state = with_hand(end_phase(), 1, "RF", "P2")
    state, facts = run(state, 1, play("RF"))
    assert [f.kind for f in facts] == ["played"] and GAME.to_act(state) == (1,)


def test_a_seat_with_nothing_to_place_may_only_pass():
    state = with_hand(end_phase(), 1, "GF")
    assert GAME.legal_moves(state, 1) == ({"type": "pass"},)
