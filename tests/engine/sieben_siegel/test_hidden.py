"""Hidden information: a hand is seen by its seat alone (and the table) while the round runs."""

import json

from engine.game import SPECTATOR, TABLE, Dealt
from engine.games.sieben_siegel import GAME
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
    error = illegal(play.state, 1, {"type": "play", "card": "G1"}, "must-follow-suit")
    assert "B1" not in error.detail and "seat 2" not in error.detail
