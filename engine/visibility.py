"""The one place that knows how log entries are redacted for a viewer.

A dict anywhere in an entry (the entry itself, a move, a fact) may carry `"hidden": [fields]`
next to `"seat": s`: those fields are for seat `s` alone while the game runs. Every other
viewer gets them as null. The table token and everybody after the game ends see everything.
Hashes are computed over the unredacted entry, so the markers are part of the log itself.
"""

from __future__ import annotations

from typing import Any

from engine.game import TABLE, Viewer


def shown_to(viewer: Viewer, finished: bool) -> Viewer:
    """Whose view `viewer` gets: its own while the game runs, the table's once it is finished.

    Every read path (state, projections, events, replays, verdicts, audits) asks this."""
    return TABLE if finished else viewer


def redact(value: Any, viewer: Viewer, finished: bool = False) -> Any:
    """`value` (an entry, move or fact in JSON form) as `viewer` may see it."""
    viewer = shown_to(viewer, finished)
    if viewer == TABLE:
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
