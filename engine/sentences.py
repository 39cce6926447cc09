"""The log as readable sentences ("ann drew orange", "bob's take row 2 was rejected: ..."), from
the templates each game's spec holds (`engine.spec` states the rule).

This is the rule in Python, for the command line; `service/static/js/sentences.js` is the same
rule for the pages, and a test holds the two to the same text for every entry of the golden
replays. A spec is taken in its served form (`GET /v1/titles`): `says` and `facts` by name.

The log reads as a game record: a submission and its verdict are one line, the verdict's
(`folded` names the submissions whose verdicts are among the entries).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
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
    # A seat that is no number acts for the whole table (a table action, issue 28).
    if type(seat) is not int:
        return "the table"
    return players[seat] if 0 <= seat < len(players) else f"seat {seat}"


def _value(v: Any) -> str:
    if v is None:
        return "(hidden)"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        return ", ".join(map(_value, v)) or "none"
    if isinstance(v, dict):
        return ", ".join(f"{k} {_value(x)}" for k, x in v.items())
    return str(v)


_HOW: dict[str, Callable[[Any, Players], str]] = {
    "seat": lambda v, players: "nobody" if v is None else _who(players, v),
    "seats": lambda v, players: ", ".join(_who(players, s) for s in v) or "nobody",
    "each": lambda v, players: ", ".join(f"{_who(players, s)} {_value(x)}"
                                         for s, x in enumerate(v)),
    "card": lambda v, players: "a hidden card" if v is None else _value(v),
    "pile": lambda v, players: "the deck" if v == "deck" else f"the {v} pile",
    "plus": lambda v, players: " + ".join(map(_value, v)),
    "counts": lambda v, players: ", ".join(f"{_value(n)} {k}" for k, n in v.items()),
    "sources": lambda v, players: "; ".join(
        f"{k} from {', '.join(_who(players, s) for s in seats)}" for k, seats in v.items()),
    "words": lambda v, players: str(v).replace("-", " "),
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


def _plainly(values: Entry, players: Players, skip: tuple[str, ...]) -> str:
    """What no template says, in words: each field that holds something, by its name; a true
    flag by its name alone; nothing for a withheld, false or empty field."""
    said = []
    for key, v in values.items():
        if key in skip or not _present(v):
            continue
        name = key.replace("_", " ")
        if v is True:
            said.append(name)
        elif key.endswith("seat") or key in ("controller", "taken_by"):
            said.append(f"{name} {_who(players, v)}")
        else:
            said.append(f"{name} {_value(v)}")
    return ", ".join(said)


def label(move: Entry | None, spec: Spec | None, players: Players = ()) -> str:
    """A move as a short phrase, by its game's `says`; one the spec cannot say, as its type and
    fields in words ("takeback to 5")."""
    if not move:
        return "a hidden move"
    template = (spec or {}).get("says", {}).get(move.get("type"))
    said = render(template, move, players) if template else None
    if said is not None:
        return said
    kind = str(move.get("type", "move")).replace("-", " ")
    return " ".join(part for part in (kind, _plainly(move, players, ("type",))) if part)


def fact(f: Entry, players: Players, spec: Spec | None) -> str:
    """A fact an accepted move produced, by its game's `facts`; otherwise said plainly: its
    seat, its kind, its details."""
    template = (spec or {}).get("facts", {}).get(f["type"])
    said = render(template, f, players) if template else None
    if said is not None:
        return said
    subject = _who(players, f.get("seat"))
    details = _plainly(f, players, ("type", "seat", "hidden"))
    return " ".join(part for part in (subject, f["type"].replace("-", " "), details) if part)


def folded(entries: Iterable[Entry]) -> set[int]:
    """The submissions among `entries` whose verdict is among them too: each reads as one line
    with its verdict, the verdict's."""
    entries = list(entries)
    submitted = {e["seq"] for e in entries if e["type"] == "move-submitted"}
    return {e["of"] for e in entries if e.get("of") in submitted}


def sentence(entry: Entry, players: Players, by_seq: Mapping[int, Entry],
             spec: Spec | None) -> str:
    """One log entry as a sentence; `by_seq` finds the submission a verdict is about."""
    name, kind = _who(players, entry.get("seat")), entry["type"]
    if kind == "game-created":
        return f"{entry['game']} was set up for {', '.join(entry['players'])}"
    if kind == "move-submitted":
        if entry.get("move"):
            return f"{name} submitted: {label(entry['move'], spec, players)}"
        return f"{name} submitted a move, kept secret until it is judged"
    if kind == "move-accepted":
        effects = [fact(f, players, spec) for f in entry.get("effects") or []]
        if effects:
            return "; ".join(effects)
        return f"{name}: {label(entry.get('move'), spec, players)}"
    if kind == "move-rejected":
        submitted = by_seq.get(entry["of"])
        move = submitted.get("move") if submitted else None
        what = label(move, spec, players) if move else "move"
        if entry.get("detail"):
            return f"{name}'s {what} was rejected: {entry['detail']}"
        return f"{name}'s {what} was rejected (the reason is for {name}'s eyes)"
    if kind == "game-finished":
        if "seed" not in entry:  # a recorded game: dealt at the table, by nobody here
            return "the game is over; its cards were dealt at the table: no seed to reveal"
        return f"the game is over; the seed is revealed: {entry['seed']}"
    return " ".join(part for part in (name, kind.replace("-", " ")) if part)


def verdict_lines(entries: Iterable[Entry]) -> dict[int, int]:
    """Each accepted submission among `entries` to its verdict's seq: the line the log shows it
    on (`folded`)."""
    return {e["of"]: e["seq"] for e in entries if e["type"] == "move-accepted"}


def cited(component: Entry, seat: int, by_seq: Mapping[int, Entry], players: Players,
          spec: Spec | None) -> list[tuple[int, str]]:
    """The lines of the log a score component's `events` stand for, each with what it brings
    the component: a submission is cited as its verdict's line, which says the card drawn or
    played; the setup (entry 1) as what the spec's `dealt` says it deals the seat ("ann's
    starting card: green"). `by_seq` holds the log as its reader sees it."""
    lines = verdict_lines(by_seq.values())
    out: dict[int, str] = {}
    for event in component.get("events") or []:
        line = lines.get(event, event)
        entry = by_seq.get(line)
        if line in out or entry is None:
            out.setdefault(line, "")
            continue
        dealt = (spec or {}).get("dealt") if entry["type"] == "game-created" else None
        said = render(dealt, {"seat": seat, "label": component["label"]}, players) if dealt \
            else None
        out[line] = said or sentence(entry, players, by_seq, spec)
    return sorted(out.items())
