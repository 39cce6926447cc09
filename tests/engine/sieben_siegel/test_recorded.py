"""Die sieben Siegel recorded at a real table: a setup entry per round (hands dealt face down),
plays naming cards still unaccounted for from hands of unknown cards, following suit judged by
what later plays prove (`had-none`, then `revoke`), and a table takeback to before a revoke."""

import random

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import codec, log
from engine.game import TABLE, Table
from engine.games.sieben_siegel import GAME, State
from engine.games.sieben_siegel.state import PREDICT, TRICK, CardPlayed, RoundStarted
from engine.playout import play, record, transcribe
from engine.recorded import UNKNOWN, HadNone, Revoke
from tests.engine.refusals import refusal
from tests.engine.sieben_siegel.support import Driver, dealt, illegal
from tests.engine.table_actions.sitting import Sitting
from tests.engine.transcribed import brief

NOTHING = {"type": "predict", "seals": {}}
SETUP = {"type": "setup"}


def recorded(seats: int = 4, **options) -> State:
    return GAME.deal(Table(seats, GAME.options(seats, options), "", recorded=True))


def at_tricks(seats: int = 4, **options) -> Driver:
    """A recorded round set up at entry 2, every seat predicting nothing (entries 4 to ...)."""
    play = Driver(recorded(seats, **options))
    play(TABLE, SETUP)
    for _ in range(seats):
        play(play.state.turn, NOTHING)
    return play


def kinds(facts) -> list[str]:
    return [f.kind for f in facts]


# -- the setup -------------------------------------------------------------------------------


def test_a_recorded_round_waits_for_its_setup_and_deals_nothing():
    state = recorded(4)
    assert state.hands == ((),) * 4 and state.phase == PREDICT
    view = GAME.view(state, TABLE)
    assert view["recorded"] and view["setup_needed"] and view["unaccounted"] is None
    assert view["hand_sizes"] == [0] * 4
    assert GAME.legal_moves(state, 0) == ()
    for move in (NOTHING, {"type": "saboteur"}, {"type": "play", "card": "G5"}):
        illegal(state, 0, move, "setup-first", "round 1", "face down")


def test_the_setup_deals_fifteen_unknown_cards_to_each_seat():
    outcome = GAME.apply(recorded(4), TABLE, SETUP, 2)
    assert outcome.facts == (RoundStarted(1, 0),)
    state = outcome.state
    assert state.hands == ((UNKNOWN,) * 15,) * 4
    assert state.ledger.opened == 2 and state.ledger.unknown == 60
    assert state.ledger.unaccounted == 0
    view = GAME.view(state, 1)
    assert not view["setup_needed"] and view["hand_sizes"] == [15] * 4
    assert view["you"]["hand"] == [] and len(view["unaccounted"]) == 60
    assert "private" not in GAME.view(state, "spectator")


def test_a_setup_is_the_tables_alone():
    refusal(lambda: GAME.apply(recorded(), 0, SETUP, 2), "setup-by-table", "table_token")


def test_a_setup_is_recorded_once_a_round():
    refusal(lambda: GAME.apply(at_tricks().state, TABLE, SETUP, 30), "setup-recorded",
            "round 1", "entry 2")


def test_a_seeded_game_has_no_setup_to_record():
    refusal(lambda: GAME.apply(dealt(4), TABLE, SETUP, 2), "not-recorded", "seed")


def test_predictions_and_the_saboteur_are_as_in_a_seeded_game():
    play = Driver(recorded(3))
    play(TABLE, SETUP)
    play(0, {"type": "saboteur"})
    illegal(play.state, 1, {"type": "saboteur"}, "saboteur-taken")
    play(1, {"type": "predict", "seals": {"red": 2, "blue": 1}})
    play(2, NOTHING)
    assert play.state.phase == TRICK and play.state.saboteur == 0
    assert GAME.view(play.state, TABLE)["seals"][1] == {"red": 2, "blue": 1}


# -- plays -----------------------------------------------------------------------------------


def test_any_card_still_unaccounted_for_may_be_played_and_is_offered():
    play = at_tricks(4)
    moves = GAME.legal_moves(play.state, 0)
    assert len(moves) == 60 and moves[0] == {"type": "play", "card": "R1"}
    assert kinds(play.play(0, "V12")) == ["played"]
    assert play.state.hands[0] == (UNKNOWN,) * 14
    assert {"type": "play", "card": "V12"} not in GAME.legal_moves(play.state, 1)
    assert GAME.view(play.state, TABLE)["private"][0]["hand"] == []


def test_a_card_played_already_this_round_is_refused_naming_its_entry():
    play = at_tricks(4)
    play.play(0, "G5")
    seq = play.seq - 2
    illegal(play.state, 1, {"type": "play", "card": "G5"}, "card-seen", "the G5 card",
            f"entry {seq}")


def test_a_card_the_player_count_sets_aside_is_not_in_the_game():
    illegal(at_tricks(4).state, 0, {"type": "play", "card": "G13"}, "card-not-in-game",
            "with 4 players the cards run 1 to 12", "G13 is set aside")
    illegal(at_tricks(3).state, 0, {"type": "play", "card": "R10"}, "card-not-in-game",
            "1 to 9")


def test_a_card_the_game_has_not_is_refused():
    illegal(at_tricks(5).state, 0, {"type": "play", "card": "X5"}, "no-such-card", "'X5'")
    illegal(at_tricks(5).state, 0, {"type": "play", "card": 7}, "malformed-move")


def test_a_refused_play_changes_nothing():
    state = at_tricks(4).state
    illegal(state, 0, {"type": "play", "card": "G13"}, "card-not-in-game")
    assert state.ledger.unknown == 60 and state.hands[0] == (UNKNOWN,) * 15


def test_the_turn_and_the_phase_are_judged_as_in_a_seeded_game():
    play = at_tricks(4)
    illegal(play.state, 1, {"type": "play", "card": "G5"}, "not-your-turn")
    illegal(play.state, 0, NOTHING, "predictions-over")


def test_tricks_and_seals_are_settled_as_in_a_seeded_game():
    play = Driver(recorded(4))
    play(TABLE, SETUP)
    play(0, {"type": "predict", "seals": {"green": 1}})
    for seat in (1, 2, 3):
        play(seat, NOTHING)
    facts = play.trick("G5", "G3", "R2", "G12")
    assert [f.to_json() for f in facts if f.kind == "trick-won"] == [
        {"type": "trick-won", "seat": 2, "trick": 1, "led": "G", "cards": ["G5", "G3", "R2",
                                                                         "G12"]}]
    assert "black-seal-taken" in kinds(facts) and play.state.turn == 2


# -- following suit, as the record proves it ---------------------------------------------------


def test_not_following_is_accepted_and_recorded_as_having_none_of_the_colour():
    play = at_tricks(4)
    play.trick("G5", "G7")
    facts = play.play(2, "Y3")
    seq = play.seq - 2
    assert facts[1] == HadNone(2, ("green",))
    assert facts[1].to_json() == {"type": "had-none", "seat": 2, "suits": ["green"]}
    assert GAME.view(play.state, "spectator")["had_none"] == [
        {"seat": 2, "suit": "green", "entry": seq}]


def test_a_lead_or_a_card_that_follows_proves_nothing():
    play = at_tricks(4)
    assert kinds(play.trick("G5", "G7", "R3", "G1")) == [
        "played", "played", "played", "had-none", "played", "trick-won", "black-seal-taken"]
    assert kinds(play.play(2, "B4")) == ["played"]


def test_a_later_card_of_that_colour_is_a_revoke_naming_the_entry_and_the_rule():
    play = at_tricks(4)
    play.trick("G5", "G7")
    play.play(2, "Y3")
    broken = play.seq - 2
    play.play(3, "G1")  # seat 1 wins with G7 and leads
    play.play(1, "B4")
    facts = play.play(2, "G9")  # seat 2 held G9 when green was led: a revoke
    assert facts == (CardPlayed(2, "G9"), Revoke(2, broken, ("green",), "must-follow-suit",
                                                  "G9"), HadNone(2, ("blue",)))
    assert facts[1].to_json() == {"type": "revoke", "seat": 2, "entry": broken,
                                  "suits": ["green"], "rule": "must-follow-suit", "card": "G9"}
    assert GAME.view(play.state, TABLE)["had_none"] == [
        {"seat": 2, "suit": "blue", "entry": play.seq - 2}]


def test_a_revoke_is_reported_once_for_each_entry_it_proves():
    play = at_tricks(4)
    play.trick("G5", "G7", "Y3", "G1")  # seat 2 shows no green; seat 1 wins and leads
    first = play.seq - 4
    play.trick("G2", "Y4", "G8", "G10")  # seat 2 again; seat 0 wins and leads
    second = play.seq - 6
    assert "revoke" not in kinds(play.trick("B1", "B2", "B3", "G4"))  # seat 2 wins with B3
    facts = play.play(2, "G6")
    assert [(f.seat, f.entry) for f in facts if f.kind == "revoke"] == [(2, first), (2, second)]
    assert kinds(play.play(3, "G11")) == ["played"]
    assert kinds(play.play(0, "G12")) == ["played"]
    assert "revoke" not in kinds(play.play(1, "G3"))


def test_a_new_round_forgets_what_the_last_one_proved():
    transcript = _transcript(4, "rounds", rounds=2)
    state = recorded(4, rounds=2)
    setups = 0
    for seq, (who, move) in enumerate(transcript, start=2):
        setups += who == TABLE
        if setups == 2:
            assert state.round == 2 and GAME.view(state, 0)["setup_needed"]
            assert state.follows.voids == () and state.hands == ((),) * 4
            illegal(state, state.turn, NOTHING, "setup-first", "round 2")
            after = GAME.apply(state, TABLE, move, seq).state
            assert after.ledger.unknown == 60 and after.turn == 1
            return
        state = GAME.apply(state, who, move, seq).state
    raise AssertionError("no second round")


def test_a_table_takeback_to_before_the_revoke_undoes_what_it_proved():
    table = Sitting("sieben-siegel", 4, recorded=True)
    table.post(TABLE, SETUP)
    for seat in range(4):
        table.post(seat, NOTHING)
    for seat, card in ((0, "G5"), (1, "G7"), (2, "Y3"), (3, "G1"), (1, "B4")):
        assert table.post(seat, {"type": "play", "card": card})["type"] == log.ACCEPTED
    before = table.last_accepted()
    revoked = table.post(2, {"type": "play", "card": "G9"})
    assert "revoke" in [f["type"] for f in revoked["effects"]]
    back = table.post(TABLE, {"type": "takeback", "to": before})
    assert back["type"] == log.ACCEPTED
    assert table.views(table.state) == table.views(table.after[before])
    state = table.state.game
    assert state.ledger.left("G9") == 1 and state.turn == 2
    assert [v.suit for v in state.follows.voids] == ["green"]
    followed = table.post(2, {"type": "play", "card": "B9"})  # what the table then saw
    assert [f["type"] for f in followed["effects"]] == ["played"]


# -- a recorded game is the seeded game it records ---------------------------------------------


def _transcript(seats: int, seed: str, **options):
    return list(transcribe(play(GAME, seats, seed, random.Random(seed), options)))


@settings(max_examples=30, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.sampled_from([3, 4, 5]), seed=st.text(max_size=8), rounds=st.integers(1, 2))
def test_a_seeded_game_entered_as_a_scorekeeper_would_scores_the_same(seats, seed, rounds):
    seeded = play(GAME, seats, seed, random.Random(seed), {"rounds": rounds})
    again = record(GAME, seats, {"rounds": rounds}, list(transcribe(seeded)))
    players = [f"p{s}" for s in range(seats)]
    want, got = (GAME.score(p.final).to_json(players) for p in (seeded, again))
    assert got["final"] and brief(got) == brief(want)
    revokes = [f for e in again.entries if e["type"] == log.ACCEPTED for f in e["effects"]
               if f["type"] == "revoke"]
    assert revokes == []  # a seeded game follows suit


def test_every_recorded_state_survives_the_codec_and_the_projections_json():
    playout = record(GAME, 3, {"rounds": 2}, _transcript(3, "codec", rounds=2))
    for state in playout.states:
        encoded = codec.encode(GAME.encode(state))
        assert orjson.loads(orjson.dumps(GAME.encode(state))) == encoded
        assert GAME.decode(encoded) == state


def test_a_seeded_state_holds_no_recorded_field():
    state = dealt(4)
    encoded = codec.encode(GAME.encode(state))
    assert "ledger" not in encoded and "follows" not in encoded
    assert "recorded" not in GAME.view(state, TABLE)
