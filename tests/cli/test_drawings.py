"""The table in the terminal: each title's drawing is found by the title's name in
`cli/drawings/`, and a title with none is drawn from its view alone (`cli.tables.generic`)."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console, Group

from cli import drawings
from cli.tables import Setting, drawing_of, generic
from engine.game import TABLE
from engine.games import GAMES
from engine.playout import play
from tests.conftest import ROOT


def printed(renderables) -> str:
    out = io.StringIO()
    Console(file=out, width=200, color_system=None).print(Group(*renderables))
    return out.getvalue()


def test_each_drawing_is_named_after_a_title_and_found_by_its_name():
    modules = sorted(p.stem for p in (ROOT / "cli" / "drawings").glob("*.py")
                     if p.stem != "__init__")
    titles = {name.replace("-", "_"): name for name in GAMES}
    assert modules and set(modules) <= set(titles)
    for module in modules:
        assert drawing_of(titles[module]).__module__ == f"{drawings.__name__}.{module}"


@pytest.mark.parametrize("title", ["a-title-to-come", "../engine", "cli.tables", ""])
def test_a_title_with_no_drawing_of_its_own_is_drawn_from_its_view(title):
    assert drawing_of(title) is generic


def test_the_generic_drawing_says_plain_values_seat_columns_and_the_rest_as_json():
    view = {"round": 2, "phase": "play", "hand_sizes": [3, 4], "piles": [["a", "b"], []],
            "held": [{"x": 1}, {}], "board": {"c1": "red"}, "you": {"hand": ["z"]}}
    drawn = printed(generic(view, Setting(["ann", "bob"], [1])))
    assert "round: 2 · phase: play" in drawn
    assert "hand sizes" in drawn and "piles" in drawn and '{"x": 1}' in drawn
    assert "a b" in drawn and "1 bob *" in drawn
    assert 'board: {"c1": "red"}' in drawn
    assert "hand" not in drawn.replace("hand sizes", "")  # the seat's own part: drawn apart


@pytest.mark.parametrize("title", sorted(GAMES))
def test_every_titles_view_can_be_drawn_generically(title):
    """A new title is drawn before it has a drawing of its own: each title's table view,
    through a whole game, as `generic` draws it."""
    game = GAMES[title]
    seats = min(game.seat_counts)
    playout = play(game, seats, "generic", random.Random("generic"))
    players = [f"p{s}" for s in range(seats)]
    for state in playout.states[:: max(1, len(playout.states) // 8)]:
        drawn = printed(generic(game.view(state, TABLE), Setting(players, game.to_act(state))))
        assert all(f"{s} p{s}" in drawn for s in range(seats))
