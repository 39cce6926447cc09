"""Deck and discard piles shared by the Keltis games (engine/piles.py)."""

import pytest

from engine import codec
from engine.piles import DECK, Piles, deal_hands
from tests.engine.refusals import refusal

NAMES = ("R", "Y", "G", "B", "V", "P")
COLOURS = NAMES[:5]


def piles(deck=("R1", "G2", "B3")):
    return Piles.start(deck, NAMES, COLOURS)


def refused(p, source, code, *words):
    return refusal(lambda: p.draw(source), code, *words)


def test_drawing_from_the_deck_takes_its_top_card():
    p, card = piles().draw(DECK)
    assert card == "R1" and p.deck == ("G2", "B3")


def test_a_discard_goes_on_the_pile_of_its_first_letter():
    p = piles().discard("G7").discard("P4").discard("GF")
    assert p.top("G") == "GF" and p.top("P") == "P4" and p.top("R") is None
    assert p.public()["discards"]["G"] == ["G7", "GF"]


def test_a_card_discarded_this_turn_cannot_be_drawn_back():
    p = piles().discard("G7")
    refused(p, "G", "discarded-this-turn", "same turn")
    assert "G" not in p.sources()


def test_next_turn_the_discarded_card_may_be_drawn():
    p = piles().discard("G7").end_turn()
    p, card = p.draw("G")
    assert card == "G7" and p.top("G") is None


def test_the_pile_stays_blocked_for_the_second_draw_of_the_turn():
    p = piles().discard("Y5").discard("P5")
    p, _ = p.draw(DECK)
    refused(p, "Y", "discarded-this-turn")


def test_an_older_pile_may_be_drawn_while_another_is_blocked():
    p = piles().discard("B2").end_turn().discard("R9")
    assert p.sources() == (DECK, "B")


def test_the_point_pile_is_not_drawable():
    p = piles().discard("P4").end_turn()
    detail = refused(p, "P", "pile-not-drawable")
    assert detail == (
        "the point-card discard pile cannot be drawn from: only the deck and the piles"
        " R, Y, G, B, V"
    )
    assert "P" not in p.sources()


def test_unknown_and_empty_piles_are_refused():
    detail = refused(piles(), "X", "no-such-pile")
    assert detail == (
        "a draw takes the top card of the deck or of a discard pile (R, Y, G, B, V):"
        " 'X' is neither"
    )
    refused(piles(), 3, "no-such-pile")
    refused(piles(), ["R"], "no-such-pile")
    detail = refused(piles(), "R", "pile-empty")
    assert detail == "the red discard pile is empty: there is no top card to draw"


def test_the_deck_signals_exhaustion_after_its_last_card():
    p, _ = Piles.start(("R1",)).draw(DECK)
    assert p.deck_empty and p.sources() == ()
    refused(p, DECK, "deck-empty", "draw pile is empty")


def test_default_piles_are_the_five_colours_all_drawable():
    p = Piles.start(("R1",))
    assert p.names == p.drawable == COLOURS


def test_piles_round_trip_through_the_codec():
    p = piles().discard("G7")
    assert codec.decode(Piles, codec.encode(p)) == p


@pytest.mark.parametrize(("seats", "left", "aside"), [(2, 55, 30), (3, 77, 0), (4, 69, 0)])
def test_the_keltis_deal_gives_8_cards_a_seat_and_two_players_set_30_aside(seats, left, aside):
    deck = tuple(f"c{k}" for k in range(101))
    hands, draw_pile, set_aside = deal_hands(deck, seats)
    assert hands == tuple(deck[8 * s : 8 * s + 8] for s in range(seats))
    assert draw_pile == deck[8 * seats : 8 * seats + left]
    assert set_aside == deck[101 - aside :] and len(set_aside) == aside
