"""Concessions, abandoned games: the service plays a conceded seat's turns, conceded seats rank
last, and a game its table abandons ends with a score that is not final."""

import random

import pytest

from engine import log
from engine.game import TABLE
from tests.engine.table_actions.sitting import Sitting


def test_a_conceded_seat_is_played_by_the_service_with_its_first_legal_move_to_the_end():
    table = Sitting("coloretto", 3)
    table.play(random.Random(1), 5)
    conceded = table.post(1, {"type": "concede"})
    assert conceded["effects"] == [{"type": "conceded", "seat": 1}]
    table.play(random.Random(2), 10_000)
    assert table.game.is_over(table.state)
    played = [e for e in table.entries if e.get("conceded")]
    assert played and {e["seat"] for e in played} == {1}
    assert all(e["type"] in (log.SUBMITTED, log.ACCEPTED) for e in played)
    # Every one was the first legal move of its state, judged like any other.
    assert log.canonical(table.game.encode(table.refolded())) == log.canonical(
        table.game.encode(table.state))
    score = table.game.score(table.state).to_json()
    assert score["final"] is True
    ranked = {p["seat"]: p for p in score["players"]}
    assert ranked[1]["conceded"] is True and ranked[1]["rank"] == 3
    assert sorted(p["rank"] for s, p in ranked.items() if s != 1) in ([1, 2], [1, 1])


def test_conceded_seats_rank_after_everyone_latest_concession_first():
    table = Sitting("coloretto", 4)
    table.post(TABLE, {"type": "concede"})  # the table names the seat it concedes for
    table.post(0, {"type": "concede"})
    table.post(2, {"type": "concede"})
    ranks = {p["seat"]: p["rank"] for p in table.game.score(table.state).to_json()["players"]}
    assert ranks[2] == 3 and ranks[0] == 4 and {ranks[1], ranks[3]} <= {1, 2}


def test_the_game_ends_when_one_seat_is_left_playing():
    table = Sitting("keltis-card", 3)
    table.play(random.Random(4), 3)
    table.post(0, {"type": "concede"})
    assert not table.game.is_over(table.state)
    table.post(2, {"type": "concede"})
    assert table.game.is_over(table.state)
    assert table.game.status(table.state) == "finished"
    assert table.post(1, {"type": "concede"})["code"] == "game-finished"


@pytest.mark.parametrize("title", ["coloretto", "hermit", "keltis-card", "keltis-nwnz",
                                   "sieben-siegel"])
def test_a_game_one_seat_is_left_playing_is_over_its_score_final_and_nobody_to_act(title):
    table = Sitting(title, 3, {"turn_limit_s": 600})
    table.play(random.Random(7), 3)
    table.post(0, {"type": "concede"})
    table.wait(5)
    table.post(2, {"type": "concede"})
    game, state = table.game, table.state
    assert game.status(state) == "finished"
    assert game.score(state).to_json()["final"] is True
    assert game.to_act(state) == ()
    assert all(game.legal_moves(state, s) == () for s in range(3))
    assert all(since == -1 for since in game.view(state, TABLE)["table"]["clock"]["since"])


@pytest.mark.parametrize("seat, code", [(TABLE, "seat-required"), (1, "seat-conceded")])
def test_a_concession_is_a_seats_once(seat, code):
    table = Sitting("hermit", 3)
    table.post(1, {"type": "concede"})
    assert table.post(seat, {"type": "concede"})["code"] == code


def test_a_conceded_seat_makes_no_move_of_its_own_and_nobody_forges_the_services():
    table = Sitting("sieben-siegel", 4)
    table.post(3, {"type": "concede"})
    state = table.state
    seat = table.game.to_act(state)[0]
    move = table.game.legal_moves(state, seat)[0]
    assert table.post(3, move)["code"] == "seat-conceded"
    forged = table.post(seat, move, conceded=True)
    assert forged["code"] == "not-conceded-turn"


def test_the_table_abandons_a_game_at_once():
    table = Sitting("coloretto", 3)
    table.play(random.Random(5), 4)
    verdict = table.post(TABLE, {"type": "abandon", "reason": "the pub closed"})
    assert verdict["effects"] == [{"type": "abandoned", "reason": "the pub closed"}]
    game, state = table.game, table.state
    assert game.is_over(state) and game.status(state) == "abandoned"
    assert game.to_act(state) == () and game.legal_moves(state, 0) == ()
    score = game.score(state).to_json()
    assert score["final"] is False and score["abandoned"] is True
    assert table.post(TABLE, {"type": "abandon"})["code"] == "game-finished"


def test_every_seat_still_playing_must_vote_to_abandon():
    table = Sitting("hermit", 3)
    table.post(2, {"type": "concede"})
    assert table.post(0, {"type": "abandon"})["effects"] == [{"type": "abandon-voted",
                                                               "seat": 0}]
    assert table.post(0, {"type": "abandon"})["code"] == "already-voted"
    assert table.post(2, {"type": "abandon"})["code"] == "seat-conceded"
    assert table.game.status(table.state) == "in-progress"
    last = table.post(1, {"type": "abandon", "reason": "late"})
    assert last["effects"] == [{"type": "abandoned", "reason": "late"}]
    assert table.game.status(table.state) == "abandoned"


def test_a_game_without_table_actions_reads_exactly_as_its_title():
    table = Sitting("keltis-nwnz", 2)
    table.play(random.Random(6), 20)
    state, game = table.state, table.game
    assert "table" not in game.view(state, TABLE)
    assert game.encode(state) is state.game
    assert game.score(state) == game.title.score(state.game)
