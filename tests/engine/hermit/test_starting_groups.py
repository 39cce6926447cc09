"""Starting groups: every seat chooses a card at once, hidden until all have chosen."""


from engine import log, visibility
from engine.game import SPECTATOR, TABLE
from engine.games.hermit import GAME
from tests.engine.hermit.support import Driver, dealt, deck, facts_of, laid_out, refused

THREE = deck(3, ["author", "sea"], ["bard", "mill"], ["end", "castle"])


def test_every_seat_chooses_a_starting_card_at_the_first_turn():
    state = dealt(3, THREE)
    assert GAME.to_act(state) == (0, 1, 2)
    assert {m["type"] for m in GAME.legal_moves(state, 1)} == {"start"}
    assert len(GAME.legal_moves(state, 1)) == 12


def test_a_seat_that_has_chosen_waits_for_the_others():
    play = Driver(dealt(3, THREE))
    play(1, "start", "bard")
    assert GAME.to_act(play.state) == (0, 2)
    assert GAME.legal_moves(play.state, 1) == ()
    detail = refused(play.state, 1, {"type": "start", "card": "mill"}, "already-chosen")
    assert "one start choice" in detail and "0, 2" in detail


def test_a_choice_stays_hidden_from_other_seats_and_spectators_until_all_have_chosen():
    play = Driver(dealt(3, THREE))
    facts = play(1, "start", "bard")
    for viewer in (0, 2, SPECTATOR):
        assert "bard" not in str(GAME.view(play.state, viewer))
        redacted = visibility.redact([f.to_json() for f in facts], viewer)
        assert redacted == [{"type": "chose", "seat": 1, "move": "start", "card": None,
                             "hidden": ["card"]}]
    assert GAME.view(play.state, 1)["you"]["choice"] == "bard"
    assert GAME.view(play.state, TABLE)["private"][1]["choice"] == "bard"
    assert GAME.view(play.state, SPECTATOR)["choosing"] == {"move": "start", "waiting": [0, 2]}
    assert visibility.redact([f.to_json() for f in facts], 1)[0]["card"] == "bard"


def test_start_and_stagecoach_moves_are_secret_and_plays_are_not():
    assert GAME.is_secret({"type": "start", "card": "bard"})
    assert GAME.is_secret({"type": "stagecoach", "card": "bard"})
    assert not GAME.is_secret({"type": "play", "card": "bard", "group": 0})


def test_refusing_another_seats_chosen_card_does_not_say_who_holds_it():
    play = Driver(dealt(3, THREE))
    play(1, "start", "bard")
    detail = refused(play.state, 0, {"type": "start", "card": "bard"}, "not-in-hand")
    assert detail == "seat 0 does not hold the bard"


def test_when_all_have_chosen_each_card_becomes_a_group_in_front_of_its_player():
    play = Driver(dealt(3, THREE))
    play(2, "start", "end")
    play(0, "start", "author")
    facts = play(1, "start", "bard")
    started = facts_of(facts, "group-started")
    # Numbered in seat order, whatever order the choices came in.
    assert [(f.seat, f.group, f.card) for f in started] == [
        (0, 0, "author"), (1, 1, "bard"), (2, 2, "end")
    ]
    assert GAME.view(play.state, SPECTATOR)["groups"] == [
        {"group": 0, "cards": ["author"], "controller": 0},
        {"group": 1, "cards": ["bard"], "controller": 1},
        {"group": 2, "cards": ["end"], "controller": 2},
    ]
    assert play.state.choosing is None


def test_the_seat_whose_turn_it_is_then_also_plays_a_card():
    play = Driver(dealt(3, THREE))
    for seat, card in ((0, "author"), (1, "bard"), (2, "end")):
        play(seat, "start", card)
    assert GAME.to_act(play.state) == (0,)
    assert {m["type"] for m in GAME.legal_moves(play.state, 0)} == {"play"}
    play(0, "play", "ace-suns", 1)
    assert GAME.to_act(play.state) == (1,)


def test_no_play_before_every_seat_has_chosen():
    play = Driver(dealt(3, THREE))
    play(0, "start", "author")
    detail = refused(play.state, 0, {"type": "play", "card": "sea"}, "start-first")
    assert "starting card" in detail


def test_starting_cards_are_chosen_only_when_no_group_is_on_the_table():
    state = laid_out(3, [["sea"], ["bard"], ["end"]], [(["castle"], 1)])
    detail = refused(state, 0, {"type": "start", "card": "sea"}, "groups-on-table")
    assert "no group is on the table" in detail and "group 0 is there" in detail


def test_groups_are_started_again_when_a_quartet_empties_the_table():
    # Seat 0 completes the only group; all hold cards: everyone chooses again, seat 1 plays.
    state = laid_out(
        3,
        [["pact", "ace-knots"], ["sea", "mill"], ["end", "cave"]],
        [(["author", "castle", "painter"], 2)],
    )
    play = Driver(state)
    facts = play(0, "play", "pact", 0)
    assert facts_of(facts, "quartet-taken")[0].taken_by == 0
    assert play.state.choosing.move == "start"
    assert GAME.to_act(play.state) == (0, 1, 2)
    play(0, "start", "ace-knots")
    play(1, "start", "sea")
    play(2, "start", "end")
    # Later starts keep numbering groups in order of creation within the hand.
    assert [g.number for g in play.state.groups] == [1, 2, 3]
    assert GAME.to_act(play.state) == (1,)


def test_a_seat_with_no_card_adds_no_group_and_a_turn_without_cards_passes_on():
    # Seat 1 (to play next) and seat 2 hold one card each, seat 0 none after its play.
    state = laid_out(
        3,
        [["mountain"], ["sea"], ["end", "cave"]],
        [(["author", "castle", "painter"], 2)],
    )
    play = Driver(state)
    play(0, "play", "mountain", 0)
    assert GAME.to_act(play.state) == (1, 2)
    detail = refused(play.state, 0, {"type": "start", "card": "author"}, "not-choosing")
    assert detail == "only seats holding cards choose a start card; seat 0 has none"
    play(1, "start", "sea")
    play(2, "start", "end")
    # Seat 1 has no card left after starting: its turn ends and seat 2 plays.
    assert GAME.to_act(play.state) == (2,)
    assert [g.controller for g in play.state.groups] == [1, 2]


def test_the_hand_ends_when_starting_takes_the_last_cards():
    state = laid_out(
        3, [["mountain"], ["sea"], ["end"]], [(["author", "castle", "painter"], 2)]
    )
    play = Driver(state)
    play(0, "play", "mountain", 0)
    play(1, "start", "sea")
    facts = play(2, "start", "end")
    scored = facts_of(facts, "hand-scored")[0]
    assert scored.discarded == ("sea", "end")
    assert GAME.round(play.state) == 2


def test_rejected_choices_keep_their_reason_for_their_seat_alone():
    state = dealt(3, THREE)
    _, verdict = log.verdict(
        GAME, state, {"seq": 2, "seat": 0, "move": {"type": "start", "card": "bard"}}
    )
    assert verdict["type"] == log.REJECTED and verdict["code"] == "not-in-hand"
    assert visibility.redact(verdict, 1)["detail"] is None
    assert visibility.redact(verdict, 0)["detail"] == "seat 0 does not hold the bard"

