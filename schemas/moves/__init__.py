"""Move schemas by game, derived from each game's spec (`engine.spec`): the shape of every move
a client may post, checked before appending.

`MOVES` maps a title and a move `type` to the schema of that move. A body that fits no schema
of its game is a 400 and nothing is appended; whether a card exists or is held, a seat may be
named, and the like is the rules' to judge (they answer with the rule broken).
"""

from marshmallow import RAISE, Schema, fields, validate

from engine.games import GAMES
from engine.spec import Field, Move, Spec

# The largest integer in magnitude a JSON parser holds exactly (an IEEE double's 2^53 - 1):
# no body may carry one past it (service.web), nor a move's field where the rules set no bound.
LARGEST_INTEGER = 2**53 - 1


class _Move(Schema):
    """A move: a `type` naming it, nothing unknown."""

    class Meta:
        unknown = RAISE


def _field(spec: Field) -> fields.Field:
    made = _FIELDS[spec.kind](spec)
    made.required = spec.required
    return made


def _length(spec: Field) -> validate.Length | None:
    if spec.shortest is None and spec.longest is None:
        return None
    if spec.shortest == spec.longest:
        return validate.Length(equal=spec.shortest)
    return validate.Length(min=spec.shortest, max=spec.longest)


def _string(spec: Field) -> fields.Field:
    if spec.choices:
        return fields.String(validate=validate.OneOf(list(spec.choices)))
    return fields.String(validate=_length(spec))


def _integer(spec: Field) -> fields.Field:
    # Unbounded by the rules, an integer is still one a browser holds exactly.
    low = -LARGEST_INTEGER if spec.low is None else spec.low
    high = LARGEST_INTEGER if spec.high is None else spec.high
    return fields.Integer(strict=True, validate=validate.Range(min=low, max=high))


def _list(spec: Field) -> fields.Field:
    assert spec.items is not None
    return fields.List(_field(spec.items), validate=_length(spec))


def _map(spec: Field) -> fields.Field:
    assert spec.keys is not None and spec.items is not None
    return fields.Dict(keys=_field(spec.keys), values=_field(spec.items))


_FIELDS = {"str": _string, "int": _integer, "list": _list, "map": _map}


def _schema(game: str, move: Move) -> type[Schema]:
    shape = {name: _field(f) for name, f in move.fields.items()}
    shape["type"] = fields.String(required=True, validate=validate.Equal(move.type))
    name = f"{game}-{move.type}".replace("-", "_")
    return _Move.from_dict(shape, name=name)


def _schemas(spec: Spec) -> dict[str, type[Schema]]:
    return {m.type: _schema(spec.name, m) for m in spec.moves}


MOVES: dict[str, dict[str, type[Schema]]] = {
    title: _schemas(game.spec) for title, game in GAMES.items()
}


# Every move schema by the name /openapi.json gives it: `<title>_<move type>`, dashes as
# underscores.
COMPONENTS: dict[str, type[Schema]] = {
    f"{game}-{kind}".replace("-", "_"): schema
    for game, schemas in sorted(MOVES.items())
    for kind, schema in sorted(schemas.items())
}
