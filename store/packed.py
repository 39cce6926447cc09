"""How a compacted record holds a game's log: each entry without what the others tell.

A stored entry's hash is recomputed from the entries (`store.compacted`); its seq is its place
in the log; its time is kept as the milliseconds since the entry before's; and a verdict's move
and seat, which repeat those of the submission it judges (`of`), are taken from it again. An
entry stored with its keys sorted at every depth (as every append writes them) is rebuilt with
them sorted, so it reads back byte for byte; any other (a `game-created` entry written before
entries were sorted) is kept whole, under `=`, its hash left empty in its place.

`packed` and `unpacked` are the two directions. `unpacked` leaves the hashes for the reader to
recompute: an entry kept whole holds an empty `hash` in its place; any other holds none, its keys
in no particular order, for it was stored sorted and is to be written sorted (a `hash`
member tells which is which).
"""

from __future__ import annotations

import calendar
import functools
import time
from collections.abc import Sequence
from typing import Any

import orjson

_WHOLE = "="  # an entry kept whole
_AT = "@"  # its time, in milliseconds after the entry before's
_SAME = "^"  # a verdict whose move and seat are its submission's


def packed(entries: Sequence[dict[str, Any]], first: int = 1) -> list[dict[str, Any]]:
    """`entries`, numbered from `first`, packed to be read back alone (`unpacked`): the first
    one's time is whole, and a verdict's move and seat are taken again only from among them."""
    out: list[dict[str, Any]] = []
    before_ms = 0
    for seq, entry in enumerate(entries, start=first):
        if entry.get("seq") != seq or not _sorted(entry):
            out.append({_WHOLE: {k: "" if k == "hash" else v for k, v in entry.items()}})
            continue
        kept = {k: v for k, v in entry.items() if k not in ("hash", "seq")}
        ms = _ms(entry.get("at"))
        if ms is not None:
            del kept["at"]
            kept[_AT], before_ms = ms - before_ms, ms
        if _repeats(entries, entry, first):
            del kept["move"], kept["seat"]
            kept[_SAME] = 1
        out.append(kept)
    return out


def unpacked(entries: Sequence[dict[str, Any]], first: int = 1) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    before_ms = 0
    for seq, kept in enumerate(entries, start=first):
        if _WHOLE in kept:
            out.append(dict(kept[_WHOLE]))
            continue
        # Not sorted again here: a reader writes it sorted (a dict rebuilt in order cost a
        # fifth of reading a record).
        entry = dict(kept)
        if _AT in entry:
            before_ms += entry.pop(_AT)
            entry["at"] = _at(before_ms)
        if entry.pop(_SAME, None):
            judged = out[entry["of"] - first]
            entry["move"], entry["seat"] = judged["move"], judged["seat"]
        entry["seq"] = seq
        out.append(entry)
    return out


def _sorted(entry: dict[str, Any]) -> bool:
    return orjson.dumps(entry) == orjson.dumps(entry, option=orjson.OPT_SORT_KEYS)


def _repeats(entries: Sequence[dict[str, Any]], entry: dict[str, Any], first: int) -> bool:
    """Whether a verdict's move and seat are, byte for byte, its submission's, among them."""
    of = entry.get("of")
    if not (isinstance(of, int) and first <= of < entry["seq"]):
        return False
    judged = entries[of - first]
    return all(k in judged and k in entry and orjson.dumps(judged[k]) == orjson.dumps(entry[k])
               for k in ("move", "seat"))


def _ms(at: Any) -> int | None:
    """The milliseconds since the epoch of a time as entries spell it (`store.log.now`), when it
    spells them back the same."""
    if not isinstance(at, str) or len(at) != 24 or at[19] != ".":
        return None
    whole = _seconds(at[:19])
    if whole is None or not at[20:23].isdigit():
        return None
    ms = whole * 1000 + int(at[20:23])
    return ms if _at(ms) == at else None


@functools.lru_cache(maxsize=1024)
def _seconds(spelled: str) -> int | None:
    # Parsed once a second, not once an entry: parsing was most of packing a log.
    try:
        return calendar.timegm(time.strptime(spelled, "%Y-%m-%dT%H:%M:%S"))
    except ValueError:
        return None


def _at(ms: int) -> str:
    return f"{_second(ms // 1000)}.{ms % 1000:03d}Z"


@functools.lru_cache(maxsize=1024)
def _second(seconds: int) -> str:
    # A game's entries come a few to a second: each second is spelled once, not per entry.
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
