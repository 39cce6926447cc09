"""Hidden information: hands and the deck stay with those who may see them."""

from dataclasses import replace

from engine.game import SPECTATOR, TABLE, IllegalMove
from engine.games.keltis_nwnz.game import GAME
from engine.visibility import redact

from .tables import dealt, play, with_tiles


def test_a_seat_sees_its_own_hand_and_nobody_elses():
    state = dealt(["R3", "G2"], seats=3)
    mine = GAME.view(state, 0)
    assert mine["you"]["hand"][:2] == ["R3", "G2"]
    assert "private" not in mine and "deck" not in mine
    assert [p["hand_size"] for p in mine["players"]] == [8, 8, 8]
    spectator = GAME.view(state, SPECTATOR)
    assert "you" not in spectator and "R3" not in str(spectator["players"])
    table = GAME.view(state, TABLE)
    assert table["deck"] == list(state.piles.deck) and table["set_aside"] == []
    assert table["private"][1]["hand"] == list(state.players[1].hand)


def test_two_players_set_aside_cards_are_seen_by_nobody_but_the_table():
    state = dealt()
    assert len(GAME.view(state, TABLE)["set_aside"]) == 30
    assert "set_aside" not in GAME.view(state, 0)


def test_the_board_is_public_in_every_view():
    view = GAME.view(with_tiles(dealt(), {"c1": "clover"}), SPECTATOR)
    assert view["tiles"] == [{"cell": "c1", "tile": "clover", "taken_by": None}]
    assert view["stacks"]["B"] == {"cell": "c21", "left": 5}
    assert view["players"][0]["pawns"]["big"] == "start"


def test_a_card_drawn_from_the_deck_is_blanked_for_other_seats():
    state, facts = play(dealt(["G9"]), 0, {"type": "discard", "card": "G9"},
                        {"type": "draw", "from": "deck"})
    drew = facts[-1]
    assert redact(drew, 1)["card"] is None and redact(drew, SPECTATOR)["card"] is None
    assert redact(drew, 0)["card"] == drew["card"]


def test_a_card_drawn_from_a_pile_is_public():
    state = dealt(["G9"])
    state = replace(state, piles=state.piles.discard("R0").end_turn())
    _, facts = play(state, 0, {"type": "discard", "card": "G9"}, {"type": "draw", "from": "R"})
    assert redact(facts[-1], 1)["card"] == "R0"


def test_an_error_about_a_card_names_only_that_card():
    state = dealt(["R3"], ["B7"])
    try:
        GAME.apply(state, 0, {"type": "discard", "card": "B7"}, 3)
    except IllegalMove as error:
        assert error.detail == "B7 is not in your hand"
    else:
        raise AssertionError("discarding a card held by another seat was accepted")
