"""The board of Keltis "Neue Wege, neue Ziele" as data: loading and validating it.

The layout of the printed board is not published anywhere we could reach, so the game reads
its board from a data file (board.json beside this module ships a documented stand-in; see
docs/rules-notes.md for the format and how to supply another). `load_board` is a
pure function from parsed JSON to a frozen `Board`: every way a board can be wrong is a
`BoardError` with a stable `code` and a sentence saying what to fix.

A board has a start stone and cells; each cell has an id, a row (1 is nearest the start), a
card colour or `joker` (a grey cell taking any colour), the value a pawn standing there scores,
and the cells directly ahead of it. The last three rows are the goal zone; the last row holds
the five final cells, one per colour. 22 cells carry a tile spot and five hold the wish-stone
stacks, one per colour.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

from engine.frozen import frozen

COLOURS = ("R", "Y", "G", "B", "V")
JOKER = "joker"
TILE_SPOTS = 22
GOAL_ROWS = 3
COLOUR_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "V": "violet"}


class BoardError(ValueError):
    """A board file that breaks a rule of boards: `code` is stable, the message says what."""

    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code = code
        self.detail = detail


@frozen
class Cell:
    id: str
    row: int
    colour: str
    value: int
    ahead: tuple[str, ...]
    x: int | None = None

    def accepts(self, colour: str) -> bool:
        return self.colour in (JOKER, colour)


@frozen
class Board:
    name: str
    stand_in: bool
    note: str
    start: str
    start_ahead: tuple[str, ...]
    cells: tuple[Cell, ...]
    tile_spots: tuple[str, ...]
    stacks: tuple[tuple[str, str], ...]  # (colour, cell), colours in R Y G B V order
    finals: tuple[tuple[str, str], ...]

    @functools.cached_property
    def _by_id(self) -> dict[str, Cell]:
        return {c.id: c for c in self.cells}

    def cell(self, cell_id: str) -> Cell:
        return self._by_id[cell_id]

    def has(self, cell_id: Any) -> bool:
        return isinstance(cell_id, str) and (cell_id in self._by_id or cell_id == self.start)

    def ahead(self, cell_id: str) -> tuple[str, ...]:
        """The cells one step forward from `cell_id` (the start stone included)."""
        return self.start_ahead if cell_id == self.start else self.cell(cell_id).ahead

    @functools.cached_property
    def goal_rows(self) -> tuple[int, ...]:
        last = max(c.row for c in self.cells)
        return tuple(range(last - GOAL_ROWS + 1, last + 1))

    # Asked of both ends of every step a pawn takes: worked out once per board.
    @functools.cached_property
    def _goal_cells(self) -> frozenset[str]:
        return frozenset(c.id for c in self.cells if c.row in self.goal_rows)

    @functools.cached_property
    def _stack_colours(self) -> dict[str, str]:
        return {cell: colour for colour, cell in self.stacks}

    def in_goal(self, cell_id: str) -> bool:
        return cell_id in self._goal_cells

    def value(self, cell_id: str) -> int:
        return 0 if cell_id == self.start else self.cell(cell_id).value

    def stack_colour(self, cell_id: str) -> str | None:
        return self._stack_colours.get(cell_id)

    def to_json(self) -> dict[str, Any]:
        """The board as a client draws it: the file's format, plus the goal rows."""
        return {
            "name": self.name,
            "stand_in": self.stand_in,
            "note": self.note,
            "start": {"id": self.start, "ahead": list(self.start_ahead)},
            "cells": [
                {
                    "id": c.id,
                    "row": c.row,
                    "x": c.x,
                    "colour": c.colour,
                    "value": c.value,
                    "ahead": list(c.ahead),
                }
                for c in self.cells
            ],
            "tile_spots": list(self.tile_spots),
            "stacks": dict(self.stacks),
            "finals": dict(self.finals),
            "goal_rows": list(self.goal_rows),
        }


def load_board(data: Any) -> Board:
    """The board described by `data` (parsed JSON), checked against every rule of boards."""
    if not isinstance(data, Mapping):
        raise BoardError("malformed-board", "a board is a JSON object")
    start = data.get("start")
    if not isinstance(start, Mapping) or not isinstance(start.get("id"), str):
        raise BoardError("malformed-board", "the board needs a start stone: {'id', 'ahead'}")
    raw_cells = data.get("cells")
    if not isinstance(raw_cells, list) or not raw_cells:
        raise BoardError("malformed-board", "the board needs a non-empty list of cells")
    start_ahead = _ids(start.get("ahead"), "the start stone's 'ahead'")
    cells = tuple(_cell(raw, n) for n, raw in enumerate(raw_cells, start=1))
    by_id: dict[str, Cell] = {}
    for cell in cells:
        if cell.id in by_id or cell.id == start["id"]:
            raise BoardError("duplicate-cell", f"cell id {cell.id} is used twice")
        by_id[cell.id] = cell
    for origin, ahead in ((start["id"], start_ahead), *((c.id, c.ahead) for c in cells)):
        for target in ahead:
            if target not in by_id:
                raise BoardError(
                    "unknown-cell", f"{origin} leads to {target}, which is not a cell"
                )
    _check_rows(cells)
    _check_forward(cells, by_id)
    finals = _colour_map(data.get("finals"), "finals", by_id)
    stacks = _colour_map(data.get("stacks"), "stacks", by_id)
    _check_finals(cells, finals)
    _check_paths(start["id"], start_ahead, cells, by_id, {cell for _, cell in finals})
    spots = _check_tile_spots(data.get("tile_spots"), by_id, stacks)
    return Board(
        name=str(data.get("name", "")),
        stand_in=bool(data.get("stand_in", False)),
        note=str(data.get("note", "")),
        start=start["id"],
        start_ahead=start_ahead,
        cells=cells,
        tile_spots=spots,
        stacks=stacks,
        finals=finals,
    )


@functools.cache
def stand_in() -> Board:
    """The stand-in board shipped with the game (static package data, read once)."""
    text = resources.files(__package__).joinpath("board.json").read_text("utf-8")
    return load_board(json.loads(text))


# -- the checks ------------------------------------------------------------------------------


def _ids(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BoardError("malformed-board", f"{where} must be a list of cell ids")
    if len(set(value)) != len(value):
        raise BoardError("malformed-board", f"{where} names a cell twice")
    return tuple(value)


def _cell(raw: Any, n: int) -> Cell:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("id"), str) or not raw["id"]:
        raise BoardError("malformed-cell", f"cell #{n} needs a non-empty string id")
    cid = raw["id"]
    for key in ("row", "value"):
        if not isinstance(raw.get(key), int) or isinstance(raw.get(key), bool):
            raise BoardError("malformed-cell", f"cell {cid} needs a whole number {key!r}")
    if raw["row"] < 1:
        raise BoardError("malformed-cell", f"cell {cid} has row {raw['row']}: rows count from 1")
    x = raw.get("x")
    if x is not None and (not isinstance(x, int) or isinstance(x, bool)):
        raise BoardError("malformed-cell", f"cell {cid} has an 'x' that is not a whole number")
    if raw.get("colour") not in (*COLOURS, JOKER):
        raise BoardError(
            "bad-colour",
            f"cell {cid} has colour {raw.get('colour')!r}: use R, Y, G, B, V or joker",
        )
    return Cell(cid, raw["row"], raw["colour"], raw["value"], _ids(raw.get("ahead"), cid), x)


def _check_rows(cells: tuple[Cell, ...]) -> None:
    values: dict[int, int] = {}
    for cell in cells:
        seen = values.setdefault(cell.row, cell.value)
        if seen != cell.value:
            raise BoardError(
                "row-values",
                f"row {cell.row} mixes values {seen} and {cell.value} (cell {cell.id}): "
                "every cell of a row scores the same",
            )
    last = max(values)
    missing = [r for r in range(1, last + 1) if r not in values]
    if missing:
        raise BoardError("row-gap", f"rows run from 1 to {last} but row {missing[0]} has no cell")
    if last <= GOAL_ROWS:
        raise BoardError(
            "too-few-rows", f"a board needs more than {GOAL_ROWS} rows: the goal zone is the last "
            f"{GOAL_ROWS}"
        )


def _check_forward(cells: tuple[Cell, ...], by_id: Mapping[str, Cell]) -> None:
    # Rows count away from the start stone, so an edge into an earlier row would move a pawn
    # back toward it, which the rules forbid even where it closes no loop.
    for cell in cells:
        for target in cell.ahead:
            if by_id[target].row < cell.row:
                raise BoardError(
                    "backward-edge",
                    f"{cell.id} (row {cell.row}) leads back to {target} (row"
                    f" {by_id[target].row}): pawns only move forward, never toward the start",
                )


def _colour_map(value: Any, what: str, by_id: Mapping[str, Cell]) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, Mapping):
        raise BoardError("malformed-board", f"{what} must map each colour to a cell id")
    if set(value) != set(COLOURS):
        missing = sorted(set(COLOURS) - set(value)) or sorted(set(value) - set(COLOURS))
        raise BoardError(
            f"bad-{what}", f"{what} needs exactly one cell per colour R, Y, G, B, V; "
            f"{missing[0]!r} is missing or unknown"
        )
    cells = [value[c] for c in COLOURS]
    for colour, cell in zip(COLOURS, cells, strict=True):
        if not isinstance(cell, str) or cell not in by_id:
            raise BoardError(f"bad-{what}", f"{what}: {colour} is on {cell!r}, not a cell")
    for i, cell in enumerate(cells):
        if cell in cells[:i]:
            other = COLOURS[cells.index(cell)]
            raise BoardError(
                f"bad-{what}", f"{what}: {other} and {COLOURS[i]} share cell {cell}; each colour"
                " needs its own"
            )
    return tuple(zip(COLOURS, cells, strict=True))


def _check_finals(cells: tuple[Cell, ...], finals: tuple[tuple[str, str], ...]) -> None:
    last = max(c.row for c in cells)
    final_ids = {cell for _, cell in finals}
    by_id = {c.id: c for c in cells}
    for colour, cid in finals:
        if by_id[cid].colour != colour:
            raise BoardError(
                "bad-finals",
                f"final cell {cid} for {COLOUR_NAMES[colour]} is {by_id[cid].colour}: a final "
                "cell has its own colour",
            )
    in_last = {c.id for c in cells if c.row == last}
    if in_last != final_ids:
        odd = sorted(in_last ^ final_ids)[0]
        raise BoardError(
            "bad-finals",
            f"the last row ({last}) must hold exactly the five final cells; {odd} breaks this",
        )


def _check_paths(
    start: str,
    start_ahead: tuple[str, ...],
    cells: tuple[Cell, ...],
    by_id: Mapping[str, Cell],
    finals: set[str],
) -> None:
    for cell in cells:
        if cell.id in finals and cell.ahead:
            raise BoardError(
                "final-leads-on", f"final cell {cell.id} leads to {cell.ahead[0]}: paths end there"
            )
        if cell.id not in finals and not cell.ahead:
            raise BoardError(
                "dead-end", f"cell {cell.id} leads nowhere but is not a final cell"
            )
    # Depth-first from the start: a cell met again while still on the path closes a loop.
    done: set[str] = set()
    path: list[str] = []

    def visit(cid: str) -> None:
        if cid in path:
            loop = " -> ".join([*path[path.index(cid):], cid])
            raise BoardError("cycle", f"the cells {loop} form a loop: pawns only move forward")
        if cid in done:
            return
        path.append(cid)
        for target in by_id[cid].ahead:
            visit(target)
        path.pop()
        done.add(cid)

    for first in start_ahead:
        visit(first)
    unreachable = [c.id for c in cells if c.id not in done]
    if unreachable:
        raise BoardError(
            "unreachable", f"cell {unreachable[0]} cannot be reached from the start stone {start}"
        )


def _check_tile_spots(
    value: Any, by_id: Mapping[str, Cell], stacks: tuple[tuple[str, str], ...]
) -> tuple[str, ...]:
    spots = _ids(value, "tile_spots")
    if len(spots) != TILE_SPOTS:
        raise BoardError(
            "tile-spots", f"a board has exactly {TILE_SPOTS} tile spots; this one has {len(spots)}"
        )
    stack_cells = {cell for _, cell in stacks}
    for spot in spots:
        if spot not in by_id:
            raise BoardError("tile-spots", f"tile spot {spot} is not a cell")
        if spot in stack_cells:
            raise BoardError(
                "tile-spots", f"cell {spot} holds a wish-stone stack: it cannot also hold a tile"
            )
    return spots
