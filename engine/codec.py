"""JSON round-trip for the engine's frozen dataclass states, driven by their type hints.

States hold only: str, int, bool, None, frozen dataclasses, `tuple[X, ...]`, fixed tuples
`tuple[X, Y]`, unions with None, and `Mapping[str, Any]` (options, kept as plain JSON).
Workers keep the state of a game between jobs in this form; the conformance test checks that
every state of every playout survives the round trip unchanged.

A decoder and an encoder are compiled once per type from its hints: states are decoded on
every batch a worker judges, and walking the hints each time cost more than the rules did.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

Convert = Callable[[Any], Any] | None  # None: the JSON value is the value itself


def encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _encoder(type(value))(value)
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    return value


def decode(kind: Any, data: Any) -> Any:
    convert = _decoder(kind)
    return data if convert is None else convert(data)


@functools.cache
def _decoder(kind: Any) -> Convert:
    if dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        fields = [(f.name, _decoder(hints[f.name])) for f in dataclasses.fields(kind)]
        return lambda d: kind(**{n: d[n] if c is None else c(d[n]) for n, c in fields})
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])
        return tuple if item is None else (lambda d: tuple(map(item, d)))
    if origin is tuple:
        items = [_decoder(a) for a in args]
        return lambda d: tuple(v if c is None else c(v) for c, v in zip(items, d, strict=True))
    if origin in (typing.Union, types.UnionType):
        inner = _decoder(next(a for a in args if a is not type(None)))
        return None if inner is None else (lambda d: None if d is None else inner(d))
    return None


@functools.cache
def _encoder(kind: type) -> Callable[[Any], Any]:
    hints = typing.get_type_hints(kind)
    fields = [(f.name, _value_encoder(hints[f.name])) for f in dataclasses.fields(kind)]
    return lambda v: {n: c(getattr(v, n)) for n, c in fields}


@functools.cache
def _value_encoder(kind: Any) -> Callable[[Any], Any]:
    if kind in (str, int, bool, type(None)):
        return lambda v: v
    if dataclasses.is_dataclass(kind):
        return _encoder(kind)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _value_encoder(args[0])
        return lambda v: [item(x) for x in v]
    return encode
