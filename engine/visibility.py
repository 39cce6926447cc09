"""The one place that knows how log entries are redacted for a viewer.

A dict anywhere in an entry (the entry itself, a move, a fact) may carry `"hidden": [fields]`
next to `"seat": s`: those fields are for seat `s` alone while the game runs. Every other
viewer gets them as null. The table token and everybody after the game ends see everything.
Hashes are computed over the unredacted entry, so the markers are part of the log itself.
"""

from __future__ import annotations

from typing import Any

from engine.game import TABLE, Viewer


def sees_everything(viewer: Viewer, finished: bool) -> bool:
    return finished or viewer == TABLE


def redact(value: Any, viewer: Viewer, finished: bool = False) -> Any:
    """`value` (an entry, move or fact in JSON form) as `viewer` may see it."""
    if sees_everything(viewer, finished):
        return value
    return _redact(value, viewer)


def _redact(value: Any, viewer: Viewer) -> Any:
    if isinstance(value, list):
        return [_redact(v, viewer) for v in value]
    if not isinstance(value, dict):
        return value
    hidden = value.get("hidden") or ()
    private = hidden and value.get("seat") != viewer
    return {
        k: None if private and k in hidden else _redact(v, viewer) for k, v in value.items()
    }


def is_redacted(value: Any) -> bool:
    """Whether some field of `value` was withheld from its viewer (is hidden and null)."""
    if isinstance(value, list):
        return any(is_redacted(v) for v in value)
    if not isinstance(value, dict):
        return False
    if any(value.get(k) is None for k in value.get("hidden") or ()):
        return True
    return any(is_redacted(v) for v in value.values())
