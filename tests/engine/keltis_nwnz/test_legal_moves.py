"""The legal-move list is exactly the set of moves the engine accepts, in every phase and for
2, 3 and 4 players; and every listed move fits the move schema the service checks."""

import random

import pytest

from engine.game import IllegalMove
from engine.games.keltis_nwnz.game import GAME
from engine.playout import play
from schemas.moves import MOVES

from .candidates import candidates

SCHEMAS = MOVES["keltis-nwnz"]


def listed_form(move, hand):
    """The form a legal-move list gives an accepted move: `from` only when it tells apart a
    card both in hand and on top of its row."""
    source = move.get("from")
    if move["type"] != "discard-tile" or source is None:
        return move
    if source == "hand" or move["card"] not in hand:
        return {k: v for k, v in move.items() if k != "from"}
    return move


def accepted(state, seat):
    out = []
    for move in candidates(state, seat):
        try:
            GAME.apply(state, seat, move, 5)
        except IllegalMove:
            continue
        out.append(listed_form(move, state.players[seat].hand))
    return out


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_legal_moves_are_exactly_the_accepted_moves_in_every_phase(seats):
    states = [
        state
        for k in range(3)
        for state in play(GAME, seats, f"legal-{k}", random.Random(k)).states[:-1]
    ]
    phases = set()
    for i, state in enumerate(states):
        if i % 25 and state.phase in ("play", "draw"):
            continue  # every follow-up state, and a sample of the rest
        (seat,) = GAME.to_act(state)
        listed = list(GAME.legal_moves(state, seat))
        got = accepted(state, seat)
        assert all(m in listed for m in got) and all(m in got for m in listed)
        for other in range(seats):
            if other != seat:
                assert GAME.legal_moves(state, other) == ()
        phases.add(state.phase)
    assert phases == {"play", "clover", "discard-tile", "draw"}


def test_follow_up_moves_and_the_from_key_fit_the_move_schema():
    for move in [
        {"type": "clover", "pawn": "big", "to": "c4"},
        {"type": "discard-tile", "card": "G2"},
        {"type": "discard-tile", "card": "G2", "from": "display"},
        {"type": "discard-tile", "card": "R10", "from": "hand"},
    ]:
        assert SCHEMAS[move["type"]]().validate(move) == {}


@pytest.mark.parametrize(
    "move",
    [
        {"type": "move", "pawn": "s5", "to": "c1", "card": "R3"},
        {"type": "move", "pawn": "s1", "card": "R3"},
        {"type": "move", "pawn": "s1", "to": "c1", "card": "R3", "extra": 1},
        {"type": "discard", "card": 3},
        {"type": "clover", "pawn": "s1"},
        {"type": "discard-tile", "card": "G2", "from": "box"},
        {"type": "draw", "from": "P"},
        {"type": "draw"},
    ],
)
def test_the_schema_refuses_misshapen_moves(move):
    assert SCHEMAS[move["type"]]().validate(move)
