"""Rounds, the last-round card, the end of the game, and matches of several deals."""

from dataclasses import replace

from engine.games.coloretto import (
    GAME,
    LAST_ROUND,
    DealEnded,
    DealStarted,
    Drew,
    LastRoundDrawn,
    RoundEnded,
    Took,
)
from engine.shuffle import shuffle
from tests.engine.coloretto.support import (
    CANONICAL,
    Driver,
    dealt,
    illegal,
    last_round_next,
    stack,
    with_rows,
)


def test_the_round_ends_when_every_seat_has_taken_a_row():
    play = Driver(with_rows(dealt(4), ("pink",), ("pink",), ("pink",), ("pink",)))
    for seat in range(3):
        play(seat, "take", seat)
    assert play(3, "take", 3) == (Took(3, 3, ("pink",)), RoundEnded(3))
    assert play.state.taken_by == (None,) * 4 and play.state.rows == ((),) * 4
    assert play.state.turn == 3 and GAME.round(play.state) == 1 and not play.state.over


def test_the_next_round_is_begun_by_the_seat_that_took_the_last_row():
    play = Driver(with_rows(dealt(4), ("pink",), ("pink",), ("pink",), ()))
    play(0, "take", 0)
    play(1, "take", 1)
    play.turn(3)  # seat 2
    play(3, "take", 2)
    assert play(2, "take", 3)[-1] == RoundEnded(2)
    assert GAME.to_act(play.state) == (2,)


def test_the_last_seat_in_keeps_drawing_into_the_one_row_left_and_must_take_it_when_full():
    play = Driver(with_rows(dealt(4), ("pink",), ("pink",), ("pink",), ()))
    play(0, "take", 0)
    play(1, "take", 1)
    play.turn(3)  # seat 2 places on row 3
    play(3, "take", 2)
    for filled in (2, 3):
        assert play.state.turn == 2
        assert GAME.legal_moves(play.state, 2) == ({"type": "draw"}, {"type": "take", "row": 3})
        play.turn(3)
        assert len(play.state.rows[3]) == filled
    assert GAME.legal_moves(play.state, 2) == ({"type": "take", "row": 3},)
    illegal(play.state, 2, {"type": "draw"}, "rows-full", "only take")
    assert play(2, "take", 3)[-1] == RoundEnded(2)


def test_the_last_seat_in_must_draw_when_the_row_left_is_empty():
    play = Driver(with_rows(dealt(3, removed_color="blue"), ("pink",), ("pink",), ()))
    play(0, "take", 0)
    play(1, "take", 1)
    assert GAME.legal_moves(play.state, 2) == ({"type": "draw"},)
    illegal(play.state, 2, {"type": "take", "row": 2}, "row-empty")


def test_the_last_round_card_is_set_aside_and_its_drawer_draws_again_at_once():
    state = last_round_next(dealt(4))
    beneath = state.deck[1]
    play = Driver(state)
    assert play(0, "draw") == (LastRoundDrawn(0), Drew(0, beneath))
    assert play.state.last_round and play.state.drawn.name == beneath
    assert LAST_ROUND not in play.state.deck and len(play.state.deck) == 14
    play(0, "place", 0)
    assert all(LAST_ROUND not in [c.name for c in row] for row in play.state.rows)
    assert GAME.view(play.state, "spectator")["last_round"] is True


def test_the_round_of_the_last_round_card_is_played_out_and_then_the_game_ends():
    play = Driver(last_round_next(dealt(4, deals=1)))
    play.turn(0)
    play.turn(1)  # other seats still draw after the last-round card
    play.finish_round()
    assert not any(isinstance(f, RoundEnded) for f in play.facts)
    assert isinstance(play.facts[-1], DealEnded)
    assert play.state.over and GAME.is_over(play.state)
    assert GAME.to_act(play.state) == () and GAME.legal_moves(play.state, 0) == ()
    illegal(play.state, 0, {"type": "draw"}, "game-finished", "game is over")
    assert GAME.score(play.state).final
    assert GAME.view(play.state, "spectator")["turn"] is None


def test_a_whole_game_from_an_explicit_deck_ends_with_the_round_of_the_last_round_card():
    play = Driver(dealt(5, stack(*reversed(CANONICAL)), deals=1))
    rounds = 0
    while not play.state.over:
        play.finish_round()
        rounds += 1
    kinds = [type(f) for f in play.facts]
    drawn_at = kinds.index(LastRoundDrawn)
    assert RoundEnded not in kinds[drawn_at:] and kinds.count(RoundEnded) == rounds - 1
    assert kinds[-1] is DealEnded and len(play.state.deck) < 15


def test_the_deal_ended_fact_gives_each_seats_total_of_the_deal():
    play = Driver(last_round_next(dealt(4, deals=1)))
    play.finish_round()
    ended = play.facts[-1]
    assert ended == DealEnded(1, tuple(s.total for s in GAME.score(play.state).seats))


# -- matches of several deals -----------------------------------------------------------------


def finish_deal(play: Driver) -> None:
    play.state = last_round_next(play.state)
    play.finish_round()


def test_a_match_deals_afresh_from_label_deal_2_begun_by_the_next_seat():
    play = Driver(dealt(3, seed="m", deals=2, removed_color="blue"))
    finish_deal(play)
    ended, started = play.facts[-2:]
    assert isinstance(ended, DealEnded) and ended.deal == 1
    assert isinstance(started, DealStarted) and started.deal == 2 and started.first_seat == 1
    state = play.state
    assert GAME.round(state) == 2 and GAME.to_act(state) == (1,) and not state.over
    assert state.removed == "blue" and not state.last_round
    deck = [c for c in shuffle(CANONICAL, "m", "deal-2") if c != "blue"]
    for taken in started.starting_cards:
        deck.remove(taken)
    assert [c for c in state.deck if c != LAST_ROUND] == deck
    assert len(state.deck) - state.deck.index(LAST_ROUND) - 1 == 15
    assert [c[0].name for c in state.collected] == list(started.starting_cards)
    assert state.rows == ((),) * 3 and state.taken_by == (None,) * 3


def test_a_later_deal_takes_its_explicit_deck_when_given():
    second = stack("pink", "orange", "grey", "yellow")
    play = Driver(dealt(4, stack(), second, deals=2))
    finish_deal(play)
    assert play.facts[-1].starting_cards == ("pink", "orange", "grey", "yellow")


def test_deal_d_is_begun_by_seat_d_minus_1_mod_n():
    play = Driver(dealt(3, deals=4))
    for _ in range(3):
        finish_deal(play)
    firsts = [f.first_seat for f in play.facts if isinstance(f, DealStarted)]
    assert firsts == [1, 2, 0]
    finish_deal(play)
    assert play.state.over and sum(isinstance(f, DealEnded) for f in play.facts) == 4


def test_a_random_removed_colour_is_chosen_once_and_kept_for_every_deal():
    play = Driver(dealt(3, seed="keep", deals=3))
    removed = play.state.removed
    assert removed == shuffle(("blue", "brown", "grey", "green", "orange", "pink", "yellow"),
                              "keep", "removed-color")[0]
    for _ in range(2):
        finish_deal(play)
        assert play.state.removed == removed
        assert removed not in play.state.deck


def test_a_match_adds_up_the_deals_with_components_per_deal():
    play = Driver(dealt(4, seed="sum", deals=2))
    finish_deal(play)
    first = GAME.score(play.state)
    assert not first.final and first.rounds == 2
    finish_deal(play)
    score = GAME.score(play.state)
    assert score.final and score.rounds == 2
    deal_totals = [f.totals for f in play.facts if isinstance(f, DealEnded)]
    for seat in score.seats:
        by_deal = [sum(c.points for c in seat.components if c.round == d) for d in (1, 2)]
        assert by_deal == [deal_totals[0][seat.seat], deal_totals[1][seat.seat]]
    assert {c.round for s in score.seats for c in s.components} == {1, 2}


def test_starting_cards_of_a_later_deal_come_from_the_take_that_ended_the_deal_before():
    play = Driver(dealt(4, deals=2))
    finish_deal(play)
    last_take = play.seq - 2
    assert all(cards[0].events == (last_take,) for cards in play.state.collected)


def test_the_deal_number_shows_in_the_view():
    play = Driver(dealt(4, deals=3))
    finish_deal(play)
    seen = GAME.view(play.state, 0)
    assert seen["deal"] == 2 and seen["deals"] == 3


def test_an_over_state_stays_over():
    state = replace(dealt(4), over=True)
    assert GAME.to_act(state) == () and GAME.is_over(state)


def test_the_15_cards_beneath_the_last_round_card_fill_every_row_of_five_players_exactly():
    """Reading 2: a round places at most 3 cards a row, so the 15 cards always suffice."""
    play = Driver(last_round_next(dealt(5, deals=1)))
    for turn in range(15):
        play.turn(turn % 5)
    assert play.state.deck == () and all(len(row) == 3 for row in play.state.rows)
    takes = tuple({"type": "take", "row": r} for r in range(5))
    assert GAME.legal_moves(play.state, play.state.turn) == takes
    play.finish_round()
    assert play.state.over and isinstance(play.facts[-1], DealEnded)


def test_without_the_deals_option_a_game_is_a_match_of_four_deals():
    play = Driver(dealt(4, seed="four"))
    while not play.state.over:
        finish_deal(play)
    assert [f.deal for f in play.facts if isinstance(f, DealEnded)] == [1, 2, 3, 4]
    assert GAME.score(play.state).rounds == 4 and GAME.round(play.state) == 4
