"""Hidden information: only the order of the pile is secret, and nothing but the table sees it.

Every card in Coloretto is face up once drawn ("la pone scoperta"), so the test is that two deals
alike in everything but the order of the pile look the same to every seat and to spectators:
views, legal moves, facts and refusals.
"""

import json

from engine.game import SPECTATOR, TABLE, IllegalMove
from engine.games.coloretto import GAME, LAST_ROUND
from tests.engine.coloretto.support import Driver, dealt, stack

START = ("blue", "brown", "grey", "green", "orange")
ONE = stack(*START)
OTHER = (*START, *reversed(ONE[len(START):]))  # same starting cards and first draw

TRIES = (
    {"type": "draw"},
    {"type": "place", "row": 0},
    {"type": "place", "row": 9},
    {"type": "take", "row": 0},
    {"type": "take", "row": 1},
    {"type": "pass"},
)


def seen_by_all_but_the_table(state):
    """Everything a seat or a spectator can learn from a state, as one comparable text."""
    seen = {
        str(viewer): GAME.view(state, viewer) for viewer in (SPECTATOR, *range(state.table.seats))
    }
    legal = [GAME.legal_moves(state, s) for s in range(state.table.seats)]
    refusals = []
    for seat in range(state.table.seats):
        for move in TRIES:
            try:
                GAME.apply(state, seat, move, 99)
            except IllegalMove as refused:
                refusals.append((seat, move, refused.code, refused.detail))
    return json.dumps([seen, legal, refusals], sort_keys=True, default=str)


def test_the_order_of_the_pile_is_seen_by_the_table_alone():
    one, other = Driver(dealt(4, ONE, deals=1)), Driver(dealt(4, OTHER, deals=1))
    assert one.state.deck != other.state.deck
    assert GAME.view(one.state, TABLE)["deck"] == list(one.state.deck)
    steps = [(0, "draw", None), (0, "place", 0), (1, "take", 0)]
    assert seen_by_all_but_the_table(one.state) == seen_by_all_but_the_table(other.state)
    for seat, kind, row in steps:
        assert one(seat, kind, row) == other(seat, kind, row)  # the same facts
        assert seen_by_all_but_the_table(one.state) == seen_by_all_but_the_table(other.state)


def test_a_draw_reveals_the_drawn_card_and_nothing_below_it():
    play = Driver(dealt(4, ONE, deals=1))
    facts = play(0, "draw")
    assert [f.to_json() for f in facts] == [{"type": "drew", "seat": 0, "card": "orange"}]
    for viewer in (SPECTATOR, 0, 1):
        seen = GAME.view(play.state, viewer)
        assert seen["drawn"] == "orange" and "deck" not in seen
        assert seen["deck_size"] == len(play.state.deck)


def test_nobody_but_the_table_learns_where_the_last_round_card_lies():
    state = dealt(5, ONE, deals=1)
    for viewer in (SPECTATOR, *range(5)):
        seen = GAME.view(state, viewer)
        assert LAST_ROUND not in json.dumps(seen) and "deck" not in seen
    assert LAST_ROUND in GAME.view(state, TABLE)["deck"]
