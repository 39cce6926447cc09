"""A Keltis card game recorded at a real table: the table's setup deals every hand face down,
a card drawn from the deck goes into its hand unknown, and a card played, discarded or given
for a wish names itself: one still unaccounted for, or one the hand is known to hold."""

import random
from dataclasses import replace

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import codec
from engine.game import TABLE, Table
from engine.games import GAMES
from engine.games.keltis_card import GAME, State
from engine.games.keltis_card.state import DealtFaceDown, DrewUnseen, Played
from engine.playout import play as playout
from engine.playout import record, transcribe
from engine.recorded import UNKNOWN
from tests.engine.keltis_card.support import (
    dealt,
    draw,
    play,
    refused,
    replace_turn,
    row_cards,
    run,
    with_hand,
    with_rows,
)
from tests.engine.refusals import refusal

SETUP = {"type": "setup"}


def recorded(seats: int = 3) -> State:
    return GAME.deal(Table(seats, GAME.options(seats, {}), "", recorded=True))


def set_up(seats: int = 3) -> State:
    return GAME.apply(recorded(seats), TABLE, SETUP, 2).state


# -- the setup: the deal, face down --------------------------------------------------------------


def test_a_recorded_game_waits_for_its_setup_and_deals_nothing():
    state = recorded(3)
    assert state.hands == ((), (), ()) and state.piles.deck == ()
    view = GAME.view(state, TABLE)
    assert view["recorded"] and view["setup_needed"] and view["deck_size"] is None
    assert GAME.legal_moves(state, 0) == ()
    refused(state, 0, play("G7"), "setup-first", "setup")
    refused(state, 0, draw(), "setup-first")


def test_the_setup_deals_every_hand_face_down_and_counts_the_deck():
    for seats, deck in ((2, 55), (3, 77), (4, 69)):
        outcome = GAME.apply(recorded(seats), TABLE, SETUP, 2)
        aside = 30 if seats == 2 else 0
        assert outcome.facts == (DealtFaceDown(8, deck, aside),)
        state = outcome.state
        assert state.hands == ((UNKNOWN,) * 8,) * seats
        assert len(state.piles.deck) == deck == state.ledger.unaccounted
        assert len(state.set_aside) == aside and state.ledger.unknown == 8 * seats + aside
        view = GAME.view(state, 1)
        assert not view["setup_needed"] and view["deck_size"] == deck
        assert view["hand_sizes"] == [8] * seats and view["set_aside_size"] == aside
        assert view["unaccounted"]["R3"] == 2 and view["unaccounted"]["P10"] == 1


def test_the_setup_is_the_tables_once_and_only_in_a_recorded_game():
    refusal(lambda: GAME.apply(recorded(), 0, SETUP, 2), "setup-by-table", "table_token")
    refusal(lambda: GAME.apply(set_up(), TABLE, SETUP, 5), "setup-recorded", "entry 2")
    refusal(lambda: GAME.apply(dealt(3), TABLE, SETUP, 2), "not-recorded", "seed")


# -- cards named as they come into view -------------------------------------------------------


def test_a_card_played_from_a_hand_of_unknown_cards_names_itself():
    state, facts = run(set_up(), 0, play("G7"), seq=3)
    assert facts == [Played(0, "G7", "G")] and row_cards(state, 0, "G") == ("G7",)
    assert state.hands[0] == (UNKNOWN,) * 7 and state.ledger.named == (("G7", 3),)
    assert state.to_draw == 1 and state.ledger.unknown == 23


def test_a_card_drawn_from_the_deck_goes_into_the_hand_unknown():
    state, facts = run(set_up(), 0, {"type": "discard", "card": "P4"}, draw(), seq=3)
    assert facts[-1] == DrewUnseen(0)
    assert state.hands[0] == (UNKNOWN,) * 8 and len(state.piles.deck) == 76
    assert state.ledger.unaccounted == 76 and state.turn == 1


def test_a_card_taken_from_a_discard_pile_is_known_and_played_without_naming_it_again():
    state, _ = run(set_up(), 0, {"type": "discard", "card": "G7"}, draw(), seq=3)
    state, _ = run(state, 1, {"type": "discard", "card": "R2"}, draw("G"), seq=5)
    assert sorted(state.hands[1]) == ["?"] * 7 + ["G7"]
    named = state.ledger.named
    state, _ = run(state, 2, {"type": "discard", "card": "Y1"}, draw(), seq=7)
    after, _ = run(replace_turn(state, 1), 1, play("G7"), seq=9)
    assert after.ledger.named == (*named, ("Y1", 7)) and after.hands[1] == (UNKNOWN,) * 7


def test_a_card_whose_copies_are_all_seen_is_refused_naming_the_entries():
    state, _ = run(set_up(), 0, play("G10"), draw(), seq=3)
    refused(state, 1, play("G10"), "card-seen", "the G10 card", "entry 3")
    state, _ = run(state, 1, play("R3"), draw(), seq=5)
    state, _ = run(state, 2, play("R3"), draw(), seq=7)
    refused(state, 0, {"type": "discard", "card": "R3"}, "card-seen", "all 2 R3", "entries 5, 7")


def test_a_card_the_deck_has_not_is_refused_with_its_rule():
    state = set_up()
    refused(state, 0, play("W5"), "card-not-in-game", "wish stone")
    refused(state, 0, {"type": "discard", "card": "R11"}, "no-such-card", "R11")
    refused(state, 0, {"type": "discard", "card": UNKNOWN}, "no-such-card")


def test_a_hand_known_in_full_plays_only_its_own_cards():
    state = with_hand(set_up(), 0, "G7", "R2")
    refused(state, 0, play("B4"), "not-in-hand", "B4")


def test_a_hand_holds_eight_cards_a_draw_beyond_those_owed_is_refused():
    state = set_up()
    refused(state, 0, draw(), "nothing-to-draw", "one card per card played")
    state, _ = run(state, 0, play("G7"), seq=3)
    state, _ = run(state, 0, draw(), seq=4)
    assert len(state.hands[0]) == 8 and state.turn == 1
    refused(replace(state, turn=0), 0, draw(), "nothing-to-draw")


def test_the_rows_rules_judge_the_card_named():
    state = with_rows(set_up(), 0, G=("G3", "G5"))
    refused(state, 0, play("G4"), "row-direction")
    refused(state, 0, play("P6", "G"), "point-card-value")


def test_a_wish_names_both_cards_each_from_an_unknown_card_of_the_hand():
    state, facts = run(set_up(), 0, {"type": "wish", "cards": ["G5", "P5"]}, seq=3)
    assert facts[0].stone == 5 and state.ledger.named == (("G5", 3), ("P5", 3))
    assert state.hands[0] == (UNKNOWN,) * 6 and state.to_draw == 2
    one_unknown = with_hand(set_up(), 0, "G7", UNKNOWN)
    refused(one_unknown, 0, {"type": "wish", "cards": ["G5", "P5"]}, "not-in-hand")
    state, _ = run(set_up(), 0, play("P5"), draw(), seq=3)
    refused(state, 1, {"type": "wish", "cards": ["P5", "G5"]}, "card-seen", "P5")


def test_the_legal_moves_offer_every_card_a_hand_of_unknown_cards_may_hold():
    state = set_up()
    moves = GAME.legal_moves(state, 0)
    discards = {m["card"] for m in moves if m["type"] == "discard"}
    assert discards == set(state.ledger.possible())
    assert {"type": "wish", "cards": ["R3", "R3"]} in moves
    assert {"type": "play", "card": "P4", "row": "G"} not in moves
    state, _ = run(state, 0, play("G10"), seq=3)
    assert {"type": "draw", "from": "deck"} in GAME.legal_moves(state, 0)
    one_unknown = with_hand(set_up(), 0, "G5", UNKNOWN)
    wishes = [m["cards"] for m in GAME.legal_moves(one_unknown, 0) if m["type"] == "wish"]
    assert ["G5", "P5"] in wishes and ["R5", "P5"] not in wishes


def test_the_end_phase_names_the_cards_placed():
    state = replace(set_up(2), phase="end-phase", end_order=(1, 0), end_placed=0)
    state, facts = run(state, 1, play("Y9"), seq=3)
    assert facts == [Played(1, "Y9", "Y")] and state.ledger.named == (("Y9", 3),)


# -- a recorded game is the seeded game it records ---------------------------------------------


def _brief(score: dict) -> list:
    """A score without its entry numbers, which a recorded log's setup entry shifts."""
    return [(p["seat"], p["total"], p["rank"],
             [(c["label"], c["detail"], c["points"], len(c["events"]))
              for c in p["components"]]) for p in score["players"]]


@settings(max_examples=45, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.sampled_from([2, 3, 4]), seed=st.text(max_size=8))
def test_a_seeded_game_entered_as_a_scorekeeper_would_scores_the_same(seats, seed):
    game = GAMES["keltis-card"]
    seeded = playout(game, seats, seed, random.Random(seed), {})
    again = record(game, seats, {}, list(transcribe(seeded)))
    players = [f"p{s}" for s in range(seats)]
    want, got = (game.score(p.final).to_json(players) for p in (seeded, again))
    assert got["final"] and _brief(got) == _brief(want)
    seen = [game.view(p.final, TABLE)["seats"] for p in (seeded, again)]
    assert seen[0] == seen[1]


def test_every_move_a_recorded_game_makes_is_among_its_legal_moves():
    game = GAMES["keltis-card"]
    seeded = playout(game, 3, "legal", random.Random(7), {})
    submissions = list(transcribe(seeded))
    again = record(game, 3, {}, submissions)
    for state, (seat, move) in zip(again.states[1:], submissions[1:], strict=False):
        assert move in game.legal_moves(state, seat)


def test_every_recorded_state_survives_the_codec_and_a_seeded_one_has_no_ledger():
    game = GAMES["keltis-card"]
    seeded = playout(game, 2, "codec", random.Random(2), {})
    again = record(game, 2, {}, list(transcribe(seeded)))
    for state in again.states[::7]:
        encoded = codec.encode(game.encode(state))
        assert orjson.loads(orjson.dumps(game.encode(state))) == encoded
        assert game.decode(encoded) == state
    assert all("ledger" not in orjson.dumps(game.encode(s)).decode() for s in seeded.states)


def test_the_table_sets_up_a_game_whose_table_keeps_a_turn_clock():
    game = GAMES["keltis-card"]
    table = Table(3, game.options(3, {"turn_limit_s": 60}), "", recorded=True)
    started = game.started(game.deal(table), "2026-12-01T10:00:00.000Z")
    out = game.judge(started, {"seat": TABLE, "move": SETUP, "seq": 2,
                               "at": "2026-12-01T10:00:05.000Z"})
    assert out.facts == (DealtFaceDown(8, 77, 0),)
    assert not game.view(out.state, 0)["setup_needed"]
    refusal(lambda: game.judge(started, {"seat": 0, "move": SETUP, "seq": 2}), "setup-by-table")
