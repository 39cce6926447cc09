"""The log as readable sentences ("ann drew orange", "bob's take row 2 was rejected: ..."), from
the templates each game's spec holds (`engine.spec` states the rule).

This is the rule in Python, for the command line; `service/static/js/sentences.js` is the same
rule for the pages, and a test holds the two to the same text for every entry of the golden
replays. A spec is taken in its served form (`GET /v1/titles`): `says` and `facts` by name.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Entry = Mapping[str, Any]
Spec = Mapping[str, Any]
Players = Sequence[str]

# A section `[said|else]`, or a field `{name}`, `{name:how}`, `{?name}`; one pass over the
# template, so nothing a value holds is read as a template.
_PART = re.compile(r"\[([^\[\]|]*)(?:\|([^\[\]]*))?\]|\{(\?)?([a-z_]+)(?::([a-z]+))?\}")
_FIELD = re.compile(r"\{(\?)?([a-z_]+)(?::([a-z]+))?\}")


def _who(players: Players, seat: Any) -> str:
    if seat is None:
        return ""
    return players[seat] if 0 <= seat < len(players) else f"seat {seat}"


def _value(v: Any) -> str:
    if v is None:
        return "(hidden)"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return ", ".join(map(_value, v)) or "none"
    if isinstance(v, dict):
        return ", ".join(f"{k} {_value(x)}" for k, x in v.items())
    return str(v)


_HOW: dict[str, Callable[[Any, Players], str]] = {
    "seat": lambda v, players: "nobody" if v is None else _who(players, v),
    "card": lambda v, players: "a hidden card" if v is None else _value(v),
    "pile": lambda v, players: "the deck" if v == "deck" else f"the {v} pile",
    "plus": lambda v, players: " + ".join(map(_value, v)),
    "counts": lambda v, players: ", ".join(f"{_value(n)} {k}" for k, n in v.items()),
    "sources": lambda v, players: "; ".join(
        f"{k} from seat {', '.join(map(_value, seats))}" for k, seats in v.items()),
}


def _present(v: Any) -> bool:
    return v is not None and v is not False and v != "" and v != [] and v != {}


def render(template: str, values: Entry, players: Players) -> str | None:
    """`template` said of `values`, or None when a field it needs outside sections is missing."""
    outside = _PART.sub(lambda m: "" if m.group(1) is not None else m.group(0), template)
    if any(m.group(2) not in values for m in _FIELD.finditer(outside)):
        return None

    def field(silent: str | None, name: str, how: str | None) -> str:
        if silent:
            return ""
        v = values.get(name)
        return _HOW[how](v, players) if how else _value(v)

    def part(m: re.Match[str]) -> str:
        said, otherwise = m.group(1), m.group(2)
        if said is None:
            return field(m.group(3), m.group(4), m.group(5))
        shown = all(_present(values.get(f.group(2))) for f in _FIELD.finditer(said))
        chosen = said if shown else (otherwise or "")
        return _FIELD.sub(lambda f: field(*f.groups()), chosen)

    return _PART.sub(part, template)


def label(move: Entry | None, spec: Spec | None) -> str:
    """A move as a short phrase, by its game's `says`; one the spec cannot say, as its JSON."""
    if not move:
        return "a hidden move"
    template = (spec or {}).get("says", {}).get(move.get("type"))
    said = render(template, move, ()) if template else None
    return said if said is not None else json.dumps(move, separators=(",", ":"),
                                                    ensure_ascii=False)


def _detail(key: str, v: Any, players: Players) -> str:
    if key in ("card", "cards"):
        return "a hidden card" if v is None else _value(v)
    if key.endswith("seat") or key in ("controller", "taken_by"):
        return f"{key.replace('_', ' ')} {'nobody' if v is None else _who(players, v)}"
    return f"{key.replace('_', ' ')} {_value(v)}"


def fact(f: Entry, players: Players, spec: Spec | None) -> str:
    """A fact an accepted move produced, by its game's `facts`; otherwise said plainly: its
    seat, its kind, its details."""
    template = (spec or {}).get("facts", {}).get(f["type"])
    said = render(template, f, players) if template else None
    if said is not None:
        return said
    details = ", ".join(_detail(k, v, players) for k, v in f.items()
                        if k not in ("type", "seat", "hidden"))
    subject = _who(players, f.get("seat"))
    return " ".join(part for part in (subject, f["type"].replace("-", " "), details) if part)


def sentence(entry: Entry, players: Players, by_seq: Mapping[int, Entry],
             spec: Spec | None) -> str:
    """One log entry as a sentence; `by_seq` finds the submission a verdict is about."""
    name, kind = _who(players, entry.get("seat")), entry["type"]
    if kind == "game-created":
        return f"{entry['game']} was set up for {', '.join(entry['players'])}"
    if kind == "move-submitted":
        if entry.get("move"):
            return f"{name} submitted: {label(entry['move'], spec)}"
        return f"{name} submitted a move (hidden until judged)"
    if kind == "move-accepted":
        effects = [fact(f, players, spec) for f in entry.get("effects") or []]
        return "; ".join(effects) if effects else f"{name}: {label(entry.get('move'), spec)}"
    if kind == "move-rejected":
        submitted = by_seq.get(entry["of"])
        what = label(submitted["move"], spec) if submitted and submitted.get("move") else "move"
        if entry.get("detail"):
            return f"{name}'s {what} was rejected: {entry['detail']}"
        return f"{name}'s {what} was rejected (the reason is for {name}'s eyes)"
    if kind == "game-finished":
        return f"the game is over; the seed is revealed: {entry['seed']}"
    return kind
