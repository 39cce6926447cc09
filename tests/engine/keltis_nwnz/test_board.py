"""The keltis-nwnz board: the stand-in keeps to every published fact; broken boards are refused
with a clear error each."""

import copy
import json

import pytest

from engine.games.keltis_nwnz.board import COLOURS, BoardError, load_board, stand_in
from engine.games.keltis_nwnz.game import GAME


@pytest.fixture
def data():
    return copy.deepcopy(stand_in().to_json())


def refused(data):
    with pytest.raises(BoardError) as caught:
        load_board(data)
    return caught.value


def test_stand_in_says_it_is_a_stand_in():
    board = stand_in()
    assert board.stand_in
    assert "stand-in" in board.note


def test_four_paths_leave_the_start_stone_then_branch_and_merge():
    board = stand_in()
    assert len(board.start_ahead) == 4
    branching = [c for c in board.cells if len(c.ahead) > 1]
    entries: dict[str, int] = {}
    for c in board.cells:
        for t in c.ahead:
            entries[t] = entries.get(t, 0) + 1
    assert branching
    assert any(n > 1 for n in entries.values())  # paths merge


def test_paths_cross():
    # Two cells of one row each lead to the other's straight successor.
    board = stand_in()
    crossings = [
        (a.id, b.id)
        for a in board.cells
        for b in board.cells
        if a.row == b.row and a.x < b.x
        and any(board.cell(t).x < board.cell(u).x for t in a.ahead for u in b.ahead if t != u)
        and any(board.cell(t).x > board.cell(u).x for t in a.ahead for u in b.ahead)
    ]
    assert crossings


def test_row_values_follow_the_published_facts():
    board = stand_in()
    values = {c.row: c.value for c in board.cells}
    last = max(values)
    assert values[1] < 0 and values[2] < 0 and values[3] == 0
    assert all(values[r] > 0 for r in range(4, last + 1))
    assert [values[r] for r in board.goal_rows] == [7, 6, 10]
    assert values[last - 3] == 8


def test_final_cells_are_one_per_colour_in_the_last_row():
    board = stand_in()
    last = max(c.row for c in board.cells)
    assert sorted(c.colour for c in board.cells if c.row == last) == sorted(COLOURS)
    assert {cell for _, cell in board.finals} == {c.id for c in board.cells if c.row == last}


def test_joker_cells_and_stack_cells_exist():
    board = stand_in()
    assert any(c.colour == "joker" for c in board.cells)
    assert [colour for colour, _ in board.stacks] == list(COLOURS)
    for colour, cell in board.stacks:
        assert board.cell(cell).colour == colour
    assert len(board.tile_spots) == 22


def test_the_game_serves_its_board_as_json_ready_data():
    served = GAME.board()
    assert json.loads(json.dumps(served)) == served
    assert served["start"]["id"] == "start"
    assert served["goal_rows"] == [10, 11, 12]
    assert load_board(served) == stand_in()


def test_a_valid_board_loads(data):
    assert load_board(data) == stand_in()


@pytest.mark.parametrize(
    ("breakage", "code", "words"),
    [
        (lambda d: d.clear(), "malformed-board", "start stone"),
        (lambda d: d.__setitem__("cells", []), "malformed-board", "cells"),
        (lambda d: d["cells"][0].__setitem__("row", "one"), "malformed-cell", "'row'"),
        (lambda d: d["cells"][0].__setitem__("row", 0), "malformed-cell", "rows count from 1"),
        (lambda d: d["cells"][0].__setitem__("colour", "pink"), "bad-colour", "'pink'"),
        (lambda d: d["cells"][1].__setitem__("id", "c1"), "duplicate-cell", "c1"),
        (lambda d: d["cells"][0].__setitem__("ahead", ["c999"]), "unknown-cell", "c999"),
        (lambda d: d["cells"][0].__setitem__("value", 5), "row-values", "row 1 mixes"),
        (lambda d: d["finals"].pop("V"), "bad-finals", "'V'"),
        (lambda d: d["finals"].__setitem__("V", "c56"), "bad-finals", "c56"),
        (lambda d: d["stacks"].__setitem__("R", "c999"), "bad-stacks", "c999"),
        (lambda d: d["tile_spots"].pop(), "tile-spots", "this one has 21"),
        (lambda d: d["tile_spots"].__setitem__(0, "c23"), "tile-spots", "wish-stone stack"),
        (lambda d: d["cells"][5].__setitem__("ahead", []), "dead-end", "c6 leads nowhere"),
        (lambda d: d["cells"][-1].__setitem__("ahead", ["c1"]), "final-leads-on", "c57"),
    ],
)
def test_broken_boards_are_refused_with_a_clear_error(data, breakage, code, words):
    breakage(data)
    error = refused(data)
    assert error.code == code
    assert words in error.detail


def test_a_loop_is_refused(data):
    data["cells"][4]["ahead"].append("c1")  # c5 (row 2) back to c1 (row 1)
    error = refused(data)
    assert error.code == "cycle"
    assert "c1 -> c5 -> c1" in error.detail and "forward" in error.detail


def test_an_unreachable_cell_is_refused(data):
    data["start"]["ahead"].remove("c4")  # c4 is entered only from the start
    error = refused(data)
    assert error.code == "unreachable"
    assert "c4" in error.detail


def test_a_missing_row_is_refused(data):
    for cell in data["cells"]:
        if cell["row"] >= 5:
            cell["row"] += 1
    error = refused(data)
    assert error.code == "row-gap" and "row 5" in error.detail


def test_final_cell_of_the_wrong_colour_is_refused(data):
    data["finals"]["R"], data["finals"]["Y"] = data["finals"]["Y"], data["finals"]["R"]
    error = refused(data)
    assert error.code == "bad-finals" and "a final cell has its own colour" in error.detail
