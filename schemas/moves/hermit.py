"""Hermit moves (docs/api.md, Titles, cards and moves): a starting card, a play, a Stagecoach card.

A card is named by its lower-case hyphenated Decktet name; whether it exists and is held is
the engine's to judge (it answers with the rule broken). A play without `group` starts a new
group, for a card no group accepts.
"""

from marshmallow import fields, validate

from schemas.moves.common import Move, move_type


def _card() -> fields.String:
    return fields.String(required=True, validate=validate.Length(min=1, max=40))


class Start(Move):
    type = move_type("start")
    card = _card()


class Play(Move):
    type = move_type("play")
    card = _card()
    # Optional: absent for a card no group accepts, which starts a new group.
    group = fields.Integer(strict=True, validate=validate.Range(min=0))


class Stagecoach(Move):
    type = move_type("stagecoach")
    card = _card()


MOVE_SCHEMAS = {"start": Start, "play": Play, "stagecoach": Stagecoach}
