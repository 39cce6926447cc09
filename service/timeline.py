"""The table at every step of a range of the log, in one answer, for clients that step through it.

A viewer stepping through a game would otherwise ask for `state?at=N` once per step, and the
server would replay the log once per step. Here the log is replayed once and the caller's view
is taken at each step. The state only changes when a move is accepted, so a range lists the
state right after its first entry and right after each acceptance in it: the state right after
any entry N is that of the last listed step at or before N.

Scores are listed only on request and over short ranges: a breakdown with its provenance is far
larger and slower than a view (docs/benchmarks.md, 2026-12-06, figures moved out of the code).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from engine import log
from engine.audit import replay_secret
from engine.game import TABLE, Game, Table, Viewer
from engine.recorded import is_recorded
from engine.scoring import explained
from schemas.api import MOST_SCORED_STEPS
from service.auth import CallersGame
from service.problems import Problem
from store import Store
from store.stored import Status


def stored(store: Store, seen: CallersGame, query: Mapping[str, Any]) -> bytes:
    """The caller's view at every step of a stored game's range (the views of `state?at=N`).

    A finished game's whole range is the same for everyone and never changes: it is kept for
    the next viewers instead of being replayed again.
    """
    whole = seen.finished and query["first"] == 1 and not query.get("last") and not query["score"]
    if whole and (kept := store.projections.steps(seen.id)) is not None:
        return kept
    version = seen.meta["version"]
    first, last = _range(query, version)
    entries = store.log.entries(seen.id, upto=last)
    seed, decks = store.games.secret(seen.id)
    table = log.table_of(seen.meta, seed, decks)
    found = steps(seen.game, table, seen.meta["players"], entries, seen.viewer, first, query)
    answer = orjson.dumps({"version": version, "from": first, "to": last, "steps": found})
    if whole:
        store.projections.keep_steps(seen.id, answer)
    return answer


def uploaded(document: Mapping[str, Any], query: Mapping[str, Any]) -> dict[str, Any]:
    """The same for an uploaded replay document, rebuilt with no stored game.

    A replay that reveals neither its seed nor its deal (one downloaded by a seat or a
    spectator while the game ran) cannot be dealt again: only its log can be read.
    """
    entries = document["entries"]
    seed, decks, choices = replay_secret(document)
    # A recorded game was dealt by nobody: its entries name every card it needs.
    recorded = isinstance(entries[0], dict) and is_recorded(entries[0])
    if seed is None and not decks and not recorded:
        raise Problem(
            422,
            "replay-not-rebuildable",
            "this replay reveals neither its seed nor its deal (it was downloaded while the game"
            " ran, by someone who may not see the deck): only its log can be read",
        )
    created = entries[0]
    if created.get("type") != log.CREATED:
        raise Problem(400, "malformed-replay", "entry 1 is not the game-created entry of a game")
    game = log.rules(created)
    first, last = _range(query, len(entries))
    try:
        table = log.table_of(created, seed or "", decks, choices)
        found = steps(game, table, created["players"], entries[:last], TABLE, first, query)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as broken:
        raise Problem(
            400, "malformed-replay", f"the replay cannot be replayed: {broken!r}"
        ) from None
    return {"version": len(entries), "from": first, "to": last, "steps": found}


def steps(
    game: Game,
    table: Table,
    players: Sequence[str],
    entries: Sequence[Mapping[str, Any]],
    viewer: Viewer,
    first: int,
    query: Mapping[str, Any],
) -> list[dict[str, Any]]:
    scored = query["score"]
    found = []
    for step in log.fold(game, table, entries):
        seq = step.entry["seq"]
        if seq == first or (seq > first and step.entry["type"] == log.ACCEPTED):
            found.append(_step(game, step.state, seq, viewer, players, scored))
    return found


def _step(
    game: Game, state: Any, seq: int, viewer: Viewer, players: Sequence[str], scored: bool
) -> dict[str, Any]:
    step = {
        "at": seq,
        "status": Status.of(game, state),
        "round": game.round(state),
        "to_act": list(game.to_act(state)),
        "state": game.view(state, viewer),
    }
    if scored:
        step["score"] = explained(game.score(state).to_json(list(players)), game.spec)
    return step


def _range(query: Mapping[str, Any], version: int) -> tuple[int, int]:
    first, last = query["first"], query.get("last") or version
    if last > version:
        raise Problem(404, "no-such-version", f"the log has {version} entries, not {last}")
    if first > last:
        raise Problem(400, "bad-range", f"`from` ({first}) is past `to` ({last})")
    if query["score"] and last - first >= MOST_SCORED_STEPS:
        raise Problem(
            400,
            "range-too-long",
            f"scores are listed for at most {MOST_SCORED_STEPS} entries at a time;"
            f" ask for `from`..`to` in pieces or without `score`",
        )
    return first, last
