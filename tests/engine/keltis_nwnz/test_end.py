"""The end: the fifth pawn entering the goal zone, or the last card drawn."""

from dataclasses import replace

import pytest

from engine.games.keltis_nwnz.game import GAME

from .tables import dealt, pawn, play, refused, with_seat, with_tiles

HAND = ["R3", "G2", "B10", "B3", "Y5", "V7", "G9", "R8"]


def four_in_goal():
    # Seat 1: three small pawns in the goal zone; seat 0: its big pawn (counting one).
    state = with_tiles(dealt(HAND), {"c43": "clover", "c48": "points-2"})
    state = with_seat(state, 1, pawns={"s1": "c44", "s2": "c48", "s3": "c53"})
    return with_seat(state, 0, pawns={"big": "c46", "s1": "c38"})


def test_the_fifth_pawn_entering_the_goal_zone_ends_the_game_before_its_tile_acts():
    state = four_in_goal()
    after, facts = play(state, 0, {"type": "move", "pawn": "s1", "to": "c43", "card": "V7"})
    assert GAME.is_over(after) and after.ended_by == "goal-zone"
    assert [f["type"] for f in facts] == ["moved", "game-ended"]  # no clover, no draw
    assert len(after.players[0].hand) == 7
    assert GAME.to_act(after) == () and GAME.legal_moves(after, 0) == ()
    assert GAME.score(after).final
    refused(after, 0, {"type": "draw", "from": "deck"}, "game-finished")


@pytest.mark.parametrize("tile", ["wish-Y", "discard"])
def test_the_fifth_pawn_takes_no_wish_stone_and_owes_no_discard_on_its_tile(tile):
    state = with_tiles(four_in_goal(), {"c43": tile})
    after, facts = play(state, 0, {"type": "move", "pawn": "s1", "to": "c43", "card": "V7"})
    assert after.ended_by == "goal-zone"
    assert [f["type"] for f in facts] == ["moved", "game-ended"]
    assert after.players[0].stones == () and after.tiles[0].taken_by is None
    assert after.due_at is None and GAME.legal_moves(after, 0) == ()
    refused(after, 0, {"type": "discard-tile", "card": "G9"}, "game-finished")


def test_the_fourth_pawn_in_the_goal_zone_does_not_end_it():
    state = with_seat(four_in_goal(), 1, pawns={"s3": "c41"})
    after, facts = play(state, 0, {"type": "move", "pawn": "s1", "to": "c43", "card": "V7"})
    assert not GAME.is_over(after) and after.phase == "clover"


def test_moving_on_inside_the_goal_zone_enters_nothing():
    state = with_seat(four_in_goal(), 0, pawns={"s1": "c43"})  # five already inside
    after, facts = play(state, 0, {"type": "move", "pawn": "s1", "to": "c48", "card": "B3"})
    assert not GAME.is_over(after)
    assert [a.points for a in after.players[0].awards] == [2]


def test_a_clover_move_can_bring_in_the_fifth_pawn():
    state = with_tiles(four_in_goal(), {"c33": "clover", "c43": "points-2"})
    state = with_seat(state, 0, pawns={"s2": "c28"})
    after, facts = play(state, 0, {"type": "move", "pawn": "s2", "to": "c33", "card": "B3"},
                        {"type": "clover", "pawn": "s1", "to": "c43"})
    assert after.ended_by == "goal-zone"
    assert after.players[0].awards == ()  # the arrival cell's tile is not resolved
    assert pawn(after, 0, "s1") == "c43"


def test_drawing_the_last_card_ends_the_game_at_once():
    state = dealt(HAND)
    state = replace(state, piles=replace(state.piles, deck=state.piles.deck[:1]))
    after, facts = play(state, 0, {"type": "discard", "card": "G9"},
                        {"type": "draw", "from": "deck"})
    assert after.ended_by == "deck" and GAME.is_over(after)
    assert facts[-1] == {"type": "game-ended", "reason": "deck"}


def test_the_deck_running_out_mid_draw_skips_the_second_draw():
    state = with_tiles(dealt(HAND), {"c1": "discard"})
    state = replace(state, piles=replace(state.piles, deck=state.piles.deck[:1]))
    after, _ = play(state, 0, {"type": "move", "pawn": "s1", "to": "c1", "card": "R3"},
                    {"type": "discard-tile", "card": "G9"}, {"type": "draw", "from": "deck"})
    assert GAME.is_over(after) and len(after.players[0].hand) == 7


def test_drawing_from_a_pile_does_not_end_the_game():
    state = dealt(HAND)
    piles = replace(state.piles, deck=state.piles.deck[:1]).discard("R0").end_turn()
    after, _ = play(replace(state, piles=piles), 0, {"type": "discard", "card": "G9"},
                    {"type": "draw", "from": "R"})
    assert not GAME.is_over(after) and GAME.to_act(after) == (1,)


@pytest.mark.parametrize("seats", [3, 4])
def test_the_fifth_pawn_counts_every_seats_pawns(seats):
    # Seat 0's big pawn (counting one) and pawns of every other seat make four in the zone.
    state = with_tiles(dealt(HAND, seats=seats), {})
    for seat, cell in zip(range(1, seats), ["c44", "c48", "c53"], strict=False):
        state = with_seat(state, seat, pawns={"s4": cell})
    state = with_seat(state, 0, pawns={"big": "c46", "s1": "c38"})
    if seats == 3:
        state = with_seat(state, 2, pawns={"big": "c52"})
    assert GAME.view(state, 0)["goal_pawns"] == 4
    after, facts = play(state, 0, {"type": "move", "pawn": "s1", "to": "c43", "card": "V7"})
    assert after.ended_by == "goal-zone"
    assert facts[-1] == {"type": "game-ended", "reason": "goal-zone"}
