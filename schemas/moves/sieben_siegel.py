"""Die sieben Siegel moves (docs/api.md, Titles, cards and moves): predict, saboteur, play, return.

A prediction maps seal colours to trick counts (an empty object predicts no trick); `from`
names, per colour the supply lacks, one seat to take each missing seal from. Whether the
seals and seats are available, and whether a card is held and may be played, is the engine's
to judge (it answers with the rule broken).
"""

from marshmallow import fields, validate

from schemas.moves.common import Move, move_type

_COLOUR_SEALS = ["red", "yellow", "green", "blue", "violet"]
_SEALS = [*_COLOUR_SEALS, "white", "black"]


class Predict(Move):
    type = move_type("predict")
    seals = fields.Dict(
        required=True,
        # white and black are named here so the engine can answer with the rule they break
        keys=fields.String(validate=validate.OneOf(_SEALS)),
        values=fields.Integer(strict=True, validate=validate.Range(min=0)),
    )
    sources = fields.Dict(
        data_key="from",
        keys=fields.String(validate=validate.OneOf(_COLOUR_SEALS)),
        values=fields.List(
            fields.Integer(strict=True, validate=validate.Range(min=0)),
            validate=validate.Length(min=1, max=5),
        ),
    )


class Saboteur(Move):
    type = move_type("saboteur")


class Play(Move):
    type = move_type("play")
    card = fields.String(required=True, validate=validate.Length(min=2, max=3))


class Return(Move):
    type = move_type("return")
    seal = fields.String(required=True, validate=validate.OneOf(_SEALS))


MOVE_SCHEMAS = {"predict": Predict, "saboteur": Saboteur, "play": Play, "return": Return}
