"""Move schemas by game: the shape of every move a client may post, checked before appending.

Each game module maps a move `type` to the schema of that move; `MOVES` is the registry.
A body that fits no schema of its game is a 400 and nothing is appended.
"""

from marshmallow import Schema

from schemas.moves import coloretto, hermit, keltis_card, keltis_nwnz, sieben_siegel

MOVES: dict[str, dict[str, type[Schema]]] = {
    "coloretto": coloretto.MOVE_SCHEMAS,
    "keltis-card": keltis_card.MOVE_SCHEMAS,
    "hermit": hermit.MOVE_SCHEMAS,
    "keltis-nwnz": keltis_nwnz.MOVE_SCHEMAS,
    "sieben-siegel": sieben_siegel.MOVE_SCHEMAS,
}


# Every move schema by the name /openapi.json gives it (`keltis_card_play`).
COMPONENTS: dict[str, type[Schema]] = {
    f"{game}-{kind}".replace("-", "_"): schema
    for game, schemas in sorted(MOVES.items())
    for kind, schema in sorted(schemas.items())
}
