"""Whole games for 2, 3 and 4 players (the registry's conformance test also covers them):
a forward-hungry player reaches the goal-zone ending, and every state survives JSON."""

import json
import random

import pytest

from engine import codec, display
from engine.game import Table
from engine.games import GAMES
from engine.games.keltis_nwnz.board import stand_in
from engine.games.keltis_nwnz.game import GAME
from engine.games.keltis_nwnz.state import State
from tests.engine.test_conformance import CASES


def test_the_conformance_test_covers_2_3_and_4_players():
    assert [n for name, n in CASES if name == "keltis-nwnz"] == [2, 3, 4]
    assert GAMES["keltis-nwnz"].title is GAME


def eager(state, seat, moves, rnd):
    """Move the leading pawn as far up the board as possible, with the card that leaves the
    smallest gap in its row; otherwise anything legal."""
    board = stand_in()
    forward = [m for m in moves if m["type"] in ("move", "clover")]
    if not forward:
        return rnd.choice(moves)

    def key(move):
        card, gap = move.get("card"), 0
        if card:
            last = display.last_value(state.players[seat].rows["RYGBV".index(card[0])])
            gap = abs(int(card[1:]) - (int(card[1:]) if last is None else last))
        return (board.cell(move["to"]).row, -gap)

    best = max(map(key, forward))
    return rnd.choice([m for m in forward if key(m) == best])


def eager_game(seats, seed):
    rnd = random.Random(1)
    state = GAME.deal(Table(seats, {}, seed))
    for seq in range(2, 2000):
        if GAME.is_over(state):
            return state
        (seat,) = GAME.to_act(state)
        move = eager(state, seat, GAME.legal_moves(state, seat), rnd)
        state = GAME.apply(state, seat, move, seq).state
        assert codec.decode(State, json.loads(json.dumps(codec.encode(state)))) == state
    raise AssertionError("no end after 2000 moves")


@pytest.mark.parametrize("seats", [3, 4])
def test_an_eager_game_ends_when_the_fifth_pawn_enters_the_goal_zone(seats):
    state = eager_game(seats, "eager-1")
    assert state.ended_by == "goal-zone"
    board = stand_in()
    assert sum(board.in_goal(p.cell) for pl in state.players for p in pl.pawns) == 5
    assert GAME.score(state).final


def test_a_two_player_game_runs_out_of_cards_first():
    # 64 cards in the draw pile rarely carry five pawns into the goal zone.
    state = eager_game(2, "eager-1")
    assert state.ended_by == "deck" and state.piles.deck == ()
