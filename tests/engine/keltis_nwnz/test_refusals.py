"""Every way a keltis-nwnz move is refused: a stable code and a sentence naming the rule."""

from dataclasses import replace

import pytest

from engine.games.keltis_nwnz.game import GAME

from .tables import at_clover, at_discard_tile, at_draw, at_play, refused, with_seat


def over():
    return replace(at_play(), over=True, ended_by="deck")


def on_final():
    return with_seat(at_play(), 0, pawns={"s1": "c53"})


def ascending_green():
    return with_seat(at_play(), 0, rows={"G": ("G2", "G5")})


MOVE = {"type": "move", "pawn": "s1", "to": "c1", "card": "R3"}

CASES = [
    (over, 0, MOVE, "game-finished", "the game is over"),
    (at_play, 1, MOVE, "not-your-turn", "it is seat 0's turn"),
    (at_play, 0, ["move"], "malformed-move", 'a move is an object with a "type"'),
    (at_play, 0, {"type": "move", "pawn": "s1", "to": "c1"}, "malformed-move",
     "needs a 'card'"),
    (at_play, 0, {"type": "fly"}, "unknown-move", "keltis-nwnz has no move of type 'fly'"),
    (at_play, 0, {"type": "draw", "from": "deck"}, "play-first",
     "play or discard a card first"),
    (at_play, 0, {"type": "move", "pawn": "s9", "to": "c1", "card": "R3"}, "no-such-pawn",
     "your pawns are s1, s2, s3, s4, big"),
    (at_play, 0, {"type": "move", "pawn": "s1", "to": "c99", "card": "R3"}, "no-such-cell",
     "'c99' is not a cell of the board"),
    (at_play, 0, {"type": "move", "pawn": "s1", "to": "c5", "card": "Y5"}, "not-ahead",
     "a pawn moves one cell forward along a path"),
    (on_final, 0, {"type": "move", "pawn": "s1", "to": "c52", "card": "R8"}, "not-ahead",
     "stands on the final cell c53: a pawn there moves no more"),
    (at_play, 0, {"type": "move", "pawn": "s1", "to": "c1", "card": "R0"}, "not-in-hand",
     "you use only cards you hold"),
    (at_play, 0, {"type": "move", "pawn": "s1", "to": "c2", "card": "R3"}, "wrong-colour",
     "cell c2 is green: play a green card to enter it"),
    (ascending_green, 0, {"type": "move", "pawn": "s1", "to": "c2", "card": "G2"},
     "row-direction", "the green row is ascending: 2 is below its highest card 5"),
    (at_clover, 0, {"type": "draw", "from": "deck"}, "clover-due",
     "the clover tile on c1 comes first"),
    (at_clover, 0, {"type": "clover", "pawn": "s1", "to": "c9"}, "not-ahead",
     "c9 is not one cell ahead of s1 on c1"),
    (at_discard_tile, 0, {"type": "draw", "from": "deck"}, "discard-tile-due",
     "the discard tile on c3 comes first"),
    (at_discard_tile, 0, {"type": "discard-tile", "card": "R1"}, "not-discardable",
     "neither in your hand nor the top card of one of your display rows"),
    (at_discard_tile, 0, {"type": "discard-tile", "card": "R8", "from": "display"},
     "not-on-top", "the discard tile takes only the last card laid in a row"),
    (at_discard_tile, 0, {"type": "discard-tile", "card": "R2", "from": "hand"},
     "not-in-hand", "R2 is not in your hand"),
    (at_discard_tile, 0, {"type": "discard-tile", "card": "R2", "from": "box"},
     "malformed-move", "'from' is 'hand' or 'display'"),
    (at_draw, 0, {"type": "discard", "card": "R3"}, "draw-due", "draw back to 8 first"),
    (at_draw, 0, {"type": "draw"}, "malformed-move", "a draw needs 'from'"),
    # The draw refusals come from the shared engine/piles.py: only their gist is pinned here.
    (at_draw, 0, {"type": "draw", "from": "pile"}, "no-such-pile", "'pile' is neither"),
    (at_draw, 0, {"type": "draw", "from": "B"}, "pile-empty", "discard pile is empty"),
    (at_draw, 0, {"type": "draw", "from": "G"}, "discarded-this-turn",
     "discarded in the same turn cannot be drawn"),
]


@pytest.mark.parametrize(("situation", "seat", "move", "code", "words"), CASES)
def test_each_refusal_has_its_code_and_names_the_rule(situation, seat, move, code, words):
    refused(situation(), seat, move, code, words)


def test_a_refused_move_is_not_among_the_legal_moves():
    for situation, seat, move, _, _ in CASES:
        assert move not in GAME.legal_moves(situation(), seat)
