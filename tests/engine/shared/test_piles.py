"""Deck and discard piles shared by the Keltis games (engine/piles.py)."""

import pytest

from engine import codec
from engine.game import IllegalMove
from engine.piles import DECK, Piles

NAMES = ("R", "Y", "G", "B", "V", "P")
COLOURS = NAMES[:5]


def piles(deck=("R1", "G2", "B3")):
    return Piles.start(deck, NAMES, COLOURS)


def refused(p, source):
    with pytest.raises(IllegalMove) as caught:
        p.draw(source)
    return caught.value


def test_drawing_from_the_deck_takes_its_top_card():
    p, card = piles().draw(DECK)
    assert card == "R1" and p.deck == ("G2", "B3")


def test_a_discard_goes_on_the_pile_of_its_first_letter():
    p = piles().discard("G7").discard("P4").discard("GF")
    assert p.top("G") == "GF" and p.top("P") == "P4" and p.top("R") is None
    assert p.public()["discards"]["G"] == ["G7", "GF"]


def test_a_card_discarded_this_turn_cannot_be_drawn_back():
    p = piles().discard("G7")
    error = refused(p, "G")
    assert error.code == "discarded-this-turn" and "same turn" in error.detail
    assert "G" not in p.sources()


def test_next_turn_the_discarded_card_may_be_drawn():
    p = piles().discard("G7").end_turn()
    p, card = p.draw("G")
    assert card == "G7" and p.top("G") is None


def test_the_pile_stays_blocked_for_the_second_draw_of_the_turn():
    p = piles().discard("Y5").discard("P5")
    p, _ = p.draw(DECK)
    assert refused(p, "Y").code == "discarded-this-turn"


def test_an_older_pile_may_be_drawn_while_another_is_blocked():
    p = piles().discard("B2").end_turn().discard("R9")
    assert p.sources() == (DECK, "B")


def test_the_point_pile_is_not_drawable():
    p = piles().discard("P4").end_turn()
    assert refused(p, "P").code == "pile-not-drawable"
    assert "P" not in p.sources()


def test_unknown_and_empty_piles_are_refused():
    assert refused(piles(), "X").code == "no-such-pile"
    assert refused(piles(), 3).code == "no-such-pile"
    assert refused(piles(), "R").code == "pile-empty"


def test_the_deck_signals_exhaustion_after_its_last_card():
    p, _ = Piles.start(("R1",)).draw(DECK)
    assert p.deck_empty and p.sources() == ()
    assert refused(p, DECK).code == "deck-empty"


def test_default_piles_are_the_five_colours_all_drawable():
    p = Piles.start(("R1",))
    assert p.names == p.drawable == COLOURS


def test_piles_round_trip_through_the_codec():
    p = piles().discard("G7")
    assert codec.decode(Piles, codec.encode(p)) == p
