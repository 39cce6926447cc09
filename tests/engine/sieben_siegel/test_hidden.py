"""Hidden information: a hand is seen by its seat alone (and the table) while the round runs."""

import json
import re
from random import Random

import pytest

from engine import log
from engine.game import SPECTATOR, TABLE, Dealt
from engine.games.sieben_siegel import GAME
from engine.playout import play as playout
from engine.visibility import redact
from tests.engine.sieben_siegel.support import Driver, at_tricks, dealt, illegal, seals


def test_a_seat_sees_its_own_hand_and_nobody_elses():
    state = dealt(4, seed="views")
    for seat in range(4):
        mine = GAME.view(state, seat)
        assert mine["you"] == {"hand": list(state.hands[seat])}
        text = json.dumps({k: v for k, v in mine.items() if k != "you"})
        for other in range(4):
            for card in state.hands[other]:
                assert f'"{card}"' not in text
    assert GAME.view(state, TABLE)["private"] == [{"hand": list(h)} for h in state.hands]


def test_spectators_see_hand_sizes_seals_and_played_cards_only():
    state = at_tricks(
        (("B9", "R9"), ("B1", "B8"), ("B3", "Y7")), held=(seals("blue", "white"), (), ())
    )
    play = Driver(state)
    play.play(0, "B9")
    public = GAME.view(play.state, SPECTATOR)
    assert "you" not in public and "private" not in public
    assert public["hand_sizes"] == [1, 2, 2]
    assert public["trick"] == [{"seat": 0, "card": "B9"}] and public["led"] == "B"
    assert public["seals"][0] == {"blue": 1, "white": 1}
    assert public["supply"]["blue"] == 2 and public["supply"]["white"] == 3
    for card in ("R9", "B1", "B8", "B3", "Y7"):
        assert card not in json.dumps(public)


def test_a_waiting_seal_choice_is_public():
    state = at_tricks(
        (("B9", "R9"), ("B1", "B8"), ("B3", "Y7")), held=(seals("blue", "white"), (), ())
    )
    play = Driver(state)
    play.trick("B9", "B1", "B3")
    public = GAME.view(play.state, SPECTATOR)
    assert public["choice"] == {"seat": 0, "seals": ["blue", "white"]}
    assert public["last_trick"][0] == {"seat": 0, "card": "B9"}


def test_the_hands_of_a_new_round_are_facts_for_their_own_seat_only():
    state = at_tricks((("B9",), ("B1",), ("B3",)), rounds=2)
    play = Driver(state)
    facts = play.trick("B9", "B1", "B3")
    dealt_facts = [f for f in facts if isinstance(f, Dealt)]
    assert [f.seat for f in dealt_facts] == [0, 1, 2]
    assert dealt_facts[1].cards == play.state.hands[1]
    shown = [f.to_json() for f in dealt_facts]
    for_seat_0 = redact(shown, 0)
    assert for_seat_0[0]["cards"] == list(play.state.hands[0])
    assert for_seat_0[1]["cards"] is None and for_seat_0[2]["cards"] is None
    assert all(f["cards"] is None for f in redact(shown, SPECTATOR))


def test_moves_are_never_secret_and_only_the_seat_to_act_has_legal_moves():
    state = dealt(3)
    assert not GAME.is_secret({"type": "play", "card": "R1"})
    assert GAME.legal_moves(state, 1) == () and GAME.legal_moves(state, 2) == ()


def test_a_refused_follow_names_only_the_movers_own_colour():
    state = at_tricks((("Y5", "R9"), ("Y7", "G1"), ("B1", "B2")))
    play = Driver(state)
    play.play(0, "Y5")
    detail = illegal(
        play.state, 1, {"type": "play", "card": "G1"}, "must-follow-suit", "follow yellow"
    )
    assert "B1" not in detail and "seat 2" not in detail


def _cards_in(value) -> set[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(value, dict):
        return set().union(*map(_cards_in, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_cards_in, value)) if value else set()
    return {value} if isinstance(value, str) and re.fullmatch(r"[RYGBV]\d{1,2}", value) else set()


def _unplayed(hands, viewer) -> set[str]:
    """The cards still in the hands of every seat but the viewer's."""
    return {card for seat, hand in enumerate(hands) if seat != viewer for card in hand}


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_no_view_or_log_entry_shows_a_card_still_in_another_seats_hand(seats):
    run = playout(GAME, seats, f"leak-{seats}", Random(seats), {"rounds": 2})
    for state in run.states:
        for viewer in (SPECTATOR, *range(seats)):
            shown = GAME.view(state, viewer)
            shown.pop("you", None)
            assert not _cards_in(shown) & _unplayed(state.hands, viewer)
    for number in range(1, len(run.states)):
        submitted, accepted = run.entries[2 * number - 1], run.entries[2 * number]
        before, after = run.states[number - 1], run.states[number]
        played = submitted["move"].get("card")
        old = tuple(tuple(c for c in hand if c != played) for hand in before.hands)
        for viewer in (SPECTATOR, *range(seats)):
            assert not _cards_in(redact(submitted, viewer)) & _unplayed(old, viewer)
            hands = old
            for fact in redact(accepted, viewer)["effects"]:
                if fact["type"] == "round-started":
                    hands = after.hands  # the facts from here on belong to the new round
                assert not _cards_in(fact) & _unplayed(hands, viewer), fact


def test_a_refused_move_keeps_its_reason_from_every_other_seat():
    state = at_tricks((("Y5", "R9"), ("Y7", "G1"), ("B1", "B2")))
    state = GAME.apply(state, 0, {"type": "play", "card": "Y5"}, 2).state
    _, rejected = log.verdict(
        GAME, state, {"seq": 4, "seat": 1, "move": {"type": "play", "card": "G1"}}
    )
    assert rejected["code"] == "must-follow-suit"
    assert redact(rejected, 1)["detail"] == "you hold yellow, so you must follow yellow"
    for viewer in (0, 2, SPECTATOR):
        assert redact(rejected, viewer)["detail"] is None
        assert redact(rejected, viewer)["code"] is None


def test_legal_moves_list_only_the_movers_own_cards():
    state = at_tricks((("Y5", "R9"), ("Y7", "G1"), ("B1", "B2")))
    assert _cards_in(list(GAME.legal_moves(state, 0))) == {"Y5", "R9"}
    state = GAME.apply(state, 0, {"type": "play", "card": "Y5"}, 2).state
    assert _cards_in(list(GAME.legal_moves(state, 1))) == {"Y7"}
    assert GAME.legal_moves(state, 2) == ()
