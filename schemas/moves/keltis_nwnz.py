"""Keltis "Neue Wege, neue Ziele" moves (docs/api.md, Titles): move a pawn with a card, discard,
 the follow-ups a tile demands (clover, discard-tile), draw."""

from marshmallow import fields, validate

from schemas.moves.common import Move, move_type

_COLOURS = ["R", "Y", "G", "B", "V"]
_PAWNS = ["s1", "s2", "s3", "s4", "big"]


def _card() -> fields.String:
    return fields.String(required=True, validate=validate.Length(min=2, max=3))


def _pawn() -> fields.String:
    return fields.String(required=True, validate=validate.OneOf(_PAWNS))


def _cell() -> fields.String:
    return fields.String(required=True, validate=validate.Length(min=1, max=64))


class MovePawn(Move):
    type = move_type("move")
    pawn = _pawn()
    to = _cell()
    card = _card()


class Discard(Move):
    type = move_type("discard")
    card = _card()


class Clover(Move):
    type = move_type("clover")
    pawn = _pawn()
    to = _cell()


class DiscardTile(Move):
    type = move_type("discard-tile")
    card = _card()
    # Only needed when the card is both in hand and on top of its display row.
    source = fields.String(data_key="from", validate=validate.OneOf(["hand", "display"]))


class Draw(Move):
    type = move_type("draw")
    source = fields.String(
        required=True, data_key="from", validate=validate.OneOf(["deck", *_COLOURS])
    )


MOVE_SCHEMAS = {
    "move": MovePawn,
    "discard": Discard,
    "clover": Clover,
    "discard-tile": DiscardTile,
    "draw": Draw,
}
