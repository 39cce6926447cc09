"""JSON round-trip for the engine's frozen dataclass states, driven by their type hints.

States hold only: str, int, bool, None, frozen dataclasses, `tuple[X, ...]`, fixed tuples
`tuple[X, Y]`, unions with None, and `Mapping[str, Any]` (options, kept as plain JSON).
Workers keep the state of a game between jobs in this form; the conformance test checks that
every state of every playout survives the round trip unchanged.

A worker encodes the whole state with every verdict it writes and decodes it again for the
next batch, so each dataclass gets an encoder and a decoder written once from its hints, as
`dataclasses` writes `__init__`: one dict display or one constructor call naming every field,
with nothing called for the fields that are plain JSON already. A state of hundreds of cards
cost a call per field of every card when they were walked by closures.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

Convert = Callable[[Any], Any] | None  # None: the JSON value is the value itself

# The metadata of a field added to a state after states of its kind were stored:
# `field(default=..., metadata=LATER)`. While it holds its default it is left out of the JSON,
# and a JSON object without it decodes to the default: the states stored before it decode, and
# the states that never use it (a seeded game's, beside a recorded one's) encode byte for byte
# as before, so audits comparing stored states with rebuilt ones still agree.
LATER = {"later": True}

_PLAIN = (str, int, bool, type(None))


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
        return _Writer(encoding=False).converter(kind)
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _decoder(args[0])
        return tuple if item is None else (lambda d: tuple(map(item, d)))
    if origin is tuple:
        items = [_decoder(a) for a in args]
        return lambda d: tuple(v if c is None else c(v) for c, v in zip(items, d, strict=True))
    if _is_union(origin):
        inner = _decoder(_first_not_none(args))
        return None if inner is None else (lambda d: None if d is None else inner(d))
    return None


@functools.cache
def _encoder(kind: type) -> Callable[[Any], Any]:
    return _Writer(encoding=True).converter(kind)


class _Writer:
    """Writes one dataclass's encoder or decoder: an expression per field, in field order."""

    def __init__(self, encoding: bool) -> None:
        self.encoding = encoding
        self.names: dict[str, Any] = {}
        self.depth = 0
        self.within: list[type] = []  # the dataclasses being written out, outermost first

    def converter(self, kind: type) -> Callable[[Any], Any]:
        # As dataclasses writes its methods: code made from the fields, run once.
        exec(f"def convert(v):\n    return {self.dataclass(kind, 'v')}", self.names)
        return self.names["convert"]

    def expression(self, kind: Any, value: str) -> str:
        """The expression converting `value`, of type `kind`: `value` itself when the value
        and its JSON are the same."""
        if kind in _PLAIN:
            return value
        if dataclasses.is_dataclass(kind):
            if kind in self.within:  # a value within its own kind: its converter, once written
                converter = _encoder if self.encoding else _decoder
                return f"{self.bind(converter)}({self.bind(kind)})({value})"
            return self.dataclass(kind, value)
        origin, args = typing.get_origin(kind), typing.get_args(kind)
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            return self.each(args[0], value)
        # `decode` reads any union as its first type or None; `encode` only an optional one.
        if _is_union(origin) and (not self.encoding or args.count(type(None)) == len(args) - 1):
            inner = self.expression(_first_not_none(args), value)
            return inner if inner == value else f"(None if {value} is None else {inner})"
        convert = encode if self.encoding else _decoder(kind)
        return value if convert is None else f"{self.bind(convert)}({value})"

    def dataclass(self, kind: type, value: str) -> str:
        """A dict display of the encoded fields of `value`, a `kind`; or a call making a
        `kind` of the decoded fields of the JSON object `value`."""
        hints = typing.get_type_hints(kind)
        fields = dataclasses.fields(kind)
        self.within.append(kind)
        if self.encoding:
            items = [self.item(f, hints[f.name], value) for f in fields]
            made = f"{{{', '.join(items)}}}"
        else:
            # Positionally, in field order, unless a field can only be named.
            named = any(f.kw_only for f in fields)
            arguments = [f"{f.name + '=' if named else ''}{self.argument(f, hints[f.name], value)}"
                         for f in fields]
            made = f"{self.bind(kind)}({', '.join(arguments)})"
        self.within.pop()
        return made

    def item(self, f: dataclasses.Field, kind: Any, value: str) -> str:
        """A field's entry in the dict display; a later field's only when not its default."""
        encoded = self.expression(kind, f"{value}.{f.name}")
        if not f.metadata.get("later"):
            return f"{f.name!r}: {encoded}"
        default = self.bind(f.default)
        return f"**({{}} if {value}.{f.name} == {default} else {{{f.name!r}: {encoded}}})"

    def argument(self, f: dataclasses.Field, kind: Any, value: str) -> str:
        """A field's decoded value; a later field's default when the JSON lacks it."""
        if not f.metadata.get("later"):
            return self.expression(kind, f"{value}[{f.name!r}]")
        inner = self.expression(kind, "x")
        default = self.bind(f.default)
        if inner == "x":
            return f"{value}.get({f.name!r}, {default})"
        convert = self.bind(eval(f"lambda x: {inner}", self.names))
        return f"({default} if {f.name!r} not in {value} else {convert}({value}[{f.name!r}]))"

    def each(self, kind: Any, source: str) -> str:
        """Every item (of type `kind`) of `source` converted, into a list to encode, into a
        tuple to decode; the items are taken as they are when they need no converting."""
        self.depth += 1
        item = f"x{self.depth}"
        inner = self.expression(kind, item)
        made = "list" if self.encoding else "tuple"
        if inner == item:
            return f"{made}({source})"
        if self.encoding:
            return f"[{inner} for {item} in {source}]"
        return f"tuple([{inner} for {item} in {source}])"

    def bind(self, value: Any) -> str:
        """A name the written code reaches `value` by."""
        name = f"_{len(self.names)}"
        self.names[name] = value
        return name


def _is_union(origin: Any) -> bool:
    return origin in (typing.Union, types.UnionType)


def _first_not_none(args: tuple[Any, ...]) -> Any:
    return next(a for a in args if a is not type(None))
