"""The game log as data: entry kinds, the hash chain, and folding a log into game states.

A log is a list of entries numbered 1, 2, ... with no gap:
- `game-created` (always entry 1): game, players, options, rules version, seed commitment;
- `move-submitted`: a seat's move as posted, judged later; the move is for its seat's eyes
  until accepted, since a refused move may name a card still in hand;
- `move-accepted` / `move-rejected`: the verdict on submission `of`, appended by a worker in
  submission order: an acceptance repeats the move (hidden while it is a secret choice) and
  its effects; a rejection names the rule broken, for the submitter's eyes;
- `game-finished`: the seed (and explicit decks) revealed, after the last verdict;
- `seat-key-registered`: a seat's Ed25519 public key, from then on checked against every
  submission for that seat (engine.signatures); a key given at creation is in `game-created`.

The state "right after entry N" is the deal with every submission applied whose acceptance
appears at or before N. A log is folded under the rules its `game-created` entry names
(`rules`), never under today's unless they are the same. This module is pure: the store and
the workers feed it entries.
"""

from __future__ import annotations

import functools
import hashlib
import json
import json.encoder
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import field
from typing import Any, NamedTuple

import orjson

from engine.frozen import frozen
from engine.game import Game, IllegalMove, MoveAfterEnd, Table
from engine.games import RULES
from engine.line import Line
from engine.recorded import RECORDED, is_recorded

GENESIS = "0" * 64
CREATED = "game-created"
SUBMITTED = "move-submitted"
ACCEPTED = "move-accepted"
REJECTED = "move-rejected"
FINISHED = "game-finished"
SEAT_KEY = "seat-key-registered"


def _canonical_encoder() -> Callable[[Any], str]:
    """`json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)`, made once: the
    C encoder that JSONEncoder.iterencode makes for such a call, without the check for
    circular references (an entry is a tree). Without the C accelerator, the pure-Python
    encoder writes the same text."""
    options = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    if json.encoder.c_make_encoder is None:
        return options.encode
    encode = json.encoder.c_make_encoder(
        None, options.default, json.encoder.encode_basestring, None, ":", ",", True, False, True
    )
    return lambda entry: "".join(encode(entry, 0))


_encode_canonical = _canonical_encoder()


def canonical(value: Any) -> bytes:
    """Keys sorted, no whitespace, UTF-8: the bytes of an entry that are hashed and stored,
    and the form in which an audit compares what it rebuilt with what was stored.

    The text `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)` writes,
    written by orjson for less (an audit hashes every entry again; docs/benchmarks.md, 2026-12-06)
    for any value without a float. Floats are the one thing the two write differently (1e16, NaN),
    and no log holds one: the engine and the service never write one, and a replay document holding
    one is refused (`engine.audit.replay_rebuilt`). What orjson will not write (an integer past 64
    bits, a key that is not a string) json writes.
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return _encode_canonical(value).encode()


def chain_hash(previous: str, entry: Mapping[str, Any]) -> str:
    # An audit hashes every entry again: dict's own copy is cheaper than a comprehension's
    # (docs/benchmarks.md, 2026-12-06).
    body = dict(entry)
    body.pop("hash", None)
    return link(previous, canonical(body))


def link(previous: str, body: bytes) -> str:
    """The hash of an entry whose canonical bytes without its hash are `body`."""
    return hashlib.sha256(previous.encode() + body).hexdigest()


def chain(previous: str, entries: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """`entries` with their `hash` fields set, continuing the chain from `previous`."""
    out = []
    for entry in entries:
        entry = {**entry, "hash": chain_hash(previous, entry)}
        previous = entry["hash"]
        out.append(entry)
    return out


def broken_links(entries: Sequence[Mapping[str, Any]]) -> list[int]:
    """The seqs whose hash or numbering does not follow from the entries before them."""
    broken, previous = [], GENESIS
    for expected_seq, entry in enumerate(entries, start=1):
        if entry.get("seq") != expected_seq or entry.get("hash") != chain_hash(previous, entry):
            broken.append(expected_seq)
        previous = entry.get("hash", "")
    return broken


def seed_commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


def decks_commitment(decks: Sequence[Sequence[str]]) -> str | None:
    return hashlib.sha256(canonical({"decks": decks})).hexdigest() if decks else None


_FIRST = 1


class UnknownRules(Exception):
    """A log names rules this engine does not hold. Replaying it under others could change its
    verdicts, so it is not replayed at all."""

    code = "unknown-rules-version"

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


def rules(created: Mapping[str, Any]) -> Game:
    """The rules a game was played by: the version its `game-created` entry records (a game's
    stored meta, copied from that entry, names it the same way). A game recorded before versions
    were kept was played by the first version of its rules, and is read as naming it."""
    name = created.get("game")
    version = created.get("rules_version", f"{name}/{_FIRST}")
    game = RULES.get(version) if isinstance(version, str) else None
    if game is None or game.name != name:
        held = sorted(v for v, g in RULES.items() if g.name == name)
        raise UnknownRules(
            f"this {name} game was played under rules {version!r}, which this server does not"
            f" hold (it holds {', '.join(held) or 'no rules of that game'})"
        )
    return game


def created(
    game: Game,
    players: Sequence[str],
    options: Mapping[str, Any],
    seed: str,
    decks: Sequence[Sequence[str]],
    public_keys: Mapping[str, str] | None = None,
    recorded: bool = False,
    handles: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The body of a new game's first entry, under the game's current rules; `public_keys`
    the seats' keys given at creation (none: the field is left out, as before keys). A
    recorded game (`engine.recorded`) has no seed, so no commitments: it says `"deal":
    "recorded"` instead. `handles`, by seat, the players' stable handles of a rated game
    (`engine.events.ratings`; none: left out)."""
    body = {
        "type": CREATED,
        "game": game.name,
        "players": list(players),
        "options": dict(options),
        "rules_version": game.rules_version,
    }
    if recorded:
        body["deal"] = RECORDED
    else:
        body.update(seed_commitment=seed_commitment(seed), decks_commitment=decks_commitment(decks))
    if public_keys:
        body["public_keys"] = dict(public_keys)
    if handles:
        body["handles"] = list(handles)
    return body


def submission(seat: int | str, move: Any, conceded: bool = False,
               signed: tuple[int, str] | None = None) -> dict[str, Any]:
    """A submission's body: `seat` a seat, or "table" for a table action made for none;
    `conceded` for a move the service makes for a conceded seat (engine.table_actions);
    `signed` the expected version and signature of a keyed seat's move (engine.signatures)."""
    # Until it is accepted a move is its seat's own: a refused one may name a card in hand.
    body = {"type": SUBMITTED, "seat": seat, "move": move, "hidden": ["move"]}
    if conceded:
        body["conceded"] = True
    if signed is not None:
        # Hidden with the move: with the seat's public key, a signature tells which of a few
        # candidate moves it signs.
        body.update(expected_version=signed[0], signature=signed[1],
                    hidden=["move", "signature"])
    return body


def seat_key(seat: int, public_key: str) -> dict[str, Any]:
    """A seat's key registered after creation."""
    return {"type": SEAT_KEY, "seat": seat, "public_key": public_key}


def finished(seed: str, decks: Sequence[Sequence[str]]) -> dict[str, Any]:
    """The last entry: the seed and explicit decks revealed, once the last verdict is in. A
    recorded game has no seed (a seeded game's is never empty) and nothing to reveal."""
    if not seed:
        return {"type": FINISHED, "deal": RECORDED}
    return {"type": FINISHED, "seed": seed, "decks": [list(d) for d in decks]}


def table_of(
    created: Mapping[str, Any],
    seed: str,
    decks: Sequence[Sequence[str]],
    choices: Mapping[str, Sequence[Any]] | None = None,
) -> Table:
    return Table(
        seats=len(created["players"]),
        options=created["options"],
        seed=seed,
        decks=tuple(tuple(d) for d in decks),
        choices={label: tuple(chosen) for label, chosen in (choices or {}).items()},
        recorded=is_recorded(created),
    )


@frozen
class _Noting(Table):
    made: dict[str, list[Any]] = field(default_factory=dict)

    def shuffled(self, items: tuple[Any, ...], label: str) -> tuple[Any, ...]:
        chosen = super().shuffled(items, label)
        self.made[label] = list(chosen)
        return chosen


def choices_of(game: Game, table: Table) -> dict[str, list[Any]]:
    """What a game's deal draws from the seed besides the decks (a colour left out, the
    tiles of a board), by label: with the decks, enough to deal the game again without
    revealing the seed, which would tell the deals still to come."""
    noting = _Noting(table.seats, table.options, table.seed, table.decks)
    game.deal(noting)
    return noting.made


def verdict(game: Game, state: Any, submission: Mapping[str, Any], line: Line | None = None
            ) -> tuple[Any, dict[str, Any]]:
    """Judge one submission against `state`: the next state and the verdict entry's body.
    Without the fold's `line`, a takeback raises NeedsPast."""
    seat, seq = submission["seat"], submission["seq"]
    try:
        if game.is_over(state):
            raise MoveAfterEnd()
        outcome = game.judge(state, submission, line)
    except IllegalMove as broken:
        return state, {
            "type": REJECTED,
            "of": seq,
            "seat": seat,
            "code": broken.code,
            "detail": broken.detail,
            "hidden": ["code", "detail"],
        }
    effects = [fact.to_json() for fact in outcome.facts]
    accepted = {"type": ACCEPTED, "of": seq, "seat": seat, "move": submission["move"],
                "effects": effects}
    if submission.get("conceded"):
        accepted["conceded"] = True
    if game.is_secret(submission["move"]):
        accepted["hidden"] = ["move"]
    return outcome.state, accepted


class Step(NamedTuple):
    """One entry folded: the state right after it, the verdict it recomputed, if any, and the
    state its submissions lead to once every verdict is in (`pending`).

    A named tuple, not a frozen dataclass: a fold makes one per entry, and a tuple is cheaper
    to make (docs/benchmarks.md, 2026-12-06).
    """

    entry: Mapping[str, Any]
    state: Any
    recomputed: dict[str, Any] | None = None
    pending: Any = None


# A Step made by tuple's own constructor: a named tuple's __new__ is a Python function, called
# once per entry folded.
_step = functools.partial(tuple.__new__, Step)


def fold(game: Game, table: Table, entries: Iterable[Mapping[str, Any]],
         recompute: bool = True) -> Iterator[Step]:
    """Walk a log, judging every submission afresh and applying it when the log accepts it.

    A submission's verdict is recomputed when the submission is met; the state moves on only when
    the log's own verdict entry appears, so states line up with the log's numbering. The line of
    play (`engine.line`) is kept for the takebacks met. `game` must be the rules the log names (see
    `rules`). Without `recompute`, no verdict's body is made (their effects' JSON is a part of a
    rebuild worth skipping: docs/benchmarks.md, 2026-12-06). Entries appended to a list being folded
    are folded too, one `next` at a time.
    """
    state = pending = game.deal(table)
    line = Line(state)
    judged: dict[int, Any] = {}
    for entry in entries:
        kind, recomputed = entry["type"], None
        if kind == SUBMITTED:
            seq = entry["seq"]
            if recompute:
                pending, recomputed = verdict(game, pending, entry, line)
                accepted = recomputed["type"] == ACCEPTED
            else:
                pending, accepted = _judged(game, pending, entry, line)
            if accepted:
                line.accepted(seq)
            judged[seq] = pending
        elif kind == ACCEPTED:
            if entry["of"] in judged:
                state = judged.pop(entry["of"])
                line.verdict(entry["of"], entry["seq"], state)
        elif kind == REJECTED:
            judged.pop(entry["of"], None)
        elif kind == CREATED:
            if rules(entry).rules_version != game.rules_version:
                raise ValueError(f"a log of {entry['rules_version']} folded under"
                                 f" {game.rules_version}")
            if "at" in entry:
                state = pending = game.started(state, entry["at"])
                line = Line(state)
        yield _step((entry, state, recomputed, pending))


def state_at(game: Game, table: Table, entries: Iterable[Mapping[str, Any]]) -> Any:
    """The state right after the last of `entries`: the last state `fold` would yield."""
    state = None
    for step in fold(game, table, entries, recompute=False):
        state = step.state
    return game.deal(table) if state is None else state


def _judged(game: Game, state: Any, submission: Mapping[str, Any], line: Line) -> tuple[Any, bool]:
    """The state a submission leads to, and whether it is accepted: `verdict` without the
    verdict's body."""
    if game.is_over(state):
        return state, False
    try:
        return game.judge(state, submission, line).state, True
    except IllegalMove:
        return state, False


def folded(entries: Sequence[Mapping[str, Any]], seed: str, decks: Sequence[Sequence[str]]
           ) -> Any:
    """The state a whole log folds to, under the rules it names, encoded (`Game.encode`) as a
    projection holds it: what a reader folds of a compacted game whose record keeps no state."""
    created = entries[0]
    game = rules(created)
    return game.encode(state_at(game, table_of(created, seed, decks), entries))
