"""The ledger of a recorded deal (engine.recorded): every card named is one still unaccounted
for, unknown cards are counted without a face, and a refusal names where a card was seen."""

from engine.game import TABLE
from engine.recorded import (
    RECORDED,
    UNKNOWN,
    Follows,
    HadNone,
    Ledger,
    Revoke,
    check_setup,
    face_down,
    from_hand,
    is_open,
    is_recorded,
    known,
    may_hold,
    played_from,
    recorded_view,
)
from tests.engine.refusals import refusal

CARDS = ("R1", "R1", "G2", "last")


def test_a_named_card_is_one_still_unaccounted_for():
    ledger = Ledger(CARDS, opened=2).name("R1", 2).name("G2", 5)
    assert ledger.named == (("R1", 2), ("G2", 5))
    assert ledger.unaccounted == 2 and ledger.left("R1") == 1 and ledger.left("G2") == 0
    assert ledger.possible() == {"R1": 1, "last": 1}


def test_a_copy_beyond_the_set_is_refused_naming_the_entries_where_they_were_seen():
    ledger = Ledger(CARDS).name("R1", 2).name("R1", 7)
    refusal(lambda: ledger.name("R1", 9), "card-seen", "all 2 R1 cards", "entries 2, 7")
    refusal(lambda: ledger.name("G2", 9).name("G2", 11), "card-seen", "the G2 card",
            "entry 9")


def test_a_card_the_game_has_not_is_refused():
    refusal(lambda: Ledger(CARDS).name("B9", 2), "no-such-card", "'B9'")
    refusal(lambda: Ledger(CARDS).name(7, 2), "no-such-card")


def test_a_card_the_player_count_leaves_out_is_refused_with_its_rule():
    out = {"R1": "red is left out with three players"}
    refusal(lambda: Ledger(CARDS).name("R1", 2, out), "card-not-in-game", "left out")


def test_unknown_cards_are_counted_without_a_face():
    ledger = Ledger(CARDS).unseen(2)
    assert ledger.unknown == 2 and ledger.unaccounted == 2 and ledger.named == ()
    refusal(lambda: ledger.unseen(3), "pile-empty", "only 2")


def test_an_unknown_card_revealed_is_named_and_counted_once():
    ledger = Ledger(CARDS).unseen(4).revealed("G2", 8)
    assert ledger.unknown == 3 and ledger.named == (("G2", 8),) and ledger.unaccounted == 0
    refusal(lambda: Ledger(CARDS).revealed("G2", 8), "no-unknown-card")


def test_nothing_is_named_from_an_empty_pile():
    refusal(lambda: Ledger(CARDS).unseen(4).name("G2", 3), "pile-empty")


def test_a_game_is_recorded_when_its_first_entry_says_so():
    assert is_recorded({"deal": RECORDED}) and not is_recorded({"seed_commitment": "ab"})


# -- unknown cards in hands ------------------------------------------------------------------


def test_a_card_played_from_a_hand_is_a_known_one_else_an_unknown_one_named():
    ledger = Ledger(CARDS, opened=2).unseen(2).name("G2", 3)  # G2 seen, then taken into a hand
    hand = ("G2", UNKNOWN, UNKNOWN)
    rest, after = from_hand(hand, ("G2",), ledger, 5)
    assert rest == (UNKNOWN, UNKNOWN) and after == ledger  # known: nothing more is named
    rest, after = from_hand(hand, ("R1", "R1"), ledger, 5)
    assert rest == ("G2",) and after.named[-2:] == (("R1", 5), ("R1", 5))
    assert after.unknown == 0


def test_a_hand_of_known_cards_or_a_card_accounted_for_is_refused():
    ledger = Ledger(CARDS, opened=2).unseen(1).name("G2", 3)
    refusal(lambda: from_hand(("G2",), ("R1",), ledger, 5), "not-in-hand", "R1")
    refusal(lambda: from_hand((UNKNOWN,), ("G2",), ledger, 5), "card-seen", "entry 3")
    refusal(lambda: from_hand((UNKNOWN,), (UNKNOWN,), ledger, 5), "no-such-card")


def test_a_hand_may_hold_what_it_is_known_to_and_any_card_unaccounted_for():
    ledger = Ledger(CARDS, opened=2).unseen(1).name("G2", 3)
    assert may_hold(("G2", UNKNOWN), ledger) == {"R1": 1, "G2": 1, "last": 1}
    assert may_hold(("G2", UNKNOWN, UNKNOWN), ledger) == {"R1": 2, "G2": 1, "last": 1}
    assert may_hold(("G2",), ledger) == {"G2": 1} and face_down(2) == (UNKNOWN, UNKNOWN)


# -- the setup entry, hands of unknown cards, follow obligations ---------------------------------


def test_a_setup_is_refused_in_a_seeded_game_from_a_seat_and_a_second_time():
    refusal(lambda: check_setup(False, TABLE, None, "deal 1"), "not-recorded", "seed")
    refusal(lambda: check_setup(True, 0, Ledger(()), "deal 1"), "setup-by-table")
    refusal(lambda: check_setup(True, TABLE, Ledger(CARDS, opened=2), "round 3"),
            "setup-recorded", "the setup of round 3 was recorded at entry 2")
    check_setup(True, TABLE, Ledger(()), "deal 1")
    assert not is_open(None) and not is_open(Ledger(())) and is_open(Ledger((), opened=2))


def test_a_card_played_from_a_hand_is_the_known_card_else_an_unknown_one():
    hand = ("G2", *face_down(2))
    assert known(hand) == ["G2"] and len(hand) == 3
    assert played_from(hand, "G2") == (UNKNOWN, UNKNOWN)
    assert played_from(hand, "R1") == ("G2", UNKNOWN)
    refusal(lambda: played_from(("G2",), "R1"), "card-not-held", "R1")


def test_not_following_records_what_it_proves_and_a_later_card_of_the_suit_a_revoke():
    follows, had_none = Follows().not_followed(2, ("green",), 41, "must-follow-suit")
    assert had_none == HadNone(2, ("green",))
    assert follows.played(1, ("green",), "G7") == (follows, ())  # another seat
    assert follows.played(2, ("blue",), "B7") == (follows, ())  # another suit
    after, revokes = follows.played(2, ("green",), "G7")
    assert revokes == (Revoke(2, 41, ("green",), "must-follow-suit", "G7"),)
    assert after == Follows() and after.played(2, ("green",), "G8") == (after, ())


def test_a_card_of_two_suits_revokes_each_entry_once_naming_the_suits_it_shows():
    follows = Follows()
    follows, _ = follows.not_followed(0, ("moons", "knots"), 5, "must-follow")
    follows, _ = follows.not_followed(0, ("suns",), 9, "must-follow")
    after, revokes = follows.played(0, ("moons", "knots"), "author")
    assert revokes == (Revoke(0, 5, ("moons", "knots"), "must-follow", "author"),)
    assert [v.suit for v in after.voids] == ["suns"]


def test_an_entry_that_did_not_follow_several_suits_is_a_revoke_once():
    follows, _ = Follows().not_followed(0, ("moons", "suns", "waves"), 6, "must_follow")
    follows, _ = follows.not_followed(1, ("suns",), 7, "must_follow")
    after, revokes = follows.played(0, ("moons", "waves"), "lunatic")
    assert revokes == (Revoke(0, 6, ("moons", "waves"), "must_follow", "lunatic"),)
    assert after.listed() == [{"seat": 1, "suit": "suns", "entry": 7}]  # another seat's
    assert after.played(0, ("moons", "suns"), "diplomat") == (after, ())


def test_a_recorded_view_says_the_setup_awaited_the_cards_possible_and_where_none_was_held():
    assert recorded_view(Ledger(()), Follows()) == {
        "recorded": True, "setup_needed": True, "unaccounted": None, "had_none": []}
    follows, _ = Follows().not_followed(2, ("green",), 41, "must-follow-suit")
    view = recorded_view(Ledger(CARDS, opened=2).name("R1", 2), follows)
    assert not view["setup_needed"] and view["unaccounted"] == {"R1": 1, "G2": 1, "last": 1}
    assert view["had_none"] == [{"seat": 2, "suit": "green", "entry": 41}]
