"""A turn: draw then place on a row with room, or take a row and sit out the round."""

import random

import pytest

from engine import codec
from engine.games.coloretto import GAME, JOKER, PLUS_TWO, Drew, Placed, Took
from tests.engine.coloretto.support import Driver, dealt, illegal, stack, with_rows

DECK = stack("blue", "brown", "grey", "green", "orange", "pink", JOKER, PLUS_TWO, "yellow")


def fresh():
    """Four seats holding blue, brown, grey, green; the pile starts orange pink joker +2."""
    return dealt(4, DECK)


def test_draw_reveals_the_top_card_and_keeps_the_turn_until_it_is_placed():
    play = Driver(fresh())
    assert play(0, "draw") == (Drew(0, "orange"),)
    assert play.state.drawn.name == "orange" and play.state.turn == 0
    assert play.state.deck[0] == "pink"
    assert GAME.legal_moves(play.state, 0) == tuple(
        {"type": "place", "row": r} for r in range(4)
    )


def test_placing_the_drawn_card_on_a_row_with_room_ends_the_turn():
    play = Driver(fresh())
    play(0, "draw")
    assert play(0, "place", 2) == (Placed(0, 2, "orange"),)
    assert [c.name for c in play.state.rows[2]] == ["orange"]
    assert play.state.drawn is None and play.state.turn == 1


def test_a_row_takes_up_to_three_cards():
    state = with_rows(fresh(), ("pink", "pink"), (), (), ())
    play = Driver(state)
    play(0, "draw")
    play(0, "place", 0)
    assert len(play.state.rows[0]) == 3


def test_placing_on_a_full_row_is_refused():
    state = with_rows(fresh(), ("pink", "pink", "pink"), (), (), ())
    play = Driver(state)
    play(0, "draw")
    illegal(play.state, 0, {"type": "place", "row": 0}, "row-full", "at most 3 cards", "row 0")
    assert {"type": "place", "row": 0} not in GAME.legal_moves(play.state, 0)


def test_placing_without_drawing_is_refused():
    illegal(fresh(), 0, {"type": "place", "row": 0}, "draw-first", "draw a card")


def test_drawing_twice_is_refused():
    play = Driver(fresh())
    play(0, "draw")
    illegal(play.state, 0, {"type": "draw"}, "must-place", "orange", "place it")


def test_taking_a_row_while_holding_a_drawn_card_is_refused():
    play = Driver(with_rows(fresh(), ("pink",), (), (), ()))
    play(0, "draw")
    illegal(play.state, 0, {"type": "take", "row": 0}, "must-place", "place it")


def test_drawing_when_every_open_row_is_full_is_refused():
    full = ("pink", "pink", "pink")
    state = with_rows(fresh(), full, full, full, full)
    detail = illegal(state, 0, {"type": "draw"}, "rows-full", "3 cards", "only take")
    assert "orange" not in detail  # the refusal does not give away the top card
    assert GAME.legal_moves(state, 0) == tuple({"type": "take", "row": r} for r in range(4))


def test_drawing_is_allowed_while_any_open_row_has_room():
    full = ("pink", "pink", "pink")
    state = with_rows(fresh(), full, full, full, ("pink",))
    assert {"type": "draw"} in GAME.legal_moves(state, 0)
    Driver(state)(0, "draw")


def test_taking_a_row_collects_its_cards_and_the_seat_sits_out():
    state = with_rows(fresh(), (), ("pink", JOKER, "blue"), (), ())
    play = Driver(state)
    assert play(0, "take", 1) == (Took(0, 1, ("pink", JOKER, "blue")),)
    assert [c.name for c in play.state.collected[0]] == ["blue", "pink", JOKER, "blue"]
    assert play.state.rows[1] == () and play.state.taken_by == (None, 0, None, None)
    assert play.state.turn == 1


def test_a_seat_that_took_a_row_is_skipped_until_the_round_ends():
    state = with_rows(fresh(), ("pink",), ("pink",), (), ())
    play = Driver(state)
    play.turn(2)  # seat 0
    play(1, "take", 0)
    play.turn(2)  # seat 2
    play.turn(3)  # seat 3
    assert play.state.turn == 0
    play(0, "take", 1)
    assert play.state.turn == 2  # seat 1 is out
    assert GAME.legal_moves(play.state, 1) == ()
    illegal(play.state, 1, {"type": "draw"}, "not-your-turn", "seat 2's turn")


def test_taking_an_empty_row_is_refused():
    illegal(fresh(), 0, {"type": "take", "row": 0}, "row-empty", "no card")
    assert all(m["type"] == "draw" for m in GAME.legal_moves(fresh(), 0))


def test_a_taken_row_can_be_neither_taken_nor_placed_on():
    state = with_rows(fresh(), ("pink",), ("pink",), (), ())
    play = Driver(state)
    play(0, "take", 0)
    play(1, "take", 1)
    illegal(play.state, 2, {"type": "take", "row": 0}, "row-taken", "taken by seat 0",
            "until the round ends")
    play(2, "draw")
    illegal(play.state, 2, {"type": "place", "row": 1}, "row-taken", "taken by seat 1")
    assert GAME.legal_moves(play.state, 2) == ({"type": "place", "row": 2},
                                               {"type": "place", "row": 3})


def test_moving_out_of_turn_is_refused():
    for move in ({"type": "draw"}, {"type": "take", "row": 0}, {"type": "place", "row": 0}):
        illegal(fresh(), 1, move, "not-your-turn", "seat 0's turn", "not seat 1's")
    assert GAME.legal_moves(fresh(), 1) == ()


@pytest.mark.parametrize("row", [4, -1, "0", 1.0, True, None])
def test_a_row_that_does_not_exist_is_refused(row):
    play = Driver(fresh())
    play(0, "draw")
    illegal(play.state, 0, {"type": "place", "row": row}, "no-such-row", "rows 0 to 3")
    illegal(fresh(), 0, {"type": "take", "row": row}, "no-such-row", "rows 0 to 3")


def test_a_move_without_a_row_is_refused():
    illegal(fresh(), 0, {"type": "take"}, "no-such-row", "rows 0 to 3")


@pytest.mark.parametrize("move", [{"type": "pass"}, {}, {"row": 0}])
def test_an_unknown_move_type_is_refused(move):
    illegal(fresh(), 0, move, "unknown-move", "no move of type")


@pytest.mark.parametrize("move", [None, "draw", ["draw"], 3])
def test_a_move_that_is_not_an_object_is_refused_not_crashed_on(move):
    illegal(fresh(), 0, move, "malformed-move", "object")


def test_the_listed_moves_are_a_draw_and_each_row_with_cards_and_each_does_so():
    state = with_rows(fresh(), ("pink",), (), ("pink", "pink", "pink"), ())
    listed = GAME.legal_moves(state, 0)
    assert listed == ({"type": "draw"}, {"type": "take", "row": 0}, {"type": "take", "row": 2})
    done = [GAME.apply(state, 0, move, 2).facts[0].to_json() for move in listed]
    assert [(f["type"], f.get("row")) for f in done] == [("drew", None), ("took", 0), ("took", 2)]


def test_apply_leaves_every_earlier_state_as_it_was():
    # A state shares its unchanged parts with the one before it (and the table's options with
    # all of them): a move that changed any part in place would change an earlier state too.
    rnd, state, before = random.Random(4), fresh(), []
    while not GAME.is_over(state):
        before.append((state, codec.encode(state)))
        (seat,) = GAME.to_act(state)
        state = GAME.apply(state, seat, rnd.choice(GAME.legal_moves(state, seat)), 2).state
    assert len(before) > 50
    assert [codec.encode(s) for s, _ in before] == [encoded for _, encoded in before]


def test_holding_a_drawn_card_is_reported_before_anything_wrong_with_the_row():
    play = Driver(with_rows(fresh(), ("pink",), (), (), ()))
    play(0, "draw")
    illegal(play.state, 0, {"type": "take", "row": 9}, "must-place", "place it")
    illegal(play.state, 0, {"type": "take"}, "must-place", "place it")


def test_placing_without_a_drawn_card_is_reported_before_anything_wrong_with_the_row():
    play = Driver(with_rows(fresh(), ("pink",), (), (), ()))
    play(0, "take", 0)
    illegal(play.state, 1, {"type": "place", "row": 0}, "draw-first", "draw a card")
    illegal(play.state, 1, {"type": "place", "row": 9}, "draw-first", "draw a card")


def test_collected_cards_are_shown_sorted_by_colour_with_jokers_set_aside():
    """The text: the taker lays the row out "ordinando le carte in base al colore"."""
    state = with_rows(fresh(), (JOKER, "pink", PLUS_TWO), (), (), ())
    play = Driver(state)
    play(0, "take", 0)
    shown = GAME.view(play.state, "spectator")["collected"][0]
    assert list(shown.items()) == [("blue", 1), ("pink", 1), (PLUS_TWO, 1), (JOKER, 1)]
