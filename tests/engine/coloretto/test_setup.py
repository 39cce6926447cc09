"""Setting up a deal (docs/api.md, Titles, cards and moves) and validating options."""

from collections import Counter

import pytest

from engine.game import SPECTATOR, TABLE, BadSetup, Table
from engine.games.coloretto import COLOURS, GAME, JOKER, LAST_ROUND, PLUS_TWO
from engine.shuffle import shuffle
from tests.engine.coloretto.support import CANONICAL, dealt, stack
from tests.engine.vectors import vector


def test_canonical_deck_is_colours_in_order_then_plus_twos_then_jokers():
    assert CANONICAL == (
        *(c for c in ("blue", "brown", "grey", "green", "orange", "pink", "yellow")
          for _ in range(9)),
        *[PLUS_TWO] * 10,
        *[JOKER] * 3,
    )
    assert LAST_ROUND not in CANONICAL
    assert GAME.canonical_deck(3, {}) == GAME.canonical_deck(5, {}) == CANONICAL


def test_seeded_deck_is_the_contract_vector_for_the_coloretto_deck():
    case = next(v for v in vector("shuffle.json")["vectors"] if JOKER in v["cards"])
    assert tuple(case["cards"]) == CANONICAL
    state = dealt(4, seed=case["seed"])
    # The vector's deck begins brown grey +2 grey joker +2 blue orange: the seats take
    # brown, grey, blue (skipping the second grey), orange.
    assert [c[0].name for c in state.collected] == ["brown", "grey", "blue", "orange"]
    rest = list(case["shuffled"])
    for taken in ("brown", "grey", "blue", "orange"):
        rest.remove(taken)
    assert list(state.deck) == [*rest[:-15], LAST_ROUND, *rest[-15:]]


@pytest.mark.parametrize(
    ("seats", "removed", "starting"),
    [
        # shuffle(COLOURS, seed, "removed-color") begins with blue for the vector's seed
        (3, "blue", ["brown", "grey", "orange"]),
        (5, None, ["brown", "grey", "blue", "orange", "green"]),
    ],
)
def test_the_contract_vector_deals_three_and_five_players(seats, removed, starting):
    case = next(v for v in vector("shuffle.json")["vectors"] if JOKER in v["cards"])
    state = dealt(seats, seed=case["seed"])
    assert state.removed == removed
    assert [c[0].name for c in state.collected] == starting
    rest = [c for c in case["shuffled"] if c != state.removed]
    for taken in starting:
        rest.remove(taken)
    assert list(state.deck) == [*rest[:-15], LAST_ROUND, *rest[-15:]]


def test_each_seat_takes_the_first_colour_down_the_deck_that_no_earlier_seat_took():
    deck = stack(JOKER, "green", PLUS_TWO, "green", "blue", "green", "yellow", "pink")
    state = dealt(4, deck)
    assert [c[0].name for c in state.collected] == ["green", "blue", "yellow", "pink"]


def test_starting_cards_leave_the_deck_and_the_rest_keep_their_order():
    deck = stack(JOKER, "green", PLUS_TWO, "green", "blue", "green", "yellow", "pink")
    state = dealt(4, deck)
    rest = [JOKER, PLUS_TWO, "green", "green", *deck[8:]]
    assert [c for c in state.deck if c != LAST_ROUND] == rest


def test_starting_cards_are_collected_with_entry_1_as_their_source():
    state = dealt(3, removed_color="blue")
    assert all(cards[0].events == (1,) for cards in state.collected)


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_the_last_round_card_has_exactly_15_cards_beneath_it(seats):
    state = dealt(seats)
    assert state.deck.count(LAST_ROUND) == 1
    assert len(state.deck) - state.deck.index(LAST_ROUND) - 1 == 15


@pytest.mark.parametrize(("seats", "pile"), [(3, 64), (4, 72), (5, 71)])
def test_pile_size_before_the_last_round_card_per_player_count(seats, pile):
    state = dealt(seats)
    assert len(state.deck) == pile + 1


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_one_empty_row_per_seat_and_seat_0_begins(seats):
    state = dealt(seats)
    assert state.rows == ((),) * seats and state.taken_by == (None,) * seats
    assert GAME.to_act(state) == (0,) and GAME.round(state) == 1
    assert len({c[0].name for c in state.collected}) == seats


def test_three_players_lose_the_nine_cards_of_the_removed_colour():
    state = dealt(3, removed_color="pink")
    everything = [*state.deck, *(c.name for cards in state.collected for c in cards)]
    counts = Counter(everything)
    assert "pink" not in counts
    assert counts[PLUS_TWO] == 10 and counts[JOKER] == 3
    assert all(counts[c] == 9 for c in COLOURS if c != "pink")
    assert state.removed == "pink"


def test_three_players_removed_colour_comes_out_after_the_shuffle_of_the_full_deck():
    seeded = dealt(3, seed="s", removed_color="grey")
    full = shuffle(CANONICAL, "s", "deal-1")
    rest = [c for c in full if c != "grey"]
    for taken in (c[0].name for c in seeded.collected):
        rest.remove(taken)
    assert [c for c in seeded.deck if c != LAST_ROUND] == rest


def test_three_players_without_the_option_remove_a_colour_drawn_with_label_removed_color():
    for seed in ("a", "b", "c", "d"):
        state = dealt(3, seed=seed)
        assert state.removed == shuffle(COLOURS, seed, "removed-color")[0]


def test_an_explicit_deck_with_three_players_still_drops_the_removed_colour():
    deck = stack("grey", "blue", "green", "pink")
    state = dealt(3, deck, removed_color="grey")
    assert [c[0].name for c in state.collected] == ["blue", "green", "pink"]
    assert "grey" not in state.deck


@pytest.mark.parametrize("seats", [4, 5])
def test_four_and_five_players_play_every_colour(seats):
    state = dealt(seats)
    assert state.removed is None
    assert Counter(state.deck)["blue"] + sum(
        c[0].name == "blue" for c in state.collected
    ) == 9


# -- options ----------------------------------------------------------------------------------


def test_options_default_to_a_match_of_four_deals_and_no_fixed_removed_colour():
    """The rule book: "Vince il giocatore che dopo quattro partite ha più punti"."""
    assert GAME.options(4, {}) == {"deals": 4, "removed_color": None}
    assert GAME.options(5, {"deals": 1}) == {"deals": 1, "removed_color": None}
    assert GAME.options(3, {"removed_color": "blue", "deals": 4}) == {
        "deals": 4, "removed_color": "blue"
    }


def test_an_unknown_option_is_refused():
    with pytest.raises(BadSetup, match="no option 'rounds'"):
        GAME.options(4, {"rounds": 2})


@pytest.mark.parametrize("seats", [4, 5])
def test_removed_color_is_for_three_players_only(seats):
    with pytest.raises(BadSetup, match="three players only"):
        GAME.options(seats, {"removed_color": "blue"})


@pytest.mark.parametrize("colour", ["red", "Blue", 3, ""])
def test_removed_color_must_be_a_colour_of_the_game(colour):
    with pytest.raises(BadSetup, match="must be one of"):
        GAME.options(3, {"removed_color": colour})


@pytest.mark.parametrize("deals", [0, -1, 21, "2", 2.0, True, None])
def test_deals_must_be_a_whole_number_from_1_to_20(deals):
    with pytest.raises(BadSetup, match="deals"):
        GAME.options(4, {"deals": deals})


# -- hidden information -----------------------------------------------------------------------


def test_spectators_and_seats_see_no_deck_order_but_the_table_does():
    state = dealt(4)
    for viewer in (SPECTATOR, 0, 3):
        seen = GAME.view(state, viewer)
        assert "deck" not in seen and "private" not in seen
        assert seen["deck_size"] == len(state.deck)
        assert not any(LAST_ROUND in str(v) for k, v in seen.items() if k != "last_round")
    assert GAME.view(state, TABLE)["deck"] == list(state.deck)


def test_views_show_the_starting_cards_and_removed_colour_to_everybody():
    state = dealt(3, removed_color="yellow")
    seen = GAME.view(state, SPECTATOR)
    assert seen["removed_color"] == "yellow"
    assert seen["collected"] == [{c[0].name: 1} for c in state.collected]
    assert seen["rows"] == [{"row": r, "cards": [], "taken_by": None} for r in range(3)]
    assert seen["turn"] == 0 and seen["deal"] == 1 and seen["deals"] == 4


def test_the_seed_never_appears_in_a_view():
    state = GAME.deal(Table(4, GAME.options(4, {}), "secret-seed-xyz"))
    for viewer in (SPECTATOR, 0, TABLE):
        assert "secret-seed-xyz" not in str(GAME.view(state, viewer))


@pytest.mark.parametrize(("seats", "given"), [(3, {}), (3, {"removed_color": "pink"}), (5, {})])
def test_filled_in_options_are_accepted_again_unchanged(seats, given):
    """The log stores the filled-in options, and a replay validates them once more."""
    filled = GAME.options(seats, given)
    assert GAME.options(seats, filled) == filled
