"""The engine's frozen dataclasses made cheaply: `@frozen` to declare one, `replace` to change one.

A fold makes several values per move (a state, its facts, cards, groups) and changes a few, and
the dataclass machinery cost more than the rules themselves:
- the `__init__` that `dataclass(frozen=True)` generates sets each field through
  `object.__setattr__`, dearer than filling the new instance's `__dict__` directly, which
  is what `@frozen`'s `__init__` does; everything else (`__eq__`, `__hash__`, `__repr__`, the
  refusal of assignments, `dataclasses.fields`) is the dataclass's own;
- `dataclasses.replace` re-reads every field and runs that `__init__`: `replace` copies the
  fields and applies the changes, and still refuses unknown field names.
A field added later (`engine.codec.LATER`) is kept out of `__dict__` while it holds its default;
once `replace` sets it, it is never set back to the default. Both rely on the engine's values
holding nothing but their fields (no `__post_init__`, no
`init=False` or keyword-only field, no cached property): `@frozen` refuses a class that does not.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

_FROM_FACTORY = object()  # the default of a field whose default comes from a factory


@dataclass_transform(frozen_default=True)
def frozen(cls: type[T]) -> type[T]:
    """`@dataclass(frozen=True)`, with an `__init__` that fills the instance's `__dict__`."""
    cls = dataclasses.dataclass(frozen=True)(cls)
    cls.__init__ = _init(cls)  # type: ignore[misc]
    return cls


def _init(cls: type) -> Any:
    fields = dataclasses.fields(cls)
    if hasattr(cls, "__post_init__") or any(not f.init or f.kw_only for f in fields):
        raise TypeError(f"{cls.__name__}: @frozen makes values of plain positional fields only")
    defaults: dict[str, Any] = {"_FROM_FACTORY": _FROM_FACTORY}
    params, made = [], []
    for f in fields:
        if f.default is not dataclasses.MISSING:
            defaults[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            defaults[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_FROM_FACTORY")
            made.append(f"    if {f.name} is _FROM_FACTORY: {f.name} = _factory_{f.name}()")
        else:
            params.append(f.name)
    source = "\n".join([
        f"def __init__(self, {', '.join(params)}):",
        *made,
        "    instance_fields = self.__dict__",
        *(_set_field(f) for f in fields),
    ])
    exec(source, defaults)  # as dataclasses makes its methods: code written for the fields
    init = defaults["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _set_field(f: dataclasses.Field) -> str:
    """The line of `__init__` that stores a field. A field added later (`engine.codec.LATER`)
    is stored only when it is not its default, which the class then answers: orjson writes a
    value's `__dict__`, so a stored state holds the field only where it is used."""
    if f.metadata.get("later"):
        return f"    if {f.name} != _default_{f.name}: instance_fields[{f.name!r}] = {f.name}"
    return f"    instance_fields[{f.name!r}] = {f.name}"


# A changed value is made around the merged fields, without running `__init__`.
_new = object.__new__
_set = object.__setattr__


def replace(value: T, **changes: Any) -> T:
    old = value.__dict__
    fields = old | changes
    # An unknown name is a new key: told by the count, not by comparing the names every time.
    if len(fields) != len(old):
        kind = type(value)
        unknown = sorted(changes.keys() - _field_set(kind))
        if unknown:  # else a later field (engine.codec.LATER) was set: it is kept from then on
            raise TypeError(f"{kind.__name__} has no field {unknown[0]!r}")
    fresh = _new(type(value))
    _set(fresh, "__dict__", fields)
    return fresh


@functools.cache
def field_names(kind: type) -> tuple[str, ...]:
    """The fields of a dataclass in order, read once per class."""
    return tuple(f.name for f in dataclasses.fields(kind))


@functools.cache
def _field_set(kind: type) -> frozenset[str]:
    return frozenset(field_names(kind))


def with_item(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """`items` with the one at `index` replaced: a move changes one seat's hand, one row, one
    pile. Made through a list, cheaper than a tuple built around the slices either side
    (docs/benchmarks.md, 2026-12-06)."""
    changed = list(items)
    changed[index] = value
    return tuple(changed)
