"""How a compacted record holds a game's log: each entry without what the others tell.

A stored entry's hash is recomputed from the entries (`store.compacted`); its seq is its place
in the log; its time is kept as the milliseconds since the entry before's; and a verdict's move
and seat, which repeat those of the submission it judges (`of`), are taken from it again. An
entry stored with its keys sorted at every depth (as every append writes them) is rebuilt with
them sorted, so it reads back byte for byte; any other (a `game-created` entry written before
entries were sorted) is kept whole, under `=`, its hash left empty in its place.

`packed` and `unpacked` are the two directions; `unpacked` leaves every `hash` empty, for the
reader to recompute.
"""

from __future__ import annotations

import calendar
import time
from collections.abc import Sequence
from typing import Any

import orjson

_WHOLE = "="  # an entry kept whole
_AT = "@"  # its time, in milliseconds after the entry before's
_SAME = "^"  # a verdict whose move and seat are its submission's


def packed(entries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    before_ms = 0
    for seq, entry in enumerate(entries, start=1):
        if entry.get("seq") != seq or not _sorted(entry):
            out.append({_WHOLE: {k: "" if k == "hash" else v for k, v in entry.items()}})
            continue
        kept = {k: v for k, v in entry.items() if k not in ("hash", "seq")}
        ms = _ms(entry.get("at"))
        if ms is not None:
            del kept["at"]
            kept[_AT], before_ms = ms - before_ms, ms
        if _repeats(entries, entry):
            del kept["move"], kept["seat"]
            kept[_SAME] = 1
        out.append(kept)
    return out


def unpacked(entries: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    before_ms = 0
    for seq, kept in enumerate(entries, start=1):
        if _WHOLE in kept:
            out.append(dict(kept[_WHOLE]))
            continue
        entry = dict(kept)
        if _AT in entry:
            before_ms += entry.pop(_AT)
            entry["at"] = _at(before_ms)
        if entry.pop(_SAME, None):
            judged = out[entry["of"] - 1]
            entry["move"], entry["seat"] = judged["move"], judged["seat"]
        entry["seq"], entry["hash"] = seq, ""
        out.append({k: entry[k] for k in sorted(entry)})
    return out


def _sorted(entry: dict[str, Any]) -> bool:
    return orjson.dumps(entry) == orjson.dumps(entry, option=orjson.OPT_SORT_KEYS)


def _repeats(entries: Sequence[dict[str, Any]], entry: dict[str, Any]) -> bool:
    """Whether a verdict's move and seat are, byte for byte, its submission's."""
    of = entry.get("of")
    if not (isinstance(of, int) and 1 <= of < entry["seq"]):
        return False
    judged = entries[of - 1]
    return all(k in judged and k in entry and orjson.dumps(judged[k]) == orjson.dumps(entry[k])
               for k in ("move", "seat"))


def _ms(at: Any) -> int | None:
    """The milliseconds since the epoch of a time as entries spell it (`store.log.now`), when it
    spells them back the same."""
    if not isinstance(at, str) or len(at) != 24:
        return None
    try:
        whole = calendar.timegm(time.strptime(at[:19], "%Y-%m-%dT%H:%M:%S"))
        ms = whole * 1000 + int(at[20:23])
    except ValueError:
        return None
    return ms if _at(ms) == at else None


def _at(ms: int) -> str:
    return f"{time.strftime('%Y-%m-%dT%H:%M:%S', time.gmtime(ms // 1000))}.{ms % 1000:03d}Z"
