"""Keltis card game moves (docs/api.md, Titles): play, discard, wish, draw, pass."""

from marshmallow import fields, validate

from schemas.moves.common import Move, move_type

_COLOURS = ["R", "Y", "G", "B", "V"]


def _card() -> fields.String:
    return fields.String(required=True, validate=validate.Length(min=2, max=3))


class Play(Move):
    type = move_type("play")
    card = _card()
    row = fields.String(validate=validate.OneOf(_COLOURS))


class Discard(Move):
    type = move_type("discard")
    card = _card()


class Wish(Move):
    type = move_type("wish")
    cards = fields.List(_card(), required=True, validate=validate.Length(equal=2))


class Draw(Move):
    type = move_type("draw")
    source = fields.String(
        required=True, data_key="from", validate=validate.OneOf(["deck", *_COLOURS, "P"])
    )


class Pass(Move):
    type = move_type("pass")


MOVE_SCHEMAS = {"play": Play, "discard": Discard, "wish": Wish, "draw": Draw, "pass": Pass}
