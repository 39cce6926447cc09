"""Playing a card: joining a group by a shared suit, new groups, and the follow obligation."""

from dataclasses import replace

import pytest

from engine.games.hermit import GAME
from tests.engine.hermit.support import Driver, facts_of, laid_out, refused

# Group 0 ends with the castle (suns/knots), group 1 with the sea (waves).
GROUPS = [(["author", "castle"], 1), (["sea"], 2)]


def test_a_card_joins_a_group_whose_last_card_shares_a_suit():
    state = laid_out(3, [["bard", "end"], ["mill"], ["cave"]], GROUPS)
    play = Driver(state)
    facts = play(0, "play", "bard", 0)
    assert [c.name for c in play.group(0).cards] == ["author", "castle", "bard"]
    assert facts_of(facts, "played")[0].group == 0
    assert play.state.hands[0] == ("end",)
    assert GAME.to_act(play.state) == (1,)


def test_only_the_last_card_of_a_group_counts():
    # The author is moons/knots, but the group now ends with the castle (suns/knots).
    state = laid_out(3, [["huntress", "end"], ["mill"], ["cave"]], GROUPS)
    detail = refused(state, 0, {"type": "play", "card": "huntress", "group": 0}, "no-shared-suit")
    assert "shares a suit with the group's last card" in detail
    assert "the castle (7 of suns and knots)" in detail


def test_a_card_fitting_several_groups_goes_onto_the_one_the_player_chooses():
    # The darkness (waves/wyrms) fits the sea and the cave.
    state = laid_out(3, [["darkness", "end"], ["mill"], ["bard"]], [*GROUPS, (["cave"], 0)])
    assert [m for m in GAME.legal_moves(state, 0) if m["card"] == "darkness"] == [
        {"type": "play", "card": "darkness", "group": 1},
        {"type": "play", "card": "darkness", "group": 2},
    ]
    for number in (1, 2):
        play = Driver(state)
        play(0, "play", "darkness", number)
        assert play.group(number).last == "darkness"


def test_a_card_that_fits_a_group_must_go_onto_a_group():
    state = laid_out(3, [["bard", "end"], ["mill"], ["cave"]], GROUPS, must_follow=False)
    detail = refused(state, 0, {"type": "play", "card": "bard"}, "must-join-group")
    assert "goes onto a group" in detail and "fits group 0" in detail


def test_a_card_no_group_accepts_starts_a_new_group_in_front_of_its_player_and_ends_the_turn():
    state = laid_out(3, [["end", "ace-leaves"], ["mill"], ["cave"]], GROUPS)
    play = Driver(state)
    facts = play(0, "play", "end")
    assert facts_of(facts, "new-group")[0].group == 2
    assert play.group(2).controller == 0
    assert GAME.to_act(play.state) == (1,)


def test_must_follow_forbids_a_new_group_while_holding_a_card_that_fits():
    state = laid_out(3, [["end", "bard"], ["mill"], ["cave"]], GROUPS)
    detail = refused(state, 0, {"type": "play", "card": "end"}, "must-follow")
    assert "must play one onto a group" in detail and "the bard fits group 0" in detail
    assert {"type": "play", "card": "end"} not in GAME.legal_moves(state, 0)


def test_without_must_follow_a_card_no_group_accepts_may_start_a_group_anyway():
    state = laid_out(3, [["end", "bard"], ["mill"], ["cave"]], GROUPS, must_follow=False)
    assert {"type": "play", "card": "end"} in GAME.legal_moves(state, 0)
    play = Driver(state)
    play(0, "play", "end")
    assert play.group(2).cards[0].name == "end"


def test_a_seat_with_no_card_left_is_passed_over_in_turn_order():
    state = laid_out(3, [["bard", "end"], [], ["cave", "mill"]], GROUPS)
    play = Driver(state)
    play(0, "play", "bard", 0)
    assert GAME.to_act(play.state) == (2,) and play.state.turn == 2


def test_groups_keep_their_numbers_as_others_leave_the_table():
    groups = [(["author", "castle", "painter"], 1), (["sea"], 2)]
    state = laid_out(3, [["pact", "end"], ["mill"], ["cave"]], groups)
    play = Driver(state)
    play(0, "play", "pact", 0)
    assert [g.number for g in play.state.groups] == [1]
    refused(play.state, 1, {"type": "play", "card": "mill", "group": 0}, "no-such-group")
    play(1, "play", "mill", 1)
    assert play.group(1).last == "mill"


@pytest.mark.parametrize(
    ("seat", "move", "code", "fragment"),
    [
        (1, {"type": "play", "card": "mill", "group": 1}, "not-your-turn", "seat 0's turn"),
        (0, {"type": "play", "card": "mill", "group": 1}, "not-in-hand", "does not hold the mill"),
        (0, {"type": "play", "card": "bard", "group": 7}, "no-such-group", "no group 7"),
        (0, {"type": "play", "card": "joker"}, "unknown-card", "basic Decktet"),
        (0, {"type": "play", "card": 3}, "malformed-move", "names its card"),
        (0, {"type": "play"}, "malformed-move", "names its card"),
        (0, {"type": "play", "card": "bard", "group": "0"}, "malformed-move", "by its number"),
        (0, {"type": "play", "card": "bard", "group": True}, "malformed-move", "by its number"),
        (0, {"type": "play", "card": "bard", "row": 0}, "malformed-move", "no field 'row'"),
        (0, {"type": "take", "row": 0}, "unknown-move", "start, play and stagecoach"),
        (0, {"card": "bard"}, "unknown-move", "start, play and stagecoach"),
        (0, {"type": ["play"], "card": "bard"}, "unknown-move", "start, play and stagecoach"),
        (0, ["play"], "malformed-move", "an object"),
        (0, {"type": "stagecoach", "card": "bard"}, "no-stagecoach", "two-player"),
    ],
)
def test_illegal_plays_are_refused_with_a_code_and_the_rule(seat, move, code, fragment):
    state = laid_out(3, [["bard", "end"], ["mill"], ["cave"]], GROUPS)
    assert fragment in refused(state, seat, move, code)


def test_no_move_is_taken_once_the_game_is_over():
    state = replace(laid_out(3, [["bard"], [], []], GROUPS), over=True)
    refused(state, 0, {"type": "play", "card": "bard", "group": 0}, "game-finished")
    assert GAME.to_act(state) == () and GAME.legal_moves(state, 0) == ()


def test_the_listed_moves_are_each_card_onto_each_group_it_fits_and_each_lands_there():
    # The end (leaves) fits no group, and the other cards do: must-follow leaves it out.
    state = laid_out(3, [["bard", "end", "darkness", "ace-knots"], ["mill"], ["cave"]], GROUPS)
    listed = GAME.legal_moves(state, 0)
    assert [(m["card"], m["group"]) for m in listed] == [
        ("bard", 0), ("darkness", 1), ("ace-knots", 0)
    ]
    for move in listed:
        play = Driver(state)
        play(0, "play", move["card"], move["group"])
        assert play.group(move["group"]).last == move["card"]
        assert move["card"] not in play.state.hands[0]
