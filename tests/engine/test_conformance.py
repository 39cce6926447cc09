"""One conformance test for every registered game and player count.

Seeded random legal playouts to the end: every listed legal move is accepted, the views have
the one shape of `engine.game.compose_view` and leak nothing, every state survives a JSON round
trip, folding the log reproduces every state and the score exactly, every listed move fits
the game's move schema, so the service would take it, and the engine accepts no move that is
not listed.
"""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import codec, log
from engine.game import SPECTATOR, TABLE, IllegalMove
from engine.games import GAMES
from engine.playout import play
from schemas.moves import MOVES

CASES = [(name, n) for name, game in sorted(GAMES.items()) for n in game.seat_counts]
PLAYOUT = settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def dumps(value):
    return json.dumps(value, sort_keys=True)


@pytest.mark.parametrize(("name", "seats"), CASES)
@PLAYOUT
@given(seed=st.text(max_size=12), rnd=st.randoms(use_true_random=False))
def test_random_playouts_end_and_replay_exactly(name, seats, seed, rnd):
    game = GAMES[name]
    playout = play(game, seats, seed, rnd)
    assert game.is_over(playout.final)
    assert game.score(playout.final).final
    # The service answers an ended game's legal moves without reading its state: none.
    assert not any(game.legal_moves(playout.final, seat) for seat in range(seats))

    folded = [step.state for step in log.fold(game, playout.table, playout.entries)]
    accepted = [folded[i] for i, e in enumerate(playout.entries) if e["type"] == log.ACCEPTED]
    assert [dumps(codec.encode(s)) for s in accepted] == [
        dumps(codec.encode(s)) for s in playout.states[1:]
    ]
    assert dumps(game.score(folded[-1]).to_json()) == dumps(game.score(playout.final).to_json())


@pytest.mark.parametrize(("name", "seats"), CASES)
@PLAYOUT
@given(seed=st.text(max_size=12), rnd=st.randoms(use_true_random=False))
def test_every_state_round_trips_through_json(name, seats, seed, rnd):
    game = GAMES[name]
    for state in play(game, seats, seed, rnd).states:
        text = json.dumps(codec.encode(game.encode(state)))
        assert game.decode(json.loads(text)) == state


@pytest.mark.parametrize(("name", "seats"), CASES)
@PLAYOUT
@given(seed=st.text(max_size=12), rnd=st.randoms(use_true_random=False))
def test_views_show_each_seat_only_its_own_secrets(name, seats, seed, rnd):
    game = GAMES[name]
    for state in play(game, seats, seed, rnd).states:
        public = game.view(state, SPECTATOR)
        everything = game.view(state, TABLE)
        assert not {"you", "private", "hand", "hands", "deck"} & set(public)
        for seat in range(seats):
            mine = game.view(state, seat)
            assert dumps({k: v for k, v in mine.items() if k != "you"}) == dumps(public)
            assert dumps(mine["you"]) == dumps(everything["private"][seat])
        json.dumps(everything)


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_every_listed_legal_move_fits_the_move_schema_the_service_checks(name, seats):
    game, schemas = GAMES[name], MOVES[name]
    for state in play(game, seats, "schema", random.Random(seats)).states[:-1]:
        for seat in game.to_act(state):
            for move in game.legal_moves(state, seat):
                assert schemas[move["type"]]().validate(move) == {}, move


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_the_engine_accepts_exactly_the_listed_legal_moves(name, seats):
    """Moves seen listed somewhere in other games are tried at every step of this one: each is
    refused unless listed, or is another spelling of a listed move (the same outcome)."""
    game, rnd = GAMES[name], random.Random(seats)
    seen = {dumps(m): m for i in range(2) for state in play(game, seats, f"u{i}", rnd).states
            for seat in range(seats) for m in game.legal_moves(state, seat)}
    universe = list(seen.values())
    tried = {"listed": 0, "refused": 0}
    for state in play(game, seats, "accepts", rnd).states[:-1]:
        for seat in range(seats):
            listed = {dumps(m): m for m in game.legal_moves(state, seat)}
            for move in rnd.sample(universe, min(25, len(universe))):
                outcome = _outcome(game, state, seat, move)
                if dumps(move) in listed:
                    assert outcome is not None, f"a listed move was refused: {move}"
                    tried["listed"] += 1
                elif outcome is not None:
                    spellings = [_outcome(game, state, seat, m) for m in listed.values()]
                    assert outcome in spellings, f"accepted but not listed: {move}"
                else:
                    tried["refused"] += 1
    assert tried["listed"] and tried["refused"], tried  # both sides of the rule were tried


def _outcome(game, state, seat, move):
    try:
        return dumps(codec.encode(game.apply(state, seat, move, 10**6).state))
    except IllegalMove:
        return None


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_same_seed_and_moves_give_the_same_log_byte_for_byte(name, seats):
    game = GAMES[name]
    first = play(game, seats, "same", random.Random(7))
    again = play(game, seats, "same", random.Random(7))
    assert dumps(first.entries) == dumps(again.entries)
