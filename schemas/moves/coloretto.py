"""Coloretto moves (docs/api.md, Titles, cards and moves): draw, place on a row, take a row."""

from schemas.moves.common import Move, index, move_type


class Draw(Move):
    type = move_type("draw")


class Place(Move):
    type = move_type("place")
    row = index()


class Take(Move):
    type = move_type("take")
    row = index()


MOVE_SCHEMAS = {"draw": Draw, "place": Place, "take": Take}
