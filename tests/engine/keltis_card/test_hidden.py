"""Hidden information: hands, the deck and the set-aside cards reach nobody else while running."""

import random

import pytest

from engine import log
from engine.game import SPECTATOR, TABLE
from engine.games.keltis_card import GAME
from engine.playout import play as playout_of
from engine.visibility import redact
from tests.engine.keltis_card.support import dealt, draw, play, refused, run, stack, with_hand


def test_a_seat_sees_its_own_hand_only_and_spectators_no_hand():
    state = dealt(2, stack("R0", "R1", "R2", "R3", "R3", "R4", "R4", "R5"))
    mine = GAME.view(state, 0)
    assert mine["you"] == {"hand": ["R0", "R1", "R2", "R3", "R3", "R4", "R4", "R5"]}
    assert "R0" not in str(GAME.view(state, 1))
    public = GAME.view(state, SPECTATOR)
    assert not {"you", "private", "hand", "hands", "deck", "set_aside"} & set(public)
    assert public["hand_sizes"] == [8, 8] and public["deck_size"] == 55
    assert public["set_aside_size"] == 30


def test_only_the_table_sees_the_deck_order_and_the_set_aside_cards():
    state = dealt(2)
    table = GAME.view(state, TABLE)
    assert table["deck"] == list(state.piles.deck)
    assert table["set_aside"] == list(state.set_aside)
    for viewer in (0, 1, SPECTATOR):
        assert "deck" not in GAME.view(state, viewer)
        assert "set_aside" not in GAME.view(state, viewer)


def test_a_card_drawn_from_the_deck_is_hidden_from_everyone_but_its_drawer():
    state = with_hand(dealt(3), 0, "G5", "R1", "R2", "R3", "R4", "R5", "R6", "R7")
    top = state.piles.deck[0]
    _, facts = run(state, 0, play("G5"), draw())
    drew = facts[-1].to_json()
    assert drew == {"type": "drew", "seat": 0, "card": top, "hidden": ["card"]}
    assert redact(drew, 1)["card"] is None and redact(drew, SPECTATOR)["card"] is None
    assert redact(drew, 0)["card"] == top


def test_discard_piles_and_cards_taken_from_them_are_public():
    state = with_hand(dealt(3), 0, "G5", "R1", "R2", "R3", "R4", "R5", "R6", "R7")
    state, _ = run(state, 0, {"type": "discard", "card": "G5"}, draw())
    assert GAME.view(state, SPECTATOR)["discards"]["G"] == ["G5"]
    state = with_hand(state, 1, "Y1", "R1", "R2", "R3", "R4", "R5", "R6", "R7")
    _, facts = run(state, 1, {"type": "discard", "card": "Y1"}, draw("G"))
    assert "hidden" not in facts[-1].to_json()


def test_legal_moves_of_a_seat_name_only_its_own_cards():
    state = dealt(3)
    named = {m.get("card") for m in GAME.legal_moves(state, 0)} - {None}
    assert named <= set(state.hands[0])
    assert GAME.legal_moves(state, 1) == GAME.legal_moves(state, 2) == ()


def test_refusals_do_not_tell_who_holds_a_card_or_what_the_deck_holds():
    state = dealt(3, stack("R0", "R1", "R2", "R3", "R3", "R4", "R4", "R5", "G9"))
    other = "G9"
    detail = refused(state, 0, play(other), "not-in-hand")
    assert detail == f"{other} is not in your hand: only own cards are used"
    assert refused(state, 1, play(other), "not-your-turn").startswith("it is seat 0's turn")


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_in_a_whole_game_a_card_from_the_deck_is_seen_by_its_drawer_alone(seats):
    playout = playout_of(GAME, seats, "hidden", random.Random(seats))
    drawn = [f for e in playout.entries if e["type"] == log.ACCEPTED
             for f in e["effects"] if f["type"] == "drew"]
    assert drawn
    for fact in drawn:
        for viewer in (*range(seats), SPECTATOR):
            seen = redact(fact, viewer)["card"]
            assert seen == (fact["card"] if viewer == fact["seat"] else None)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_in_a_whole_game_views_and_legal_moves_show_a_seat_only_its_own_hand(seats):
    playout = playout_of(GAME, seats, "hidden", random.Random(seats))
    for state in playout.states[::7]:
        acting = GAME.to_act(state)
        for seat in range(seats):
            view = GAME.view(state, seat)
            assert view["you"] == {"hand": list(state.hands[seat])}
            assert not {"private", "deck", "set_aside"} & set(view)
            moves = GAME.legal_moves(state, seat)
            if seat not in acting:
                assert moves == ()
            named = {c for m in moves for c in (m.get("card"), *m.get("cards", ())) if c}
            assert named <= set(state.hands[seat])
