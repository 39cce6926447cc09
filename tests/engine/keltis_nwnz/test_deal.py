"""Setting up keltis-nwnz: the deck, the deal per player count, pawns, tiles and stacks."""

from collections import Counter

import pytest

from engine.game import BadSetup, Table
from engine.games.keltis_nwnz.board import stand_in
from engine.games.keltis_nwnz.game import GAME
from engine.games.keltis_nwnz.state import TILES
from engine.shuffle import shuffle


def test_canonical_deck_is_two_of_each_value_per_colour_in_contract_order():
    deck = GAME.canonical_deck(3, {})
    assert len(deck) == 110
    assert deck[:4] == ("R0", "R0", "R1", "R1")
    assert deck[22:24] == ("Y0", "Y0")
    assert set(Counter(deck).values()) == {2}


@pytest.mark.parametrize(("seats", "deck_size", "set_aside"), [(2, 64, 30), (3, 86, 0), (4, 78, 0)])
def test_deal_gives_whole_hands_of_8_from_the_top_seat_0_first(seats, deck_size, set_aside):
    table = Table(seats, {}, "deal")
    state = GAME.deal(table)
    deck = shuffle(GAME.canonical_deck(seats, {}), "deal", "deal-1")
    for seat in range(seats):
        assert state.players[seat].hand == tuple(deck[8 * seat : 8 * seat + 8])
    assert len(state.piles.deck) == deck_size
    assert state.piles.deck == tuple(deck[8 * seats : 8 * seats + deck_size])
    assert len(state.set_aside) == set_aside
    # Two players: the bottom 30 of the shuffled deck are set aside unseen.
    assert state.set_aside == tuple(deck[8 * seats + deck_size :])
    assert GAME.to_act(state) == (0,)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_pawn_starts_on_the_start_stone_with_nothing_scored(seats):
    state = GAME.deal(Table(seats, {}, "x"))
    for player in state.players:
        assert [p.cell for p in player.pawns] == ["start"] * 5
        assert [p.name for p in player.pawns] == ["s1", "s2", "s3", "s4", "big"]
        assert player.awards == () and player.stones == () and player.rows == ((),) * 5
    for seat in GAME.score(state).seats:
        assert sum(c.points for c in seat.components if c.label.startswith("pawn")) == 0


def test_path_tiles_lie_on_the_22_spots_in_the_order_shuffled_under_label_tiles():
    state = GAME.deal(Table(3, {}, "tiles seed"))
    expected = shuffle(TILES, "tiles seed", "tiles")
    assert [(t.cell, t.tile) for t in state.tiles] == list(
        zip(stand_in().tile_spots, expected, strict=True)
    )
    assert Counter(TILES) == {
        "clover": 5, "discard": 5, "points-2": 5, "points-3": 2,
        "wish-R": 1, "wish-Y": 1, "wish-G": 1, "wish-B": 1, "wish-V": 1,
    }


def test_each_wish_stone_stack_starts_with_five_stones():
    assert GAME.deal(Table(2, {}, "s")).stacks == (5, 5, 5, 5, 5)


def test_options_are_refused_and_player_count_checked():
    assert GAME.options(2, {}) == {}
    with pytest.raises(BadSetup, match="no option"):
        GAME.options(3, {"variant": 1})
    with pytest.raises(BadSetup, match="2 to 4"):
        GAME.options(5, {})
