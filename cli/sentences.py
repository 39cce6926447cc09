"""The log as readable sentences: "ann drew orange", "bob's take row 2 was rejected: ...".

The browser says the same in JavaScript (`service/static/js/sentences.js`); the server sends
only entries, so the terminal needs its own words for them, kept in step with the page's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Entry = Mapping[str, Any]


def _pile(source: str) -> str:
    return "the deck" if source == "deck" else f"the {source} pile"


def _seals(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {seal}" for seal, n in counts.items()) or "no seals"


def _taking(taken: Mapping[str, Sequence[int]]) -> str:
    return "; ".join(f"{seal} from seat {', '.join(map(str, seats))}"
                     for seal, seats in taken.items())


def _play(m: Entry) -> str:
    where = f" on the {m['row']} row" if m.get("row") else ""
    if m.get("group") is not None:
        where += f" to group {m['group']}"
    return f"play {m['card']}{where}"


_MOVES: dict[str, Callable[[Entry], str]] = {
    "draw": lambda m: f"draw from {_pile(m['from'])}" if m.get("from") else "draw",
    "place": lambda m: f"place on row {m['row']}",
    "take": lambda m: f"take row {m['row']}",
    "play": _play,
    "discard": lambda m: f"discard {m['card']}",
    "discard-tile": lambda m: f"discard {m['card']} for the tile"
                              + (f" (from {m['from']})" if m.get("from") else ""),
    "wish": lambda m: f"take a wish stone with {' + '.join(m['cards'])}",
    "pass": lambda m: "pass",
    "predict": lambda m: f"predict {_seals(m['seals'])}"
                         + (f" (taking {_taking(m['from'])})" if m.get("from") else ""),
    "saboteur": lambda m: "become the saboteur",
    "return": lambda m: f"return the {m['seal']} seal",
    "start": lambda m: f"start with {m['card']}",
    "stagecoach": lambda m: f"put {m['card']} on the stagecoach",
    "move": lambda m: f"move {m['pawn']} to {m['to']} with {m['card']}",
    "clover": lambda m: f"move {m['pawn']} to {m['to']} (clover)",
}


def label(move: Entry | None) -> str:
    """A move as a short phrase, from the contract's move vocabulary."""
    if not move:
        return "a hidden move"
    said = _MOVES.get(move.get("type"))
    return said(move) if said else json.dumps(move)


def _who(players: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return ""
    return players[seat] if 0 <= seat < len(players) else f"seat {seat}"


def _value(v: Any) -> str:
    if v is None:
        return "(hidden)"
    if isinstance(v, list):
        return ", ".join(map(_value, v)) or "none"
    if isinstance(v, dict):
        return ", ".join(f"{k} {_value(x)}" for k, x in v.items())
    return str(v)


def _hidden(card: str | None) -> str:
    return "a hidden card" if card is None else card


def _played(f: Entry, w: str) -> str:
    where = f" on the {f['row']} row" if f.get("row") else ""
    if f.get("group") is not None:
        where += f" to group {f['group']}" + (", taking it" if f.get("took_control") else "")
    return f"{w} played {_hidden(f.get('card'))}{where}"


# The facts most entries carry, said as a person would; any other reads generically.
_SAID: dict[str, Callable[[Entry, str], str]] = {
    "drew": lambda f, w: f"{w} drew {_hidden(f.get('card'))}"
                         + (f" from the {f['source']} pile"
                            if f.get("source") and f["source"] != "deck" else ""),
    "took-discard": lambda f, w: f"{w} took {f['card']} from the {f['pile']} pile",
    "placed": lambda f, w: f"{w} placed {f['card']} on row {f['row']}",
    "took": lambda f, w: f"{w} took row {f['row']}: {', '.join(f['cards'])}",
    "played": _played,
    "discarded": lambda f, w: f"{w} discarded {_hidden(f.get('card'))}",
    "moved": lambda f, w: f"{w} moved {f['pawn']} from {f['origin']} to {f['to']} "
                          f"with {f['card']}",
    "trick-won": lambda f, w: f"{w} won trick {f['trick']}: {', '.join(f['cards'])}",
    "seal-returned": lambda f, w: f"{w} returned a {f['seal']} seal",
    "predicted": lambda f, w: f"{w} predicted {', '.join(f['seals']) or 'no seals'}",
}
# Those naming a second seat.
_SAID_OF_TWO: dict[str, Callable[[Entry, str, Sequence[str]], str]] = {
    "seal-taken-from": lambda f, w, players:
        f"{w} took a {f['seal']} seal from {_who(players, f['from_seat'])}",
}


def _detail(key: str, v: Any, players: Sequence[str]) -> str:
    if key in ("card", "cards"):
        return "a hidden card" if v is None else _value(v)
    if key.endswith("seat") or key in ("controller", "taken_by"):
        return f"{key.replace('_', ' ')} {'nobody' if v is None else _who(players, v)}"
    return f"{key.replace('_', ' ')} {_value(v)}"


def fact(f: Entry, players: Sequence[str]) -> str:
    """A fact an accepted move produced, said plainly: its seat, its kind, its details."""
    subject = _who(players, f.get("seat"))
    if f["type"] in _SAID and subject:
        return _SAID[f["type"]](f, subject)
    if f["type"] in _SAID_OF_TWO and subject:
        return _SAID_OF_TWO[f["type"]](f, subject, players)
    details = ", ".join(_detail(k, v, players) for k, v in f.items()
                        if k not in ("type", "seat", "hidden"))
    return " ".join(part for part in (subject, f["type"].replace("-", " "), details) if part)


def sentence(entry: Entry, players: Sequence[str], by_seq: Mapping[int, Entry]) -> str:
    """One log entry as a sentence; `by_seq` finds the submission a verdict is about."""
    name, kind = _who(players, entry.get("seat")), entry["type"]
    if kind == "game-created":
        return f"{entry['game']} was set up for {', '.join(entry['players'])}"
    if kind == "move-submitted":
        if entry.get("move"):
            return f"{name} submitted: {label(entry['move'])}"
        return f"{name} submitted a move (hidden until judged)"
    if kind == "move-accepted":
        effects = [fact(f, players) for f in entry.get("effects") or []]
        return "; ".join(effects) if effects else f"{name}: {label(entry.get('move'))}"
    if kind == "move-rejected":
        submitted = by_seq.get(entry["of"])
        what = label(submitted["move"]) if submitted and submitted.get("move") else "move"
        if entry.get("detail"):
            return f"{name}'s {what} was rejected: {entry['detail']}"
        return f"{name}'s {what} was rejected (the reason is for {name}'s eyes)"
    if kind == "game-finished":
        return f"the game is over; the seed is revealed: {entry['seed']}"
    return kind


class Narrator:
    """Sentences for the entries of one game as they come, remembering the submissions that
    later verdicts are about."""

    def __init__(self, players: Sequence[str]):
        self.players, self.by_seq = list(players), {}

    def __call__(self, entry: Entry) -> str:
        self.by_seq[entry["seq"]] = entry
        return sentence(entry, self.players, self.by_seq)
