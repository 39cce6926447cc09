"""Scoring a hand with provenance, the variants, the end of the game and its ranking."""

import pytest

from engine.games.hermit import GAME
from engine.games.hermit.scoring import Card, score_hand
from tests.engine.hermit.support import Driver, facts_of, laid_out, with_totals

MOONS = ("author", "lunatic", "diplomat", "huntress")
SUNS = ("painter", "penitent", "diplomat", "bard")


def pile(*names, seq=7):
    return tuple(Card(n, (3, seq)) for n in names)


def hand_points(piles, **options):
    return score_hand(piles, (), 1, options).points


def test_personalities_score_their_rank_and_crowns_ten_other_cards_nothing():
    result = score_hand((pile("lunatic", "bard", "mill", "ace-moons"), ()), (), 2, {})
    assert result.points == (16, 0)
    lunatic, bard = result.components[0]
    assert (lunatic.label, lunatic.points, lunatic.round, lunatic.events) == (
        "lunatic", 6, 2, (3, 7)
    )
    assert "rank, 6" in lunatic.detail
    assert bard.points == 10 and "crown" in bard.detail


def test_seed_example_the_lunatic_scores_6():
    """The original text's card value example ("il Lunatico vale 6 punti"), digest Example 2."""
    assert hand_points((pile("lunatic"),)) == (6,)


def test_every_point_is_in_exactly_one_component_and_components_sum_to_the_total():
    state = laid_out(3, [["pact", "end"], ["mill"], ["cave"]],
                     [(["author", "castle", "painter"], 2)])
    play = Driver(state)
    play(0, "play", "pact", 0)
    seats = GAME.score(play.state).seats
    assert [s.total for s in seats] == [5, 0, 0]
    assert [(c.label, c.points, c.events) for c in seats[0].components] == [
        ("author", 2, (1, 2)), ("painter", 3, (1, 2))
    ]


def test_pleasant_company_zeroes_all_four_moons_personalities_together():
    """The text's figures: the four Moons personalities are worth 26, the four Suns 27."""
    plain = hand_points((pile(*MOONS, "mill"), ()))
    assert plain == (26, 0)
    result = score_hand((pile(*MOONS, "mill"), ()), (), 1, {"pleasant_company": True})
    assert result.points == (0, 0)
    (company,) = result.components[0]
    assert company.label == "pleasant company (moons)" and "instead of 26" in company.detail


def test_pleasant_company_zeroes_all_four_suns_personalities_together():
    assert hand_points((pile(*SUNS), ()), pleasant_company=True) == (0, 0)
    assert hand_points((pile(*SUNS), ()), pleasant_company=False) == (27, 0)


def test_pleasant_company_needs_all_four_cards_of_a_set():
    assert hand_points((pile(*MOONS[:3]), ()), pleasant_company=True) == (16, 0)


def test_holding_both_sets_scores_zero_for_all_seven_cards():
    both = pile(*MOONS, "painter", "penitent", "bard", "merchant")
    assert hand_points((both, ()), pleasant_company=True) == (9, 0)


def test_pleasant_company_with_one_full_set_scores_the_rest_normally():
    cards = pile(*MOONS, "painter", "bard")
    assert hand_points((cards, ()), pleasant_company=True) == (13, 0)


def test_house_party_gives_a_lone_collectors_points_to_the_others_split_rounded_up():
    piles = (pile("lunatic", "savage", "mill"), pile("mill"), (), ())
    result = score_hand(piles, (), 1, {"house_party": True})
    # 9 points among 3 others: 3 each; the lone collector scores none.
    assert result.points == (0, 3, 3, 3) and result.lone_collector == 0
    piles = (pile("lunatic", "soldier"), (), (), ())  # 11 / 3 rounds up to 4
    assert hand_points(piles, house_party=True) == (0, 4, 4, 4)
    component = score_hand(piles, (), 1, {"house_party": True}).components[1][0]
    assert component.label == "house party" and "rounded up" in component.detail


def test_house_party_needs_exactly_one_seat_with_personalities():
    two = (pile("lunatic"), pile("savage"), ())
    assert hand_points(two, house_party=True) == (6, 3, 0)
    assert hand_points(((), (), ()), house_party=True) == (0, 0, 0)


def test_house_party_counts_moons_and_suns_even_with_pleasant_company():
    piles = (pile(*MOONS), (), ())
    assert hand_points(piles, house_party=True, pleasant_company=True) == (0, 13, 13)


def test_house_party_ignores_personalities_left_on_the_table():
    # Seat 0 takes the last quartet; the merchant is discarded with group 1.
    state = laid_out(
        3, [["pact"], [], []], [(["author", "castle", "painter"], 2), (["merchant"], 1)],
        house_party=True,
    )
    facts = Driver(state)(0, "play", "pact", 0)
    scored = facts_of(facts, "hand-scored")[0]
    assert scored.discarded == ("merchant",)
    assert scored.house_party == 0 and scored.points == (0, 3, 3)


def test_the_game_ends_after_the_hand_in_which_someone_reaches_the_target():
    state = laid_out(3, [["pact"], [], []], [(["author", "castle", "painter"], 2)])
    facts = Driver(with_totals(state, 60, 10, 10))(0, "play", "pact", 0)
    scored = facts_of(facts, "hand-scored")[0]
    assert scored.totals == (65, 10, 10) and not scored.game_over
    play = Driver(with_totals(state, 61, 10, 10))
    facts = play(0, "play", "pact", 0)
    assert facts_of(facts, "hand-scored")[0].game_over
    score = GAME.score(play.state)
    assert score.final and score.lowest_wins and score.ranks() == (3, 1, 1)
    assert score.to_json()["players"][1]["rank"] == 1


def test_a_target_of_100_plays_on_past_66():
    state = laid_out(3, [["pact"], [], []], [(["author", "castle", "painter"], 2)], target=100)
    play = Driver(with_totals(state, 70, 10, 10))
    facts = play(0, "play", "pact", 0)
    assert not facts_of(facts, "hand-scored")[0].game_over
    assert GAME.round(play.state) == 2 and play.state.turn == 1
    # Piles start empty each hand, so Pleasant Company sets count within one hand.
    assert play.state.piles == ((), (), ())
    assert facts_of(facts, "hand-dealt")[0].first_seat == 1


def test_score_components_are_per_hand():
    state = laid_out(3, [["pact"], [], []], [(["author", "castle", "painter"], 2)], target=100)
    play = Driver(with_totals(state, 70, 10, 10))
    play(0, "play", "pact", 0)
    rounds = {c.round for c in GAME.score(play.state).seats[0].components}
    assert rounds == {1} and GAME.score(play.state).rounds == 2


def test_the_provisional_score_never_counts_the_stagecoach():
    state = laid_out(2, [["pact", "sea"], ["mill"]], [(["author", "castle", "painter"], 1)])
    play = Driver(state)
    play(0, "play", "pact", 0)
    score = GAME.score(play.state)
    assert not score.final and [s.total for s in score.seats] == [5, 0]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_view_totals_finished_hands(seats):
    state = with_totals(laid_out(seats, [[]] * seats), *range(seats))
    assert GAME.view(state, "spectator")["totals"] == list(range(seats))
