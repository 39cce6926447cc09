"""Move schemas by game: the shape of every move a client may post, checked before appending.

Each game module maps a move `type` to the schema of that move; `MOVES` is the registry.
A body that fits no schema of its game is a 400 and nothing is appended.
"""

from marshmallow import Schema

from schemas.moves import coloretto

MOVES: dict[str, dict[str, type[Schema]]] = {
    "coloretto": coloretto.MOVE_SCHEMAS,
}
