"""`replace` for the engine's frozen dataclasses: the same value as `dataclasses.replace`, made
cheaply.

A fold builds a few new states per move, and `dataclasses.replace` re-reads every field and
runs the generated `__init__` (one `object.__setattr__` per field): it cost more than the rules
themselves. The engine's frozen values hold nothing but their fields (no `__post_init__`, no
`init=False` field, no cached property), so copying the fields and applying the changes gives
the same value; unknown field names are still refused, as `dataclasses.replace` does.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, TypeVar

T = TypeVar("T")


def replace(value: T, **changes: Any) -> T:
    kind = type(value)
    fresh = object.__new__(kind)
    fields = fresh.__dict__
    fields.update(value.__dict__)
    fields.update(changes)
    # An unknown name is a new key: told by the count, not by comparing the names every time.
    if len(fields) != len(value.__dict__):
        unknown = sorted(changes.keys() - _field_set(kind))[0]
        raise TypeError(f"{kind.__name__} has no field {unknown!r}")
    return fresh


@functools.cache
def field_names(kind: type) -> tuple[str, ...]:
    """The fields of a dataclass in order, read once per class."""
    return tuple(f.name for f in dataclasses.fields(kind))


@functools.cache
def _field_set(kind: type) -> frozenset[str]:
    return frozenset(field_names(kind))
