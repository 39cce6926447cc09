"""Moving a pawn with a card, discarding, drawing back to 8: every rule and each way to break
it."""

from dataclasses import replace

import pytest

from engine.games.keltis_nwnz.game import GAME

from .tables import dealt, pawn, play, refused, with_seat, with_tiles


@pytest.fixture
def state():
    return with_tiles(dealt(["R3", "G2", "B10", "B3", "Y5", "V7", "G9", "R8"]), {})


def test_moving_puts_the_card_in_its_row_and_the_pawn_one_cell_ahead(state):
    after, facts = play(state, 0, {"type": "move", "pawn": "s2", "to": "c1", "card": "R3"})
    assert pawn(after, 0, "s2") == "c1"
    assert after.players[0].rows[0] == ("R3",)
    assert "R3" not in after.players[0].hand and len(after.players[0].hand) == 7
    assert after.phase == "draw"
    assert facts == [{"type": "moved", "seat": 0, "pawn": "s2", "origin": "start", "to": "c1",
                      "card": "R3"}]


def test_the_card_must_have_the_colour_of_the_cell_entered(state):
    detail = refused(state, 0, {"type": "move", "pawn": "s1", "to": "c2", "card": "R3"},
                     "wrong-colour")
    assert detail.startswith("cell c2 is green: play a green card to enter it")


def test_a_joker_cell_takes_any_colour_into_that_colours_row(state):
    state = with_seat(state, 0, pawns={"s1": "c2"})
    onto_joker = {m["card"] for m in GAME.legal_moves(state, 0) if m.get("to") == "c6"}
    assert {card[0] for card in onto_joker} == set("RYGBV")
    after, _ = play(state, 0, {"type": "move", "pawn": "s1", "to": "c6", "card": "B10"})
    assert pawn(after, 0, "s1") == "c6"
    assert after.players[0].rows[3] == ("B10",)


def test_a_joker_cell_still_wants_the_card_to_fit_its_row(state):
    state = with_seat(state, 0, pawns={"s1": "c2"}, rows={"B": ("B5", "B6")})
    move = {"type": "move", "pawn": "s1", "to": "c6", "card": "B3"}
    detail = refused(state, 0, move, "row-direction")
    assert "blue row is ascending" in detail
    assert move not in GAME.legal_moves(state, 0)
    assert {**move, "card": "B10"} in GAME.legal_moves(state, 0)


def test_the_card_must_fit_its_display_row(state):
    state = with_seat(state, 0, rows={"G": ("G2", "G5")})
    detail = refused(state, 0, {"type": "move", "pawn": "s1", "to": "c2", "card": "G2"},
                     "row-direction")
    assert "green row is ascending" in detail
    # Equal values are always allowed: a row of 2, 5 takes a 9 and then another 9.
    state = with_seat(state, 0, rows={"G": ("G2", "G9")})
    after, _ = play(state, 0, {"type": "move", "pawn": "s1", "to": "c2", "card": "G9"})
    assert after.players[0].rows[2] == ("G2", "G9", "G9")


def test_no_card_reaches_the_display_without_moving_a_pawn(state):
    # There is no move that only plays a card: every play names a pawn and a cell.
    assert {m["type"] for m in GAME.legal_moves(state, 0)} == {"move", "discard"}
    assert all("pawn" in m for m in GAME.legal_moves(state, 0) if m["type"] == "move")
    assert refused(state, 0, {"type": "move", "card": "R3"}, "no-such-pawn")


def test_a_pawn_moves_one_cell_forward_along_an_edge_only(state):
    state = with_seat(state, 0, pawns={"s1": "c5"})
    detail = refused(state, 0, {"type": "move", "pawn": "s1", "to": "c14", "card": "V7"},
                     "not-ahead")
    assert "c14 is not one cell ahead of s1 on c5" in detail and "(c9, c10)" in detail
    # Never back toward the start stone.
    assert refused(state, 0, {"type": "move", "pawn": "s1", "to": "c1", "card": "R3"},
                   "not-ahead")


def test_a_pawn_on_a_final_cell_moves_no_more(state):
    state = with_seat(state, 0, pawns={"s1": "c53"})
    detail = refused(state, 0, {"type": "move", "pawn": "s1", "to": "c52", "card": "R8"},
                     "not-ahead")
    assert "final cell c53" in detail


def test_a_pawn_on_a_final_cell_gives_no_right_to_move_others_with_its_colour(state):
    # Base rule cancelled: s1 on the red final cell does not let red cards enter a green cell.
    state = with_seat(state, 0, pawns={"s1": "c53"})
    refused(state, 0, {"type": "move", "pawn": "s2", "to": "c2", "card": "R3"}, "wrong-colour")
    assert not any(
        m.get("to") == "c2" and m.get("card", "").startswith("R")
        for m in GAME.legal_moves(state, 0)
    )


def test_any_number_of_pawns_share_a_cell(state):
    state = with_seat(state, 1, pawns={"s1": "c1", "big": "c1"})
    state = with_seat(state, 0, pawns={"s3": "c1"})
    after, _ = play(state, 0, {"type": "move", "pawn": "s2", "to": "c1", "card": "R3"})
    assert [pawn(after, 0, "s2"), pawn(after, 0, "s3")] == ["c1", "c1"]


def test_unknown_pawns_cells_cards_and_moves_are_refused(state):
    refused(state, 0, {"type": "move", "pawn": "s9", "to": "c1", "card": "R3"}, "no-such-pawn")
    refused(state, 0, {"type": "move", "pawn": "s1", "to": "c99", "card": "R3"}, "no-such-cell")
    refused(state, 0, {"type": "move", "pawn": "s1", "to": ["c1"], "card": "R3"},
            "no-such-cell")
    assert refused(state, 0, {"type": "move", "pawn": "s1", "to": "c1", "card": "R0"},
                   "not-in-hand") == "R0 is not in your hand: you use only cards you hold"
    refused(state, 0, {"type": "move", "pawn": "s1", "to": "c1"}, "malformed-move")
    refused(state, 0, {"type": "fly"}, "unknown-move")
    refused(state, 0, ["move"], "malformed-move")
    refused(state, 1, {"type": "discard", "card": "R3"}, "not-your-turn")


def test_discarding_puts_the_card_on_its_colour_pile_and_then_draws(state):
    after, facts = play(state, 0, {"type": "discard", "card": "G9"})
    assert after.piles.top("G") == "G9"
    assert after.phase == "draw" and len(after.players[0].hand) == 7
    assert facts == [{"type": "discarded", "seat": 0, "card": "G9", "source": "hand"}]


def test_a_card_discarded_this_turn_cannot_be_drawn_back(state):
    state = replace(state, piles=state.piles.discard("R5").end_turn())
    after, _ = play(state, 0, {"type": "discard", "card": "G9"})
    detail = refused(after, 0, {"type": "draw", "from": "G"}, "discarded-this-turn")
    assert "discarded this turn" in detail
    assert {"type": "draw", "from": "G"} not in GAME.legal_moves(after, 0)
    # Another pile's top card may be drawn.
    drawn, _ = play(after, 0, {"type": "draw", "from": "R"})
    assert "R5" in drawn.players[0].hand


def test_drawing_back_to_8_passes_the_turn_clockwise(state):
    after, facts = play(
        state, 0, {"type": "discard", "card": "G9"}, {"type": "draw", "from": "deck"}
    )
    assert len(after.players[0].hand) == 8
    assert GAME.to_act(after) == (1,) and after.phase == "play"
    assert after.piles.fresh == (0,) * 5
    assert facts[-1]["type"] == "drew" and facts[-1]["hidden"] == ["card"]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_turn_passes_clockwise_and_the_last_seat_is_followed_by_seat_0(seats):
    reds = [["R3"], ["R4"], ["R5"], ["R6"]][:seats]
    state = dealt(*reds, seats=seats)
    for seat, (card,) in enumerate(reds):
        assert GAME.to_act(state) == (seat,)
        state, _ = play(state, seat, {"type": "move", "pawn": "s1", "to": "c1", "card": card},
                        {"type": "draw", "from": "deck"})
        assert len(state.players[seat].hand) == 8 and pawn(state, seat, "s1") == "c1"
    assert GAME.to_act(state) == (0,) and state.phase == "play"


def test_moves_out_of_order_are_refused_with_what_is_due(state):
    detail = refused(state, 0, {"type": "draw", "from": "deck"}, "play-first")
    assert "play or discard a card first" in detail
    refused(state, 0, {"type": "clover", "pawn": "s1", "to": "c1"}, "play-first")
    refused(state, 0, {"type": "discard-tile", "card": "R3"}, "play-first")
    after, _ = play(state, 0, {"type": "discard", "card": "G9"})
    detail = refused(after, 0, {"type": "discard", "card": "R3"}, "draw-due")
    assert "draw back to 8" in detail
    refused(after, 0, {"type": "draw", "from": "pile"}, "no-such-pile")
    refused(after, 0, {"type": "draw"}, "malformed-move")
    refused(after, 0, {"type": "draw", "from": "B"}, "pile-empty")


def test_each_listed_move_moves_its_pawn_or_discards_its_card_and_only_the_seat_to_act_has_any(
    state,
):
    listed = GAME.legal_moves(state, 0)
    assert {m["type"] for m in listed} == {"move", "discard"}
    for move in listed:
        after, facts = play(state, 0, move)
        assert move["card"] not in after.players[0].hand
        if move["type"] == "move":
            assert pawn(after, 0, move["pawn"]) == move["to"]
        else:
            assert facts[0] == {"type": "discarded", "seat": 0, "card": move["card"],
                                "source": "hand"}
    assert GAME.legal_moves(state, 1) == ()
