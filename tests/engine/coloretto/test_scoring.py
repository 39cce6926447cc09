"""Scoring: the colour table, three positive colours, "+2" cards, jokers, and provenance."""

import itertools
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.games.coloretto import (
    COLOURS,
    GAME,
    JOKER,
    PLUS_TWO,
    Card,
    DealEnded,
    best_assignment,
    collection_points,
    colour_points,
    score_collection,
)
from tests.engine.coloretto.support import Driver, dealt, stack, with_rows


def cards(*names: str) -> tuple[Card, ...]:
    return tuple(Card(n, (i + 2,)) for i, n in enumerate(names))


def hand(**counts: int) -> tuple[Card, ...]:
    names = [n.replace("plus_two", PLUS_TWO) for n, k in counts.items() for _ in range(k)]
    return cards(*names)


def points(collection, colours=COLOURS) -> int:
    return sum(c.points for c in score_collection(collection, 1, colours))


@pytest.mark.parametrize(("count", "worth"),
                         [(1, 1), (2, 3), (3, 6), (4, 10), (5, 15), (6, 21), (7, 21), (9, 21)])
def test_a_colour_scores_from_the_table_capped_at_six_cards(count, worth):
    assert colour_points(count) == worth
    assert points(hand(green=count)) == worth


def test_the_three_best_colours_count_positive_and_the_rest_negative():
    components = score_collection(hand(green=4, yellow=3, blue=2, pink=1, grey=2), 1, COLOURS)
    by_label = {c.label: c for c in components}
    assert by_label["green"].points == 10 and "counted positive" in by_label["green"].detail
    assert by_label["yellow"].points == 6
    assert by_label["pink"].points == -1 and "counted negative" in by_label["pink"].detail
    # blue and grey tie on 2 cards: one is positive and one negative either way.
    assert sorted((by_label["blue"].points, by_label["grey"].points)) == [-3, 3]
    assert points(hand(green=4, yellow=3, blue=2, pink=1, grey=2)) == 10 + 6 + 3 - 3 - 1


def test_a_seat_with_three_or_fewer_colours_counts_them_all_positive():
    assert points(hand(green=1, yellow=1, blue=1)) == 3
    assert points(hand(green=2, yellow=1)) == 4
    assert all(c.points > 0 for c in score_collection(hand(green=1, blue=5), 1, COLOURS))


def test_a_seven_card_colour_counted_negative_still_costs_only_21():
    assert points(hand(green=7, yellow=7, blue=7, pink=7)) == 21 + 21 + 21 - 21


def test_each_plus_two_card_is_worth_two():
    components = score_collection(hand(plus_two=3, green=1), 1, COLOURS)
    bonus = next(c for c in components if c.label == PLUS_TWO)
    assert bonus.points == 6 and bonus.detail == "3 cards worth 2 each: 6"


def test_a_joker_joins_the_colour_where_it_scores_most_and_the_detail_shows_it():
    components = score_collection(hand(joker=1, green=6, yellow=3, blue=2), 1, COLOURS)
    yellow = next(c for c in components if c.label == "yellow")
    assert yellow.detail == "4 cards (3 + 1 joker), counted positive: 10"
    assert sum(c.points for c in components) == 21 + 10 + 3
    assert not any(JOKER in c.label for c in components)


def test_jokers_may_form_a_colour_the_seat_has_no_card_of():
    assigned, positive = best_assignment({"green": 6}, 3, COLOURS)
    assert sum(assigned.values()) == 3
    assert points(hand(joker=3, green=6)) == 21 + 6  # three jokers as one new colour
    components = score_collection(hand(joker=3, green=6), 1, COLOURS)
    assert any("(0 + 3 jokers)" in c.detail for c in components)


def test_jokers_spread_over_colours_when_that_scores_more():
    # 6 green, 5 yellow, 1 blue, 1 pink and two jokers: both on yellow would waste one past six
    # cards (42); one lifts yellow to 6 and one blue to 2 instead: 21 + 21 + 3 - 1.
    components = score_collection(hand(joker=2, green=6, yellow=5, blue=1, pink=1), 1, COLOURS)
    assert sum(c.points for c in components) == 44
    details = {c.label: c.detail for c in components}
    assert details["yellow"] == "6 cards (5 + 1 joker), counted positive: 21"
    assert details["blue"] == "2 cards (1 + 1 joker), counted positive: 3"
    assert details["pink"] == "1 card, counted negative: -1"


def test_three_players_never_assign_a_joker_to_the_removed_colour():
    """The text: "In 3 giocatori togliere dal gioco le carte di un colore qualsiasi". Three
    jokers beside six brown would be blue, the first colour, were blue in play; with blue
    removed they are grey."""
    colours = tuple(c for c in COLOURS if c != "blue")
    assigned, _ = best_assignment({"brown": 6}, 3, colours)
    assert assigned == {"grey": 3}
    assert points(hand(joker=3, brown=6), colours) == 27
    state = dealt(3, removed_color="blue", deals=1)
    state = replace(state, collected=(hand(joker=3, brown=6), *state.collected[1:]))
    mine = {c.label: c for c in GAME.score(state).seats[0].components}
    assert "blue" not in mine
    assert mine["grey"].detail == "3 cards (0 + 3 jokers), counted positive: 6"
    assert sum(c.points for c in mine.values()) == 27


def _brute_force(counts: dict[str, int], jokers: int) -> int:
    """Every joker assignment and every choice of positive colours, the best taken."""
    best = None
    for extra in itertools.product(COLOURS, repeat=jokers):
        totals = [counts.get(c, 0) + extra.count(c) for c in COLOURS]
        held = [colour_points(t) for t in totals if t]
        for plus in itertools.combinations(range(len(held)), min(3, len(held))):
            value = sum(p if i in plus else -p for i, p in enumerate(held))
            best = value if best is None else max(best, value)
    return best


@settings(max_examples=60, deadline=None)
@given(
    counts=st.dictionaries(st.sampled_from(COLOURS), st.integers(1, 9), min_size=1),
    jokers=st.integers(0, 3),
)
def test_the_automatic_choice_is_the_best_any_player_could_make(counts, jokers):
    collection = cards(*(c for c, k in counts.items() for _ in range(k)), *[JOKER] * jokers)
    assert points(collection) == _brute_force(counts, jokers)


@settings(max_examples=60, deadline=None)
@given(
    names=st.lists(st.sampled_from((*COLOURS, PLUS_TWO, JOKER)), max_size=30),
    removed=st.sampled_from((None, *COLOURS)),
)
def test_a_deals_total_is_what_its_components_add_up_to(names, removed):
    colours = tuple(c for c in COLOURS if c != removed)
    collection = cards(*(n for n in names if n != removed))
    assert collection_points(collection, colours) == points(collection, colours)


# -- the rule book's example ------------------------------------------------------------------

# The seed text's worked example (digest Example 1): Andreas holds 1 joker, 1 "+2", 6 green,
# 4 yellow, 3 red and 2 blue = 41. The contract's colours have no red, so orange stands in for it.
ANDREAS = ("joker", "+2", *["green"] * 6, *["yellow"] * 4, *["orange"] * 3, *["blue"] * 2)


def test_andreas_scores_41_with_his_joker_as_yellow():
    components = score_collection(cards(*ANDREAS), 1, COLOURS)
    assert {c.label: c.points for c in components} == {
        "green": 21, "yellow": 15, "orange": 6, "blue": -3, PLUS_TWO: 2,
    }
    assert sum(c.points for c in components) == 41
    assert next(c for c in components if c.label == "yellow").detail == (
        "5 cards (4 + 1 joker), counted positive: 15"
    )
    assert next(c for c in components if c.label == "green").detail == (
        "6 cards, counted positive: 21"
    )


def test_andreas_scores_41_in_a_full_score_breakdown():
    state = dealt(4)
    collected = (cards(*ANDREAS), *state.collected[1:])
    score = GAME.score(replace(state, collected=collected))
    out = score.to_json(["andreas", "b", "c", "d"])
    andreas = out["players"][0]
    assert andreas["total"] == 41 and andreas["rank"] == 1 and andreas["name"] == "andreas"
    assert sum(c["points"] for c in andreas["components"]) == 41
    assert all(c["round"] == 1 for c in andreas["components"])
    assert out["rounds"] == 1 and out["final"] is False


def test_tied_seats_share_a_rank():
    state = dealt(4)  # every seat holds one starting card: 1 point each
    assert GAME.score(state).ranks() == (1, 1, 1, 1)


def test_the_highest_total_wins_and_a_tie_skips_the_next_rank():
    state = dealt(4)
    collected = (hand(green=3), hand(blue=1, plus_two=1), hand(pink=3), hand(grey=1))
    score = GAME.score(replace(state, collected=collected))
    assert [s.total for s in score.seats] == [6, 3, 6, 1]
    assert score.ranks() == (1, 3, 1, 4)


# -- provenance -------------------------------------------------------------------------------


def test_each_component_lists_the_draw_place_and_take_that_brought_its_cards():
    deck = stack("blue", "brown", "grey", "green", "blue", "pink", "blue", PLUS_TWO)
    play = Driver(dealt(4, deck))
    play.turn(0)        # seat 0 draws blue (2), places on row 0 (4)
    play.turn(0)        # seat 1 draws pink (6), places on row 0 (8)
    play.turn(1)        # seat 2 draws blue (10), places on row 1 (12)
    play(3, "take", 0)  # seat 3 takes row 0 (14)
    play(0, "take", 1)  # seat 0 takes row 1 (16)
    score = {s.seat: {c.label: c for c in s.components} for s in GAME.score(play.state).seats}
    assert score[0]["blue"].events == (1, 10, 12, 16)
    assert score[0]["blue"].points == 3
    assert score[3]["blue"].events == (2, 4, 14)
    assert score[3]["pink"].events == (6, 8, 14)
    assert score[3]["green"].events == (1,)
    assert score[1]["brown"].events == (1,)


def test_a_joker_brings_its_own_events_to_the_colour_it_joins():
    state = with_rows(dealt(4, stack("blue", "brown", "grey", "green")), (JOKER,), (), (), (),
                      seq=30)
    play = Driver(state, seq=40)
    play(0, "take", 0)
    blue = next(c for c in GAME.score(play.state).seats[0].components if c.label == "blue")
    assert blue.detail == "2 cards (1 + 1 joker), counted positive: 3"
    assert blue.to_json()["events"] == [1, 30, 40]


def test_every_point_is_in_exactly_one_component_of_its_deal():
    play = Driver(dealt(5, seed="points"))  # a match of four deals, the default
    while not play.state.over:
        play.finish_round()
    score = GAME.score(play.state)
    assert score.rounds == 4
    announced = [f.totals for f in play.facts if isinstance(f, DealEnded)]
    for seat in score.seats:
        # The totals each deal's end announced add up to the match's.
        assert seat.total == sum(totals[seat.seat] for totals in announced)
        labels = [(c.round, c.label) for c in seat.components]
        assert len(labels) == len(set(labels))
        assert {c.round for c in seat.components} == {1, 2, 3, 4}
        assert all(c.events for c in seat.components)
