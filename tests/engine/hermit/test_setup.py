"""Hermit setup: the deck, options, the deal per player count, who begins each hand."""

import pytest

from engine.game import BadSetup
from engine.games.hermit import GAME
from engine.games.hermit.cards import CARDS, PERSONALITIES
from engine.games.hermit.game import _deal_hand
from tests.engine.hermit.support import EACH, dealt, deck, facts_of, table

CONTRACT_ORDER = (
    "ace-moons ace-suns ace-waves ace-leaves ace-wyrms ace-knots "
    "author desert origin journey painter savage mountain sailor battle "
    "forest discovery soldier lunatic penitent market chance-meeting castle cave "
    "diplomat mill betrayal pact merchant darkness huntress bard sea end calamity windfall"
).split()


def test_canonical_deck_is_the_contract_order_of_the_36_basic_cards():
    assert list(GAME.canonical_deck(3, {})) == CONTRACT_ORDER


def test_suits_and_ranks_follow_the_decktet():
    assert CARDS["author"].suits == ("moons", "knots") and CARDS["author"].rank == 2
    assert CARDS["chance-meeting"].suits == ("moons", "leaves")
    assert CARDS["huntress"].rank == 10 and CARDS["huntress"].suits == ("moons",)
    assert CARDS["ace-wyrms"].rank == 1


def test_personalities_total_66():
    assert sum(PERSONALITIES.values()) == 66
    assert PERSONALITIES["bard"] == PERSONALITIES["huntress"] == 10


def test_options_default_to_66_with_the_follow_obligation():
    assert GAME.options(4, {}) == {
        "target": 66, "must_follow": True, "pleasant_company": False, "house_party": False,
    }
    assert GAME.options(3, {"target": 100})["target"] == 100


@pytest.mark.parametrize(
    ("seats", "options", "fragment"),
    [
        (3, {"target": 70}, "66 or 100"),
        (3, {"target": True}, "66 or 100"),
        (3, {"must_follow": "yes"}, "must_follow"),
        (4, {"house_party": 1}, "house_party"),
        (4, {"jokers": True}, "jokers"),
        (2, {"target": 66}, "four hands"),
        (6, {}, "2 to 5"),
    ],
)
def test_bad_options_are_refused(seats, options, fragment):
    with pytest.raises(BadSetup, match=fragment):
        GAME.options(seats, options)


def test_two_players_have_no_target():
    assert GAME.options(2, {})["target"] is None


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_deal_gives_whole_hands_from_the_top_seat_0_first(seats):
    cards = table(seats).deck(1, GAME.canonical_deck(seats, {}))
    state = GAME.deal(table(seats))
    each = EACH[seats]
    for seat in range(seats):
        assert sorted(state.hands[seat]) == sorted(cards[seat * each : (seat + 1) * each])
    assert len(state.hands[0]) == each


def test_two_players_get_16_each_and_a_four_card_stagecoach_face_down():
    state = dealt(2, deck(2, rest=("bard", "sea", "end", "mill")))
    assert [len(h) for h in state.hands] == [16, 16]
    assert [laid.card.name for laid in state.stagecoach] == ["bard", "sea", "end", "mill"]
    assert GAME.view(state, 0)["stagecoach_size"] == 4
    assert "stagecoach" not in GAME.view(state, "spectator")
    assert GAME.view(state, "table")["stagecoach"] == ["bard", "sea", "end", "mill"]
    assert not state.groups


@pytest.mark.parametrize(("seats", "each"), [(3, 12), (4, 9)])
def test_three_and_four_players_share_the_whole_deck(seats, each):
    state = dealt(seats)
    assert [len(h) for h in state.hands] == [each] * seats
    assert not state.groups and not state.stagecoach


def test_five_players_get_7_each_and_a_face_up_centre_group_nobody_controls():
    state = dealt(5, deck(5, rest=("windfall",)))
    assert [len(h) for h in state.hands] == [7] * 5
    view = GAME.view(state, "spectator")
    assert view["groups"] == [{"group": 0, "cards": ["windfall"], "controller": None}]


def test_five_players_still_start_groups_at_the_first_turn_beside_the_centre_group():
    state = dealt(5)
    assert GAME.to_act(state) == (0, 1, 2, 3, 4)
    assert state.choosing.move == "start"


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_hand_h_is_begun_by_seat_h_minus_1_mod_n(seats):
    state = dealt(seats)
    assert state.turn == 0 and GAME.round(state) == 1
    for hand in (2, 3, 6):
        later, facts = _deal_hand(state.table, hand, state.scored, seq=40)
        assert later.turn == (hand - 1) % seats
        assert facts_of(facts, "hand-dealt")[0].first_seat == (hand - 1) % seats


def test_later_hands_use_the_deck_of_their_own_deal():
    second = deck(3, ["bard", "sea"])
    state = dealt(3, deck(3), second)
    later, facts = _deal_hand(state.table, 2, state.scored, seq=40)
    assert "bard" in later.hands[0] and "sea" in later.hands[0]
    dealt_facts = facts_of(facts, "dealt")
    assert [f.seat for f in dealt_facts] == [0, 1, 2]
    assert dealt_facts[0].to_json()["hidden"] == ["cards"]
