"""Importing a finished game played on another server: verified in full, stored as it was.

A club moving its history (or restoring a backup) hands in each game's replay document, as
`GET /v1/games/{id}/replay` serves it once the game is finished. The game is stored under its
id with its entries and hashes unchanged only if it verifies as an audit would: the hash chain
holds, the seed matches its commitment, every verdict and the final score are what the
installed rules give. Importing is idempotent: when the id is taken, only the hash chain is
checked (cheap) and, since it holds, the same last hash means the same game: nothing is judged
or written again (an interrupted import resumes at that cost); another game there is a conflict.
A replay is imported under the id it names, and must name one. The same game is never stored
under two ids: a game is told by the hash of its `game-created` entry (its players, options,
seed commitment, rules and creation time), which every game created or imported here takes
its id with (`store.games.Games.take_id`); importing it under another id is a conflict naming the
id that holds it.
"""

from __future__ import annotations

import contextlib
import re
from datetime import datetime
from typing import Any

from engine import log
from engine.audit import replay_secret
from engine.recorded import is_recorded
from service import handlers
from service.problems import Problem
from store import Store
from store.connection import FULL, UNREACHABLE
from store.projections import Projection

# What `POST /v1/games` hands out (secrets.token_urlsafe): braces would break the hash tag.
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def import_game(store: Store, game_id: str, document: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """201 and the game stored, or 200 when it was already there; else a Problem."""
    created = _created(game_id, document)
    entries = document["entries"]
    ours = (len(entries), entries[-1]["hash"])
    head = store.log.head(game_id)
    if head is not None:
        broken = log.broken_links(entries)
        if broken:
            raise _unverified([{"seq": broken[0], "what": "hash"}])
        _same_game(game_id, head, ours)
        store.games.list_finished(game_id, created)
        store.games.take_id(entries[0]["hash"], game_id)  # for a game stored before ids were taken
        return 200, _imported(game_id, created, ours, written=False)
    game, final = _verified(document, created)
    _take_id(store, game_id, entries[0]["hash"])
    seed, decks, _ = replay_secret(document)
    submissions = [e["seq"] for e in entries if e["type"] == log.SUBMITTED]
    projection = Projection.of(game, final, max(submissions, default=0))
    loaded = store.games.load(game_id, entries, {"seed": seed or "", "decks": decks},
                              projection)
    _same_game(game_id, (loaded.version, loaded.hash), ours)
    handlers.require_replicated(store, game_id)
    if loaded.written:
        # An ended game: kept as one record a while later (`store.compacted`); should Redis
        # refuse, the game stays live, whole, until the sweep of ended games.
        with contextlib.suppress(*UNREACHABLE, FULL):
            store.compacted.ended(game_id)
    return (201 if loaded.written else 200), _imported(game_id, created, ours, loaded.written)


def _created(game_id: str, document: dict[str, Any]) -> dict[str, Any]:
    """The `game-created` entry, which the stored game's meta is read from."""
    if not _GAME_ID.fullmatch(game_id):
        raise Problem(400, "bad-game-id", "a game id is 1 to 64 letters, digits, '-' or '_'")
    if document.get("id") is None:
        raise Problem(400, "import-needs-id", "a replay is imported under the id it names"
                      f" (`id`): this one names none; give it {game_id!r} to import it here")
    if document["id"] != game_id:
        raise Problem(
            400, "id-mismatch", f"this is the replay of game {document['id']!r}, not {game_id!r}"
        )
    created = document["entries"][0]
    try:
        datetime.fromisoformat(created["at"])
        if created["type"] != log.CREATED or created["game"] != document["game"]:
            raise ValueError(created["type"])
    except (KeyError, TypeError, ValueError):
        raise Problem(
            400,
            "malformed-replay",
            f"entry 1 must be the game-created entry of this {document['game']} game, with the"
            " time it was created (`at`)",
        ) from None
    return created


def _same_game(game_id: str, head: tuple[int, str], ours: tuple[int, str]) -> None:
    """The hash chain holds, so equal last hashes mean equal logs."""
    if head != ours:
        raise Problem(
            409,
            "game-exists",
            f"game {game_id} is already another game here (its log has {head[0]} entries and"
            f" ends with hash {head[1][:12]}…, this one {ours[0]} ending {ours[1][:12]}…)",
        )


def _take_id(store: Store, game_id: str, created: str) -> None:
    """Take `game_id` for the game whose first entry's hash is `created`: a 409 when another
    id holds it here, or is being imported with it. An id that holds another game (its import
    found the id taken) holds it stale, and is taken over."""
    holder = store.games.take_id(created, game_id)
    if holder != game_id and _holds_another(store, holder, created):
        holder = store.games.take_id(created, game_id, stale=holder)
    if holder != game_id:
        raise Problem(
            409,
            "game-copied",
            f"this game is here already as game {holder} (the same game-created entry): it is"
            " not stored twice",
            existing=holder,
        )


def _holds_another(store: Store, game_id: str, created: str) -> bool:
    first = store.log.entries(game_id, upto=1)
    return bool(first) and first[0]["hash"] != created


def _verified(document: dict[str, Any], created: dict[str, Any]) -> tuple[Any, Any]:
    """The rules the game was played by and its final state, once it verifies in full."""
    entries = document["entries"]
    seedless = document.get("seed") is None and not is_recorded(created)
    if seedless or entries[-1]["type"] != log.FINISHED:
        raise Problem(
            422,
            "game-not-finished",
            "only a finished game can be imported: its replay must reveal the seed and end with"
            " the game-finished entry",
        )
    report, final = handlers.audited(document)
    if not report["ok"]:
        raise _unverified(report["mismatches"])
    game = log.rules(created)
    if not game.is_over(final):
        raise _unverified([{"seq": len(entries), "what": "the game is not over by the rules"}])
    return game, final


def _unverified(mismatches: list[dict[str, Any]]) -> Problem:
    first = min(mismatches, key=lambda m: m["seq"])
    return Problem(
        422,
        "replay-not-verified",
        f"entry {first['seq']} does not verify: {_said(first)}; nothing was imported",
        seq=first["seq"],
        mismatches=mismatches,
    )


def _said(mismatch: dict[str, Any]) -> str:
    if mismatch["what"] == "hash":
        return "its hash or number does not follow from the entries before it"
    if mismatch["what"] == "verdict":
        return f"the rules give another verdict on submission {mismatch['of']}"
    if mismatch["what"] == "stored score":
        return "the document's score is not the one the rules give"
    return mismatch["what"]


def _imported(
    game_id: str, created: dict[str, Any], head: tuple[int, str], written: bool
) -> dict[str, Any]:
    return {
        "id": game_id,
        "game": created["game"],
        "version": head[0],
        "hash": head[1],
        "imported": written,
    }
