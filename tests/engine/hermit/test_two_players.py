"""The two-player game: the Stagecoach, four hands, and the two-player House Party."""

import json
from dataclasses import replace

from engine import visibility
from engine.game import SPECTATOR, TABLE
from engine.games.hermit import GAME
from engine.games.hermit.game import Laid
from engine.games.hermit.scoring import Card
from tests.engine.hermit.support import (
    Driver,
    dealt,
    deck,
    facts_of,
    laid_out,
    refused,
    with_totals,
)

FULL = [(["author", "castle", "painter"], 1)]


def coach(state, *names):
    return replace(state, stagecoach=tuple(Laid(None, Card(c, (1,))) for c in names))


def test_the_first_formation_of_a_hand_adds_nothing_to_the_stagecoach():
    state = dealt(2)
    assert state.choosing.move == "start" and len(state.stagecoach) == 4


def test_a_quartet_leaving_the_table_empty_asks_each_seat_for_a_stagecoach_card():
    state = laid_out(2, [["pact", "sea", "end"], ["mill", "cave", "bard"]], FULL)
    play = Driver(state)
    play(0, "play", "pact", 0)
    assert play.state.choosing.move == "stagecoach"
    assert GAME.to_act(play.state) == (0, 1)
    assert GAME.legal_moves(play.state, 1) == (
        {"type": "stagecoach", "card": "mill"},
        {"type": "stagecoach", "card": "cave"},
        {"type": "stagecoach", "card": "bard"},
    )


def test_stagecoach_cards_are_face_down_even_after_both_have_chosen():
    state = coach(laid_out(2, [["pact", "sea", "end"], ["mill", "cave", "bard"]], FULL),
                  "huntress", "merchant", "ace-suns", "market")
    play = Driver(state)
    play(0, "play", "pact", 0)
    facts = play(1, "stagecoach", "bard")
    assert visibility.redact([f.to_json() for f in facts], 0)[0]["card"] is None
    for viewer in (0, SPECTATOR):
        assert '"bard"' not in json.dumps(GAME.view(play.state, viewer))
    assert GAME.view(play.state, 1)["you"]["choice"] == "bard"
    facts = play(0, "stagecoach", "sea")
    assert facts_of(facts, "stagecoach-laid")[0].size == 6
    assert not facts_of(facts, "group-started")
    view = GAME.view(play.state, 1)
    assert view["you"]["stagecoach"] == ["bard"] and view["stagecoach_size"] == 6
    assert '"sea"' not in json.dumps(view) and '"huntress"' not in json.dumps(view)
    assert GAME.view(play.state, TABLE)["stagecoach"][-2:] == ["sea", "bard"]  # seat order
    # Then the two new groups are started.
    assert play.state.choosing.move == "start" and GAME.to_act(play.state) == (0, 1)


def test_no_start_or_play_while_the_stagecoach_waits():
    state = laid_out(2, [["pact", "sea", "end"], ["mill", "cave", "bard"]], FULL)
    play = Driver(state)
    play(0, "play", "pact", 0)
    for move in ({"type": "start", "card": "mill"}, {"type": "play", "card": "mill"}):
        detail = refused(play.state, 1, move, "stagecoach-first")
        assert "adds a card to the stagecoach before new groups are started" in detail


def test_a_stagecoach_card_only_when_a_quartet_empties_the_table():
    state = laid_out(2, [["pact", "sea"], ["mill", "cave"]], FULL)
    detail = refused(state, 0, {"type": "stagecoach", "card": "sea"}, "no-stagecoach-now")
    assert "quartet leaves the table empty" in detail
    # Not at the first start of a hand either.
    state = dealt(2, deck(2, ["sea"]))
    detail = refused(state, 0, {"type": "stagecoach", "card": "sea"}, "no-stagecoach-now")
    assert "quartet leaves the table empty" in detail


def test_a_seat_without_cards_adds_nothing_to_the_stagecoach():
    state = laid_out(2, [["pact"], ["mill", "cave"]], FULL)
    play = Driver(state)
    play(0, "play", "pact", 0)
    assert GAME.to_act(play.state) == (1,)
    play(1, "stagecoach", "mill")
    assert play.state.choosing.move == "start" and GAME.to_act(play.state) == (1,)


def test_the_seat_that_took_fewer_groups_takes_the_stagecoach():
    # Seat 0 takes the last quartet (its only one); seat 1 took none: seat 1 takes the coach.
    state = coach(laid_out(2, [["pact"], []], FULL), "diplomat", "sea", "end", "mill")
    play = Driver(state)
    facts = play(0, "play", "pact", 0)
    scored = facts_of(facts, "hand-scored")[0]
    assert scored.stagecoach == ("diplomat", "sea", "end", "mill")
    assert scored.stagecoach_to == 1
    assert scored.points == (5, 8)  # seat 0: author and painter; seat 1: the diplomat
    diplomat = GAME.score(play.state).seats[1].components[0]
    # Dealt into the stagecoach at entry 1, given to seat 1 by the play that ended the hand.
    assert "from the stagecoach" in diplomat.detail and diplomat.events == (1, 2)


def test_equal_group_counts_leave_the_stagecoach_uncounted():
    state = coach(laid_out(2, [["pact"], []], FULL), "diplomat", "sea", "end", "mill")
    state = replace(state, piles=((), tuple(Card(c, (1,)) for c in ("origin", "sailor", "mill",
                                                                      "forest"))))
    facts = Driver(state)(0, "play", "pact", 0)
    scored = facts_of(facts, "hand-scored")[0]
    assert scored.stagecoach_to is None and scored.points == (5, 4)


def test_two_player_game_is_four_hands():
    state = replace(laid_out(2, [["pact"], []], FULL), hand=3)
    facts = Driver(state)(0, "play", "pact", 0)
    assert not facts_of(facts, "hand-scored")[0].game_over
    state = replace(laid_out(2, [["pact"], []], FULL), hand=4)
    play = Driver(state)
    facts = play(0, "play", "pact", 0)
    assert facts_of(facts, "hand-scored")[0].game_over
    assert GAME.is_over(play.state) and GAME.score(play.state).final


def test_two_players_play_four_hands_however_high_the_totals():
    """The text: "Vince il giocatore con il punteggio piú basso dopo che ciascuno ha dato le
    carte due volte"; 66 points do not end it."""
    state = with_totals(replace(laid_out(2, [["pact"], []], FULL), hand=2), 70, 0)
    play = Driver(state)
    scored = facts_of(play(0, "play", "pact", 0), "hand-scored")[0]
    assert scored.totals == (75, 0) and not scored.game_over
    assert not GAME.is_over(play.state) and GAME.round(play.state) == 3


def test_two_player_house_party_gives_a_lone_collectors_points_to_the_opponent():
    state = coach(laid_out(2, [["pact"], []], FULL, house_party=True), "diplomat", "sea",
                  "end", "mill")
    facts = Driver(state)(0, "play", "pact", 0)
    scored = facts_of(facts, "hand-scored")[0]
    # Judged before the Stagecoach is given out; the Stagecoach is discarded.
    assert scored.house_party == 0 and scored.stagecoach_to is None
    assert scored.points == (0, 5)


NOTHING = ("origin", "forest", "desert", "journey", "battle", "market", "sea", "end")


def house_party_hand(group, seat_1_pile):
    """Two-player House Party: seat 0 takes the last quartet, `group` and the pact, its only
    group; seat 1 took two groups, `seat_1_pile`; the Stagecoach holds the diplomat (8)."""
    state = coach(laid_out(2, [["pact"], []], [(group, 1)], house_party=True), "diplomat",
                  "betrayal", "discovery", "mountain")
    state = replace(state, piles=((), tuple(Card(c, (1,)) for c in seat_1_pile)))
    return facts_of(Driver(state)(0, "play", "pact", 0), "hand-scored")[0]


def test_two_player_house_party_with_both_seats_collecting_gives_the_stagecoach_as_usual():
    """Only "se solo un giocatore colleziona punti" does "la Diligenza é scartata"."""
    scored = house_party_hand(["author", "castle", "painter"], ("lunatic", *NOTHING[1:]))
    assert scored.house_party is None and scored.stagecoach_to == 0
    assert scored.points == (2 + 3 + 8, 6)


def test_two_player_house_party_with_neither_seat_collecting_gives_the_stagecoach_as_usual():
    # Judged before the Stagecoach is given out: it makes seat 0 no lone collector.
    scored = house_party_hand(["mill", "cave", "castle"], NOTHING)
    assert scored.house_party is None and scored.stagecoach_to == 0
    assert scored.points == (8, 0)


def test_a_laid_stagecoach_card_traces_to_its_stagecoach_move_and_the_end_of_the_hand():
    # Seat 1 lays the lunatic (entry 4); seat 0 took the only quartet, so seat 1 takes the
    # Stagecoach when the hand ends with seat 0's last play (entry 10).
    state = coach(laid_out(2, [["pact", "sea", "mountain"], ["lunatic", "end"]], FULL),
                  "mill", "cave", "origin", "desert")
    play = Driver(state)
    play(0, "play", "pact", 0)  # entry 2
    play(1, "stagecoach", "lunatic")  # entry 4
    play(0, "stagecoach", "sea")  # entry 6
    play(0, "start", "mountain")  # entry 8
    facts = play(1, "start", "end")  # entry 10: every card is played
    scored = facts_of(facts, "hand-scored")[0]
    assert scored.stagecoach_to == 1 and scored.points == (5, 6)
    lunatic = GAME.score(play.state).seats[1].components[0]
    assert lunatic.label == "lunatic" and lunatic.events == (4, 10)


def test_a_stagecoach_card_comes_from_ones_own_hand_and_only_once():
    state = laid_out(2, [["pact", "sea", "end"], ["mill", "cave", "bard"]], FULL)
    play = Driver(state)
    play(0, "play", "pact", 0)
    detail = refused(play.state, 1, {"type": "stagecoach", "card": "sea"}, "not-in-hand")
    assert detail == "seat 1 does not hold the sea"
    play(1, "stagecoach", "mill")
    detail = refused(play.state, 1, {"type": "stagecoach", "card": "cave"}, "already-chosen")
    assert detail == "each seat makes one stagecoach choice: yours is made; waiting for seat 0"


def test_the_hand_ends_when_the_stagecoach_takes_the_last_cards():
    state = coach(laid_out(2, [["pact", "sea"], ["mill"]], FULL), "cave", "origin", "desert",
                  "end")
    play = Driver(state)
    play(0, "play", "pact", 0)
    play(0, "stagecoach", "sea")
    facts = play(1, "stagecoach", "mill")
    scored = facts_of(facts, "hand-scored")[0]
    assert scored.hand == 1 and len(scored.stagecoach) == 6 and scored.discarded == ()
    assert GAME.round(play.state) == 2 and play.state.choosing.move == "start"
