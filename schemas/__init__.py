"""marshmallow schemas of the HTTP API: request bodies, answers, and each game's moves."""

import functools

from marshmallow import Schema


@functools.cache
def loader(schema: type[Schema]) -> Schema:
    """One instance per schema: building a marshmallow schema costs more than loading with it,
    and loading keeps no state, so threads share the instance."""
    return schema()
