"""Hidden information: hands and the deck stay with those who may see them."""

from dataclasses import replace

import pytest

from engine.game import SPECTATOR, TABLE, IllegalMove
from engine.games.keltis_nwnz.game import GAME
from engine.visibility import redact

from .candidates import candidates
from .tables import at_clover, at_discard_tile, at_draw, at_play, dealt, play, refused, with_tiles


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
    assert refused(state, 0, {"type": "discard", "card": "B7"}, "not-in-hand") == (
        "B7 is not in your hand: you use only cards you hold"
    )


def rearranged(state, seat):
    """The same game as `seat` sees it, with every other hand and the deck order changed."""
    others = [s for s in range(len(state.players)) if s != seat]
    pool = [*(c for s in others for c in state.players[s].hand), *state.piles.deck][::-1]
    players = list(state.players)
    for s in others:
        size = len(players[s].hand)
        players[s], pool = replace(players[s], hand=tuple(pool[:size])), pool[size:]
    return replace(state, players=tuple(players), piles=replace(state.piles, deck=tuple(pool)))


def answers(state, seat):
    """What `seat` learns from trying every move: each refusal's code and detail, each
    accepted move's facts as a spectator sees them, and the legal-move list."""
    out = [GAME.legal_moves(state, seat), GAME.view(state, seat)]
    for move in candidates(state, seat):
        try:
            facts = GAME.apply(state, seat, move, 5).facts
        except IllegalMove as error:
            out.append((error.code, error.detail))
        else:
            out.append([redact(f.to_json(), SPECTATOR) for f in facts])
    return out


@pytest.mark.parametrize("situation", [at_play, at_clover, at_discard_tile, at_draw])
def test_no_answer_depends_on_other_hands_or_the_deck_order(situation):
    # Non-interference: refusals, legal moves, views and public facts are the same whatever
    # the other seats hold and whatever order the deck is in.
    state = situation()
    twin = rearranged(state, 0)
    assert twin.players[1].hand != state.players[1].hand and twin.piles.deck != state.piles.deck
    assert answers(twin, 0) == answers(state, 0)
