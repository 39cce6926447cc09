"""JSON round-trip for the engine's frozen dataclass states, driven by their type hints.

States hold only: str, int, bool, None, frozen dataclasses, `tuple[X, ...]`, fixed tuples
`tuple[X, Y]`, unions with None, and `Mapping[str, Any]` (options, kept as plain JSON).
Workers keep the state of a game between jobs in this form; the conformance test checks that
every state of every playout survives the round trip unchanged.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any


def encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    return value


def decode(kind: Any, data: Any) -> Any:
    if dataclasses.is_dataclass(kind):
        hints = _hints(kind)
        return kind(**{name: decode(hints[name], data[name]) for name in data})
    origin = typing.get_origin(kind)
    args = typing.get_args(kind)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(args[0], v) for v in data)
        return tuple(decode(a, v) for a, v in zip(args, data, strict=True))
    if origin in (typing.Union, types.UnionType):
        if data is None:
            return None
        return decode(next(a for a in args if a is not type(None)), data)
    return data


@functools.cache
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)
