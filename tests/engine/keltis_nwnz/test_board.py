"""The keltis-nwnz board: the stand-in keeps to every published fact; broken boards are refused
with a clear error each."""

import copy
import json

import pytest

from engine.games.keltis_nwnz.board import COLOURS, BoardError, load_board, stand_in
from engine.games.keltis_nwnz.game import GAME
from tests.engine.refusals import refusal


@pytest.fixture
def data():
    return copy.deepcopy(stand_in().to_json())


def refused(data, code, *words):
    return refusal(lambda: load_board(data), code, *words, error=BoardError)


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
    # Two edges cross when they leave one row in one order and reach the next in the other.
    board = stand_in()
    edges = [(a, board.cell(t)) for a in board.cells for t in a.ahead]
    assert any(
        a.row == b.row and a.x < b.x and t.x > u.x for a, t in edges for b, u in edges
    )


def test_every_edge_leads_to_the_next_row():
    board = stand_in()
    assert {board.cell(t).row for t in board.start_ahead} == {1}
    assert all(board.cell(t).row == c.row + 1 for c in board.cells for t in c.ahead)


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
        (lambda d: d["cells"][-1].__setitem__("ahead", ["c56"]), "final-leads-on", "c57"),
        (lambda d: d["start"].pop("id"), "malformed-board", "start stone"),
        (lambda d: d["start"]["ahead"].append("c999"), "unknown-cell", "start leads to c999"),
        (lambda d: d["cells"][0].__setitem__("x", "left"), "malformed-cell", "'x'"),
        (lambda d: d["cells"][0]["ahead"].append("c5"), "malformed-board", "names a cell twice"),
        # One final cell per colour, in the last row.
        (lambda d: d.__setitem__("finals", ["c53"]), "malformed-board", "finals must map"),
        (lambda d: d["finals"].__setitem__("R", ["c53"]), "bad-finals", "not a cell"),
        (lambda d: d["finals"].__setitem__("R", "c52"), "bad-finals", "c52 breaks this"),
        (lambda d: d["finals"].__setitem__("W", "c52"), "bad-finals", "'W'"),
        # One stack cell per colour.
        (lambda d: d.pop("stacks"), "malformed-board", "stacks must map"),
        (lambda d: d["stacks"].pop("G"), "bad-stacks", "'G' is missing"),
        (lambda d: d["stacks"].__setitem__("Y", "c23"), "bad-stacks", "R and Y share cell c23"),
        (lambda d: d["stacks"].__setitem__("B", {"cell": "c21"}), "bad-stacks", "not a cell"),
        # Exactly 22 tile spots, on cells, never on a stack cell.
        (lambda d: d["tile_spots"].append("c3"), "tile-spots", "this one has 23"),
        (lambda d: d["tile_spots"].__setitem__(0, "c999"), "tile-spots", "c999 is not a cell"),
        (lambda d: d["tile_spots"].__setitem__(0, "start"), "tile-spots", "start is not a cell"),
        (lambda d: d["tile_spots"].__setitem__(0, "c4"), "malformed-board", "names a cell twice"),
        (lambda d: d.pop("tile_spots"), "malformed-board", "tile_spots must be a list"),
    ],
)
def test_broken_boards_are_refused_with_a_clear_error(data, breakage, code, words):
    breakage(data)
    refused(data, code, words)


def test_a_loop_is_refused(data):
    # c5 and c6 lie in row 2: sideways edges are allowed, but not both ways round.
    data["cells"][4]["ahead"].append("c6")
    data["cells"][5]["ahead"].append("c5")
    refused(data, "cycle", "c5 -> c6 -> c5", "forward")


def test_an_edge_back_to_an_earlier_row_is_refused(data):
    data["cells"][29]["ahead"].append("c5")  # c30 (row 7) to c5 (row 2): no loop, but back
    detail = refused(data, "backward-edge", "c30 (row 7) leads back to c5 (row 2)")
    assert "only move forward" in detail


def test_a_sideways_edge_within_a_row_is_allowed(data):
    data["cells"][4]["ahead"].append("c6")  # c5 to c6, both in row 2
    assert load_board(data).cell("c5").ahead == ("c9", "c10", "c6")


def test_a_board_of_three_rows_or_fewer_is_refused():
    data = {
        "start": {"id": "s", "ahead": ["a"]},
        "cells": [{"id": "a", "row": 1, "colour": "R", "value": 10, "ahead": []}],
    }
    refused(data, "too-few-rows", "the goal zone is the last 3")


def test_an_unreachable_cell_is_refused(data):
    data["start"]["ahead"].remove("c4")  # c4 is entered only from the start
    refused(data, "unreachable", "c4")


def test_a_missing_row_is_refused(data):
    for cell in data["cells"]:
        if cell["row"] >= 5:
            cell["row"] += 1
    refused(data, "row-gap", "row 5")


def test_final_cell_of_the_wrong_colour_is_refused(data):
    data["finals"]["R"], data["finals"]["Y"] = data["finals"]["Y"], data["finals"]["R"]
    refused(data, "bad-finals", "a final cell has its own colour")
