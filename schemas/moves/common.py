"""Building blocks shared by the move schemas of several games."""

from marshmallow import RAISE, Schema, fields, validate


class Move(Schema):
    """A move: a `type` naming it, nothing unknown."""

    class Meta:
        unknown = RAISE


def move_type(name: str) -> fields.String:
    return fields.String(required=True, validate=validate.Equal(name))


def index() -> fields.Integer:
    """A row, group or seat number: a whole number from 0."""
    return fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
