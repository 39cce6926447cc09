"""A Coloretto deal recorded at a real table: the setup the table names, draws that name their
card, the last-round card met where it lies, and matches of several deals."""

import random

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import codec
from engine.frozen import replace
from engine.game import TABLE, Table
from engine.games import GAMES
from engine.games.coloretto import (
    GAME,
    LAST_ROUND,
    DealEnded,
    DealStarted,
    Drew,
    LastRoundDrawn,
    State,
)
from engine.playout import play, record, transcribe
from tests.engine.refusals import refusal, refused
from tests.engine.transcribed import brief

START4 = ["pink", "blue", "grey", "green"]


def recorded(seats: int = 4, **options) -> State:
    return GAME.deal(Table(seats, GAME.options(seats, options), "", recorded=True))


def setup(state: State, cards=None, seq: int = 2, **more) -> State:
    move = {"type": "setup", "starting_cards": cards or START4[: state.table.seats], **more}
    return GAME.apply(state, TABLE, move, seq).state


def set_up(seats: int = 4, **options) -> State:
    removed = {"removed_color": "yellow"} if seats == 3 and "removed_color" not in options else {}
    return setup(recorded(seats, **options), **removed)


def drawn_down_to(state: State, left: int) -> State:
    """`state` with cards named (at entry 40) until `left` are unaccounted for."""
    ledger = state.ledger
    for card in [c for c in ledger.cards if c != LAST_ROUND]:
        if ledger.unaccounted == left:
            break
        if ledger.left(card):
            ledger = ledger.name(card, 40)
    return replace(state, ledger=ledger)


def setup_refused(state: State, move: dict, code: str, *words: str, seat=TABLE) -> str:
    return refusal(lambda: GAME.apply(state, seat, {"type": "setup", **move}, 9), code, *words)


# -- the setup -------------------------------------------------------------------------------


def test_a_recorded_deal_waits_for_its_setup_and_deals_nothing():
    state = recorded(4)
    assert state.deck == () and state.collected == ((),) * 4
    view = GAME.view(state, TABLE)
    assert view["recorded"] and view["setup_needed"] and view["deck_size"] is None
    assert GAME.legal_moves(state, 0) == ()
    refused(GAME, state, 0, {"type": "draw", "card": "pink"}, "setup-first", "setup")
    refused(GAME, state, 0, {"type": "take", "row": 0}, "setup-first")


def test_the_setup_names_each_seats_starting_card_collected_at_its_entry():
    outcome = GAME.apply(recorded(4), TABLE, {"type": "setup", "starting_cards": START4}, 2)
    assert outcome.facts == (DealStarted(1, tuple(START4), 0),)
    state = outcome.state
    assert [[(c.name, c.events) for c in cards] for cards in state.collected] == [
        [(c, (2,))] for c in START4]
    assert state.turn == 0 and state.ledger.opened == 2
    assert state.ledger.unaccounted == 77 - 4  # the last-round card among them
    view = GAME.view(state, 1)
    assert not view["setup_needed"] and view["deck_size"] == 73
    assert view["unaccounted"]["pink"] == 8 and view["unaccounted"][LAST_ROUND] == 1


def test_three_players_name_the_colour_left_out_once_for_the_match():
    state = setup(recorded(3), ["pink", "blue", "grey"], removed_color="green")
    assert state.removed == "green" and GAME.view(state, 0)["removed_color"] == "green"
    assert "green" not in state.ledger.cards and state.ledger.unaccounted == 68 - 3


def test_the_removed_color_option_stands_for_the_setup_s_word():
    state = setup(recorded(3, removed_color="brown"), ["pink", "blue", "grey"])
    assert state.removed == "brown"
    same = setup(recorded(3, removed_color="brown"), ["pink", "blue", "grey"],
                 removed_color="brown")
    assert same.removed == "brown"


def test_a_setup_is_the_tables_alone():
    setup_refused(recorded(4), {"starting_cards": START4}, "setup-by-table", "table_token",
                  seat=0)


def test_a_setup_is_recorded_once_a_deal():
    setup_refused(set_up(4), {"starting_cards": START4}, "setup-recorded", "deal 1",
                  "entry 2")


def test_a_seeded_game_has_no_setup_to_record_and_its_draws_name_no_card():
    seeded = GAME.deal(Table(4, GAME.options(4, {}), "s"))
    setup_refused(seeded, {"starting_cards": START4}, "not-recorded", "seed")
    refused(GAME, seeded, 0, {"type": "draw", "card": "pink"}, "not-recorded", "names no card")


def test_a_setup_names_one_starting_card_per_seat():
    setup_refused(recorded(4), {"starting_cards": START4[:3]}, "starting-cards", "4 cards")


def test_a_starting_card_is_a_colour_card():
    for card in ("+2", "joker", LAST_ROUND):
        setup_refused(recorded(4), {"starting_cards": ["pink", card, "grey", "green"]},
                      "starting-card-colour", f"seat 1's {card}")


def test_starting_cards_are_of_different_colours():
    setup_refused(recorded(4), {"starting_cards": ["pink", "blue", "pink", "green"]},
                  "starting-colours-differ", "seat 0's and seat 2's")


def test_a_starting_card_of_the_colour_left_out_is_not_in_the_game():
    setup_refused(recorded(3), {"starting_cards": ["pink", "blue", "grey"],
                                "removed_color": "pink"}, "card-not-in-game", "left out")


def test_three_players_must_name_the_colour_left_out():
    setup_refused(recorded(3), {"starting_cards": ["pink", "blue", "grey"]},
                  "removed-color-required", "removed_color")


def test_four_or_five_players_leave_no_colour_out():
    setup_refused(recorded(4), {"starting_cards": START4, "removed_color": "pink"},
                  "no-removed-color", "every colour")


def test_the_setup_cannot_change_the_colour_the_option_left_out():
    setup_refused(recorded(3, removed_color="brown"),
                  {"starting_cards": ["pink", "blue", "grey"], "removed_color": "pink"},
                  "removed-color-kept", "brown")


def test_a_setup_that_is_refused_leaves_the_deal_waiting_for_it():
    state = recorded(4)
    setup_refused(state, {"starting_cards": ["pink", "pink", "grey", "green"]},
                  "starting-colours-differ")
    assert setup(state).ledger.opened == 2


# -- draws -----------------------------------------------------------------------------------


def test_a_draw_names_its_card_and_the_legal_moves_offer_every_card_still_possible():
    state = set_up(4)
    moves = GAME.legal_moves(state, 0)
    assert {"type": "draw", "card": "pink"} in moves
    assert {"type": "draw", "card": LAST_ROUND} not in moves
    assert [m["card"] for m in moves if m["type"] == "draw"] == [
        "blue", "brown", "grey", "green", "orange", "pink", "yellow", "+2", "joker"]
    outcome = GAME.apply(state, 0, {"type": "draw", "card": "joker"}, 4)
    assert outcome.facts == (Drew(0, "joker"),)
    assert outcome.state.drawn.name == "joker" and outcome.state.ledger.left("joker") == 2
    after = GAME.apply(outcome.state, 0, {"type": "place", "row": 1}, 6).state
    assert [c.events for c in after.rows[1]] == [(4, 6)]


def test_a_recorded_draw_must_name_its_card():
    refused(GAME, set_up(4), 0, {"type": "draw"}, "card-required", '"card"')


def test_a_card_seen_once_too_often_is_refused_naming_where_its_copies_were_seen():
    state = set_up(4)
    for row, seq in ((0, 4), (1, 8), (2, 12)):
        state = GAME.apply(state, state.turn, {"type": "draw", "card": "joker"}, seq).state
        state = GAME.apply(state, state.turn, {"type": "place", "row": row}, seq + 2).state
    refused(GAME, state, state.turn, {"type": "draw", "card": "joker"}, "card-seen",
            "all 3 joker cards", "entries 4, 8, 12")


def test_a_ninth_copy_counts_the_starting_card():
    state = set_up(4)
    ledger = state.ledger
    for seq in range(8):
        ledger = ledger.name("pink", 10 + seq)
    refused(GAME, replace(state, ledger=ledger), 0, {"type": "draw", "card": "pink"},
            "card-seen", "all 9 pink cards", "entries 2, 10, 11")


def test_a_card_of_the_colour_left_out_is_not_in_the_game():
    refused(GAME, set_up(3), 0, {"type": "draw", "card": "yellow"}, "card-not-in-game",
            "yellow was left out")


def test_a_card_the_game_has_not_is_refused():
    refused(GAME, set_up(4), 0, {"type": "draw", "card": "red"}, "no-such-card", "'red'")


def test_the_last_round_card_is_never_named():
    refused(GAME, set_up(4), 0, {"type": "draw", "card": LAST_ROUND}, "last-round-aside",
            "name the card drawn after it")


def test_the_draw_that_meets_the_last_round_card_sets_it_aside_and_names_the_next():
    state = drawn_down_to(set_up(4), 17)
    before = GAME.apply(state, 0, {"type": "draw", "card": "+2"}, 50)
    assert before.facts == (Drew(0, "+2"),) and not before.state.last_round
    state = drawn_down_to(set_up(4), 16)
    outcome = GAME.apply(state, 0, {"type": "draw", "card": "+2"}, 50)
    assert outcome.facts == (LastRoundDrawn(0), Drew(0, "+2"))
    assert outcome.state.last_round and outcome.state.ledger.unaccounted == 14
    assert outcome.state.ledger.seen_at(LAST_ROUND) == (50,)


def test_a_refused_draw_sets_the_last_round_card_aside_no_more_than_it_names_its_card():
    state = drawn_down_to(set_up(4), 16)
    refused(GAME, state, 0, {"type": "draw", "card": "red"}, "no-such-card")
    assert state.ledger.left(LAST_ROUND) == 1


def test_the_phase_of_the_turn_is_reported_before_the_card_named():
    state = GAME.apply(set_up(4), 0, {"type": "draw", "card": "pink"}, 4).state
    refused(GAME, state, 0, {"type": "draw", "card": "red"}, "must-place")


# -- deals -----------------------------------------------------------------------------------


def test_each_deal_of_a_match_is_set_up_again_with_a_fresh_set_of_cards():
    transcript = _transcript(4, seed="deals", deals=2)
    second = next(i for i, (who, move) in enumerate(transcript) if who == TABLE and i > 0)
    state = recorded(4, deals=2)
    for seq, (who, move) in enumerate(transcript[:second], start=2):
        state = GAME.apply(state, who, move, seq).state
    assert state.deal == 2 and not state.over and state.ledger.opened == 0
    assert GAME.view(state, 0)["setup_needed"] and GAME.legal_moves(state, state.turn) == ()
    refused(GAME, state, state.turn, {"type": "draw", "card": "pink"}, "setup-first",
            "deal 2")
    assert state.turn == 1  # deal 2 is begun by seat 1
    outcome = GAME.apply(state, TABLE, transcript[second][1], 500)
    assert outcome.facts[0].deal == 2 and outcome.state.ledger.unaccounted == 73


def test_a_three_player_match_keeps_its_colour_left_out():
    state = _deal_two(3)
    setup_refused(state, {"starting_cards": ["pink", "blue", "grey"],
                          "removed_color": "green"}, "removed-color-kept")


def _transcript(seats: int, seed: str, **options):
    game = GAMES["coloretto"]
    return list(transcribe(play(game, seats, seed, random.Random(seed), options)))


def _deal_two(seats: int) -> State:
    transcript = _transcript(seats, seed="three", deals=2)
    state = recorded(seats, deals=2)
    for seq, (who, move) in enumerate(transcript, start=2):
        if who == TABLE and seq > 2:
            return state
        state = GAME.apply(state, who, move, seq).state
    raise AssertionError("no second deal")


def test_the_deal_that_ends_a_match_ends_the_game():
    playout = record(GAMES["coloretto"], 4, {"deals": 1}, _transcript(4, "end", deals=1))
    final = playout.final
    assert final.game.over and GAMES["coloretto"].score(final).final
    assert playout.entries[-1] == {**playout.entries[-1], "type": "game-finished",
                                   "deal": "recorded"}
    assert any(e["type"] == DealEnded.kind for v in playout.entries if v["type"] ==
               "move-accepted" for e in v["effects"])


# -- a recorded game is the seeded game it records ---------------------------------------------


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.sampled_from([3, 4, 5]), seed=st.text(max_size=8), deals=st.integers(1, 2))
def test_a_seeded_game_entered_as_a_scorekeeper_would_scores_the_same(seats, seed, deals):
    game = GAMES["coloretto"]
    seeded = play(game, seats, seed, random.Random(seed), {"deals": deals})
    again = record(game, seats, {"deals": deals}, list(transcribe(seeded)))
    players = [f"p{s}" for s in range(seats)]
    want, got = (game.score(p.final).to_json(players) for p in (seeded, again))
    assert got["final"] and brief(got) == brief(want)
    assert game.view(again.final, TABLE)["collected"] == game.view(seeded.final,
                                                                    TABLE)["collected"]


def test_every_recorded_state_survives_the_codec_and_the_projections_json():
    playout = record(GAMES["coloretto"], 3, {"deals": 2}, _transcript(3, "codec", deals=2))
    game = GAMES["coloretto"]
    for state in playout.states:
        encoded = codec.encode(game.encode(state))
        assert orjson.loads(orjson.dumps(game.encode(state))) == encoded
        assert game.decode(encoded) == state


def test_the_table_sets_up_a_game_whose_table_keeps_a_turn_clock():
    game = GAMES["coloretto"]
    table = Table(4, game.options(4, {"turn_limit_s": 60}), "", recorded=True)
    dealt = game.started(game.deal(table), "2026-12-01T10:00:00.000Z")
    assert dealt.side.clock is not None
    setup = {"type": "setup", "starting_cards": START4}
    out = game.judge(dealt, {"seat": TABLE, "move": setup, "seq": 2,
                             "at": "2026-12-01T10:00:05.000Z"})
    assert out.facts == (DealStarted(1, tuple(START4), 0),)
    assert out.state.side.clock == dealt.side.clock and not game.view(out.state,
                                                                      0)["setup_needed"]
    refusal(lambda: game.judge(dealt, {"seat": 0, "move": setup, "seq": 2}), "setup-by-table")
