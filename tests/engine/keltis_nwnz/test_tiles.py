"""Path tiles and wish-stone stacks on arrival: points, clover, discard, wish stones."""

from dataclasses import replace

import pytest

from engine.games.keltis_nwnz.game import GAME

from .tables import dealt, pawn, play, refused, with_seat, with_tiles

HAND = ["R3", "G2", "B10", "B3", "Y5", "V7", "G9", "R8"]


def start(tiles, **pawns):
    state = with_tiles(dealt(HAND), tiles)
    return with_seat(state, 0, pawns=pawns) if pawns else state


def test_a_point_tile_scores_at_once_and_the_big_pawn_does_not_double_it():
    state = start({"c1": "points-3"})
    after, facts = play(state, 0, {"type": "move", "pawn": "big", "to": "c1", "card": "R3"},
                        seq=7)
    assert [(a.points, a.cell, a.event) for a in after.players[0].awards] == [(3, "c1", 7)]
    assert {"type": "tile-points", "seat": 0, "cell": "c1", "points": 3} in facts
    assert after.phase == "draw"


@pytest.mark.parametrize(("tile", "phase"), [("points-2", "draw"), ("clover", "clover"),
                                           ("discard", "discard-tile")])
def test_point_clover_and_discard_tiles_stay_and_act_for_every_arrival(tile, phase):
    # Open question 3: only the wish-stone path tiles are taken; the others stay.
    state = start({"c1": tile}, s1="c1")
    after, _ = play(state, 0, {"type": "move", "pawn": "s2", "to": "c1", "card": "R3"})
    assert after.phase == phase
    assert [(t.cell, t.tile, t.taken_by) for t in after.tiles] == [("c1", tile, None)]
    if tile == "points-2":
        assert [a.points for a in after.players[0].awards] == [2]


def test_a_wish_stone_tile_goes_to_the_first_pawn_to_arrive_only():
    state = start({"c3": "wish-V"})
    after, facts = play(state, 0, {"type": "move", "pawn": "s1", "to": "c3", "card": "B10"},
                        seq=4)
    assert [(s.colour, s.event) for s in after.players[0].stones] == [("V", 4)]
    assert {"type": "wish-stone-taken", "seat": 0, "cell": "c3", "colour": "V",
            "source": "tile"} in facts
    assert after.tiles[0].taken_by == 0
    # A later arrival finds nothing.
    again = with_seat(after, 0, pawns={"s1": "start"})
    again, facts = play(again, 0, {"type": "draw", "from": "deck"}, seq=5)
    again = with_seat(again, 1, hand=("B3", *again.players[1].hand[1:]))
    again, facts = play(again, 1, {"type": "move", "pawn": "s1", "to": "c3", "card": "B3"})
    assert again.players[1].stones == ()
    assert not any(f["type"] == "wish-stone-taken" for f in facts)


def test_a_stack_cell_gives_its_top_stone_while_any_remain():
    state = start({}, s1="c16")
    after, facts = play(state, 0, {"type": "move", "pawn": "s1", "to": "c21", "card": "B10"},
                        seq=3)
    assert after.stacks == (5, 5, 5, 4, 5)
    assert [(s.colour, s.cell, s.event) for s in after.players[0].stones] == [("B", "c21", 3)]
    assert facts[-1]["source"] == "stack"
    empty = replace(state, stacks=(5, 5, 5, 0, 5))
    after, facts = play(empty, 0, {"type": "move", "pawn": "s1", "to": "c21", "card": "B10"})
    assert after.players[0].stones == () and after.phase == "draw"


def test_a_clover_moves_one_of_your_pawns_one_cell_free_of_card_and_colour():
    state = start({"c1": "clover"})
    after, facts = play(state, 0, {"type": "move", "pawn": "s1", "to": "c1", "card": "R3"})
    assert after.phase == "clover" and after.due_at == "c1"
    assert facts[-1] == {"type": "tile-action", "seat": 0, "cell": "c1", "tile": "clover",
                         "idle": False}
    # Any pawn, the start stone's included; the cell's colour does not matter; no card used.
    hand = after.players[0].hand
    assert {"type": "clover", "pawn": "big", "to": "c4"} in GAME.legal_moves(after, 0)
    moved, facts = play(after, 0, {"type": "clover", "pawn": "big", "to": "c4"}, seq=11)
    assert pawn(moved, 0, "big") == "c4" and moved.players[0].hand == hand
    assert moved.phase == "draw"
    assert facts[0] == {"type": "clover-moved", "seat": 0, "pawn": "big", "origin": "start",
                        "to": "c4"}


def test_a_clover_move_is_due_before_anything_else_and_goes_forward_only():
    state = start({"c1": "clover"})
    after, _ = play(state, 0, {"type": "move", "pawn": "s1", "to": "c1", "card": "R3"})
    detail = refused(after, 0, {"type": "draw", "from": "deck"}, "clover-due")
    assert "clover tile on c1" in detail
    refused(after, 0, {"type": "move", "pawn": "s2", "to": "c2", "card": "G2"}, "clover-due")
    refused(after, 0, {"type": "clover", "pawn": "s1", "to": "c9"}, "not-ahead")
    refused(after, 0, {"type": "clover", "pawn": "s7", "to": "c5"}, "no-such-pawn")


def test_a_clover_cannot_move_a_pawn_on_a_final_cell():
    state = start({"c1": "clover"}, s2="c53")
    after, _ = play(state, 0, {"type": "move", "pawn": "s1", "to": "c1", "card": "R3"})
    refused(after, 0, {"type": "clover", "pawn": "s2", "to": "c52"}, "not-ahead",
            "final cell c53")
    offered = {m["pawn"] for m in GAME.legal_moves(after, 0)}
    assert "s2" not in offered and offered == {"s1", "s3", "s4", "big"}


def test_a_clover_chains_into_the_next_tile():
    state = start({"c1": "clover", "c5": "clover", "c9": "points-2"})
    after, _ = play(
        state, 0,
        {"type": "move", "pawn": "s1", "to": "c1", "card": "R3"},
        {"type": "clover", "pawn": "s1", "to": "c5"},
        {"type": "clover", "pawn": "s1", "to": "c9"},
    )
    assert pawn(after, 0, "s1") == "c9"
    assert [a.points for a in after.players[0].awards] == [2]
    assert after.phase == "draw"


def test_a_clover_with_no_pawn_able_to_move_does_nothing():
    # Only reachable on a hand-built state (five pawns in the goal zone end a real game), but
    # the reading holds for any board: if no pawn can go forward, the clover is idle.
    state = start({"c57": "clover"}, s1="c53", s2="c54", s3="c55", s4="c56", big="c52")
    after, facts = play(state, 0, {"type": "move", "pawn": "big", "to": "c57", "card": "V7"})
    assert facts[-1] == {"type": "tile-action", "seat": 0, "cell": "c57", "tile": "clover",
                         "idle": True}
    assert after.phase == "draw"


def test_a_discard_tile_from_the_hand_means_drawing_two():
    state = start({"c1": "discard"})
    after, facts = play(state, 0, {"type": "move", "pawn": "s1", "to": "c1", "card": "R3"})
    assert after.phase == "discard-tile"
    refused(after, 0, {"type": "draw", "from": "deck"}, "discard-tile-due")
    after, facts = play(after, 0, {"type": "discard-tile", "card": "G9"})
    assert facts == [{"type": "discarded", "seat": 0, "card": "G9", "source": "hand"}]
    assert len(after.players[0].hand) == 6 and after.players[0].rows[0] == ("R3",)
    after, _ = play(after, 0, {"type": "draw", "from": "deck"})
    assert GAME.to_act(after) == (0,) and after.phase == "draw"
    refused(after, 0, {"type": "draw", "from": "G"}, "discarded-this-turn")
    after, _ = play(after, 0, {"type": "draw", "from": "deck"})
    assert GAME.to_act(after) == (1,) and len(after.players[0].hand) == 8


def test_a_discard_tile_may_take_the_top_card_of_a_display_row_and_redirect_the_row():
    state = with_seat(start({"c3": "discard"}), 0, rows={"B": ("B10",)})
    after, _ = play(state, 0, {"type": "move", "pawn": "s1", "to": "c3", "card": "B3"})
    assert after.players[0].rows[3] == ("B10", "B3")
    after, facts = play(after, 0, {"type": "discard-tile", "card": "B3"})
    assert facts == [{"type": "discarded", "seat": 0, "card": "B3", "source": "B"}]
    assert after.players[0].rows[3] == ("B10",)
    assert pawn(after, 0, "s1") == "c3"  # the pawn is not moved back
    assert after.piles.top("B") == "B3"
    refused(after, 0, {"type": "draw", "from": "B"}, "discarded-this-turn")
    after, _ = play(after, 0, {"type": "draw", "from": "deck"})
    assert GAME.to_act(after) == (1,)  # one card drawn: only one hand card was used


def test_the_discard_tile_takes_only_a_top_card_or_a_hand_card():
    state = with_seat(start({"c3": "discard"}), 0, rows={"R": ("R1", "R2")})
    after, _ = play(state, 0, {"type": "move", "pawn": "s1", "to": "c3", "card": "B3"})
    detail = refused(after, 0, {"type": "discard-tile", "card": "R1"}, "not-discardable")
    assert "neither in your hand nor the top card" in detail
    refused(after, 0, {"type": "discard-tile", "card": "R8", "from": "display"}, "not-on-top")
    refused(after, 0, {"type": "discard-tile", "card": "R2", "from": "hand"}, "not-in-hand")
    refused(after, 0, {"type": "discard-tile", "card": "R2", "from": "box"}, "malformed-move")


def test_a_card_both_in_hand_and_on_top_of_its_row_is_told_apart_by_from():
    state = with_seat(start({"c3": "discard"}), 0, rows={"G": ("G2",)})
    after, _ = play(state, 0, {"type": "move", "pawn": "s1", "to": "c3", "card": "B3"})
    moves = GAME.legal_moves(after, 0)
    assert {"type": "discard-tile", "card": "G2"} in moves
    assert {"type": "discard-tile", "card": "G2", "from": "display"} in moves
    from_row, _ = play(after, 0, {"type": "discard-tile", "card": "G2", "from": "display"})
    assert from_row.players[0].rows[2] == () and "G2" in from_row.players[0].hand
    from_hand, _ = play(after, 0, {"type": "discard-tile", "card": "G2"})
    assert from_hand.players[0].rows[2] == ("G2",) and "G2" not in from_hand.players[0].hand


def test_example_1_movement_over_four_turns():
    # I: a red 3 with a 3-point tile; II: a green 2 onto a joker cell; III: a blue 10 takes the
    # violet ("pink") wish stone; IV: a blue 3 onto a discard tile, discarding that blue 3 from
    # the display so the blue row ends at 10 again, and drawing one card only.
    state = start({"c1": "points-3", "c3": "wish-V", "c9": "discard"}, s2="c2", s4="c5")
    deck = {"type": "draw", "from": "deck"}

    def opponent(s):
        s, _ = play(s, 1, {"type": "discard", "card": s.players[1].hand[0]}, deck)
        return s

    s, _ = play(state, 0, {"type": "move", "pawn": "s1", "to": "c1", "card": "R3"}, deck)
    assert sum(a.points for a in s.players[0].awards) == 3
    s = opponent(s)
    s, _ = play(s, 0, {"type": "move", "pawn": "s2", "to": "c6", "card": "G2"}, deck)
    assert pawn(s, 0, "s2") == "c6" and s.players[0].rows[2] == ("G2",)
    s = opponent(s)
    s, _ = play(s, 0, {"type": "move", "pawn": "s3", "to": "c3", "card": "B10"}, deck)
    assert [st.colour for st in s.players[0].stones] == ["V"]
    s = opponent(s)
    s, _ = play(s, 0, {"type": "move", "pawn": "s4", "to": "c9", "card": "B3"},
                {"type": "discard-tile", "card": "B3", "from": "display"}, deck)
    assert s.players[0].rows[3] == ("B10",)
    assert GAME.to_act(s) == (1,) and len(s.players[0].hand) == 8


def test_a_point_tile_scores_again_for_every_later_arrival_the_same_seats_included():
    state = start({"c1": "points-2"})
    deck = {"type": "draw", "from": "deck"}
    state, _ = play(state, 0, {"type": "move", "pawn": "s1", "to": "c1", "card": "R3"}, deck,
                    seq=4)
    state, _ = play(state, 1, {"type": "discard", "card": state.players[1].hand[0]}, deck)
    state, _ = play(state, 0, {"type": "move", "pawn": "big", "to": "c1", "card": "R8"}, deck,
                    seq=8)
    assert [(a.points, a.event) for a in state.players[0].awards] == [(2, 4), (2, 8)]
    assert [(t.cell, t.taken_by) for t in state.tiles] == [("c1", None)]


def test_removing_the_top_card_for_a_discard_tile_re_derives_the_row_direction():
    # Open question 8: the green row 2, 5 is ascending; without its 5 it is open again.
    state = with_tiles(dealt(["B3", "G1"]), {"c3": "discard"})
    state = with_seat(state, 0, rows={"G": ("G2", "G5")})
    assert {"type": "move", "pawn": "s2", "to": "c2", "card": "G1"} not in GAME.legal_moves(
        state, 0)
    deck = {"type": "draw", "from": "deck"}
    state, _ = play(state, 0, {"type": "move", "pawn": "s1", "to": "c3", "card": "B3"},
                    {"type": "discard-tile", "card": "G5"}, deck)
    state, _ = play(state, 1, {"type": "discard", "card": state.players[1].hand[0]}, deck)
    state, _ = play(state, 0, {"type": "move", "pawn": "s2", "to": "c2", "card": "G1"})
    assert state.players[0].rows[2] == ("G2", "G1")  # now descending


def test_a_clover_move_onto_a_discard_tile_demands_the_discard_and_ends_the_chain():
    state = start({"c1": "clover", "c5": "discard"})
    after, facts = play(state, 0, {"type": "move", "pawn": "s1", "to": "c1", "card": "R3"},
                        {"type": "clover", "pawn": "s1", "to": "c5"})
    assert after.phase == "discard-tile" and after.due_at == "c5"
    after, _ = play(after, 0, {"type": "discard-tile", "card": "G9"})
    assert after.phase == "draw"
    assert {m["type"] for m in GAME.legal_moves(after, 0)} == {"draw"}


def test_a_clover_move_onto_a_stack_cell_takes_a_stone():
    state = start({"c16": "clover"}, s1="c12")
    after, facts = play(state, 0, {"type": "move", "pawn": "s1", "to": "c16", "card": "R8"},
                        {"type": "clover", "pawn": "s1", "to": "c21"}, seq=20)
    assert [(s.colour, s.cell, s.event) for s in after.players[0].stones] == [("B", "c21", 21)]
    assert after.stacks == (5, 5, 5, 4, 5) and after.phase == "draw"
