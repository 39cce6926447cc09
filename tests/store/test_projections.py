"""Projections: written as one typed record with a verdict, read back in the parts readers need."""

import random
from types import MappingProxyType

import orjson

from engine import codec, log
from engine.game import Table
from engine.games import GAMES
from engine.playout import play
from store.projections import Position, Projection
from store.stored import Status, state_json
from tests.store.conftest import append, new_game, submit


def test_a_new_games_projections_describe_its_deal(store):
    game_id = new_game(store)
    position, stored = store.projections.standing(game_id)
    assert position == Position(version=1, status=Status.IN_PROGRESS, round=1, to_act=(0,))
    assert store.projections.position(game_id) == position
    version, state = store.projections.state(game_id)
    assert version == 1 and GAMES["coloretto"].decode(state).game.drawn is None
    assert orjson.loads(stored) == state


def test_a_state_is_stored_as_the_very_text_of_its_encoding():
    for name, game in sorted(GAMES.items()):
        for seats in game.seat_counts:
            for state in play(game, seats, "stored", random.Random(seats)).states:
                kept = game.encode(state)
                assert state_json(kept) == orjson.dumps(codec.encode(kept)).decode(), name
    odd = {1: MappingProxyType({"k": (Table(3, {}, "s", ()),)})}  # a key and a mapping orjson
    assert state_json(odd) == orjson.dumps(codec.encode(odd)).decode()  # writes no other way
    assert state_json(odd).startswith('{"1":{"k":[{"seats":3,')


def test_a_kept_score_is_read_only_at_the_version_it_was_computed_for(store):
    game_id = new_game(store)
    assert store.projections.score(game_id) is None  # nobody read it yet
    store.projections.keep_score(game_id, 1, b'{"final":false}')
    assert store.projections.score(game_id) == b'{"final":false}'
    assert store.projections.stored(game_id)["score"] == {"final": False}
    store.projections.keep_score(game_id, 0, b'{"final":true}')  # computed before a verdict
    assert store.projections.score(game_id) is None
    assert "score" not in store.projections.stored(game_id)


def test_projections_written_with_an_append_describe_the_version_it_reaches(store):
    game_id = new_game(store)
    game = GAMES["coloretto"]
    version, encoded = store.projections.state(game_id)
    state = game.decode(encoded)
    seq = submit(store, game_id).seq
    submission = {"seq": seq, "seat": 0, "move": {"type": "draw"}}
    after, body = log.verdict(game, state, submission)
    projection = Projection.of(game, after, judged=seq)
    append(store, game_id, [body], verdicts=[(seq, 0)], projection=projection)
    assert store.projections.position(game_id).version == 3
    assert store.log.progress(game_id) == (2, 2)


def test_a_finished_games_projection_says_so_and_holds_no_view():
    game = GAMES["coloretto"]
    finished = played_out(game, game.deal(Table(3, {}, "over", ())))
    fields = Projection.of(game, finished, judged=9).fields(version=80)
    assert fields["status"] == Status.FINISHED
    # Views are computed from the state when read (service.handlers.state).
    assert set(fields) == {"judged", "at", "status", "to_act", "round", "state"}


def test_the_stored_fields_are_plain_strings_naming_the_version():
    game = GAMES["coloretto"]
    state = game.deal(Table(3, {}, "s", ()))
    fields = Projection.of(game, state, judged=0).fields(version=7)
    assert all(type(k) is str and type(v) is str for k, v in fields.items())
    assert fields["at"] == "7" and fields["status"] == "in-progress"


def played_out(game, state):
    """The state at the end of a game where every seat makes its first legal move."""
    for _ in range(5000):
        if game.is_over(state):
            return state
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, game.legal_moves(state, seat)[0], 0).state
    raise AssertionError("the game did not end")
