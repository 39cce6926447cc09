"""Checking an event's export offline: its log, every game in it, its seating, its standings.

An export (`tablelog-event/1`) holds the event's log (`entries`), the server's receipt for its
last entry (`head`), every game's replay document by id (`games`) and the standings the server
gave (`standings`). `verify_event` checks, in this order, and names the first thing that
differs:

1. the event's hash chain, and with the server's keys its `head`;
2. every game of every round, in order: its replay is there, is one of the seated players in
   seat order (in the document and its `game-created` entry) with the seed commitment the
   seating gave it, and re-judges clean (`engine.audit.verify_replay`, the game's own head
   checked with the keys); its recorded result is the replay's final score (its players,
   totals and ranks), ended at the entry and hash it cites;
3. once the seed is revealed (`event-finished`): the seed matches its commitment, and every
   round seats again exactly as it was seated (`engine.events.seating`), each game's seed
   commitment that of the seed drawn for it;
4. the standings: recomputed from the log, they equal the ones exported.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine import signatures
from engine.audit import MalformedReplay, verify_replay
from engine.events import entries as kinds
from engine.events.seating import seat_round
from engine.events.standings import standings
from engine.log import broken_links, seed_commitment

FORMAT = "tablelog-event/1"


class MalformedExport(ValueError):
    """A document that cannot be read as an event's export."""


def verify_event(document: Mapping[str, Any], keys: Sequence[Mapping[str, Any]] | None = None
                 ) -> dict[str, Any]:
    """The report `{"ok", "difference", "games", "seating_checked"}`: `difference` the first
    thing found to differ (None when nothing does), `games` each game's audit verdict."""
    if document.get("format") != FORMAT:
        raise MalformedExport(f"its format is {document.get('format')!r}, not {FORMAT!r}")
    entries = document.get("entries")
    if not isinstance(entries, list) or not entries or not isinstance(entries[0], Mapping) \
            or entries[0].get("type") != kinds.CREATED:
        raise MalformedExport("it has no event log starting with event-created")
    checked: dict[str, bool] = {}
    try:
        difference = (_chain(document, entries, keys)
                      or _games(document, entries, keys, checked)
                      or _seating(entries)
                      or _standings(document, entries))
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as broken:
        raise MalformedExport(f"the export cannot be read: {broken!r}") from None
    return {"ok": difference is None, "difference": difference, "games": checked,
            "seating_checked": bool(kinds.of_type(entries, kinds.FINISHED))}


def _differs(what: str, detail: str, **where: Any) -> dict[str, Any]:
    return {"what": what, **where, "detail": detail}


def _chain(document: Mapping[str, Any], entries: list[Any],
           keys: Sequence[Mapping[str, Any]] | None) -> dict[str, Any] | None:
    broken = broken_links(entries)
    if broken:
        return _differs("event-log", "the entry's hash does not follow from the entries"
                        " before it", entry=broken[0])
    if keys is not None and document.get("head") is not None:
        found = signatures.head_mismatches(document["head"], entries, str(document.get("id")),
                                           keys)
        if found:
            return _differs("event-head", found[0].get("what", "the head does not verify"),
                            entry=found[0].get("seq"))
    return None


def _games(document: Mapping[str, Any], entries: list[Any],
           keys: Sequence[Mapping[str, Any]] | None, checked: dict[str, bool]
           ) -> dict[str, Any] | None:
    replays = document.get("games") or {}
    seated = {t["game"]: t for s in kinds.of_type(entries, kinds.SEATED) for t in s["tables"]}
    for game in kinds.games_of(entries):
        game_id = game["game"]
        replay = replays.get(game_id)
        if not isinstance(replay, Mapping):
            return _differs("game-missing", "the export holds no replay of this game",
                            game=game_id)
        entries = replay.get("entries") or [{}]
        if list(replay.get("players") or ()) != game["players"] or \
                entries[0].get("players") != game["players"] or \
                replay.get("seed_commitment") != seated[game_id]["seed_commitment"]:
            return _differs("game-seating", "the replay's players or seed commitment are not"
                            " those its round seated", game=game_id)
        try:
            report = verify_replay(replay, keys)
        except MalformedReplay as bad:
            return _differs("game", str(bad), game=game_id)
        checked[game_id] = bool(report["ok"])
        if not report["ok"]:
            first = report["mismatches"][0] if report["mismatches"] else {}
            return _differs("game", first.get("detail") or first.get("what", "it does not"
                            " re-judge as recorded"), game=game_id, entry=first.get("seq"))
        if game["result"] is not None and (found := _result(game["result"], replay)):
            return _differs("result", found, game=game_id, entry=game["result"]["seq"])
    return None


def _result(result: Mapping[str, Any], replay: Mapping[str, Any]) -> str | None:
    """How a recorded result differs from its game's replay, or None."""
    last = replay["entries"][-1]
    if (result["final"]["seq"], result["final"]["hash"]) != (last["seq"], last["hash"]):
        return "the result cites an entry that is not the game's last"
    if (replay.get("status") or kinds.FINISHED_GAME) != result["status"]:
        return f"the game is {replay.get('status')}, the result says {result['status']}"
    players = sorted(replay["score"]["players"], key=lambda p: p["seat"])
    if [p.get("name") for p in players] != result["players"]:
        return "the result's players are not the game's seats"
    if [p["total"] for p in players] != result["totals"]:
        return "the result's totals are not the game's final score"
    if [p["rank"] for p in players] != result["ranks"]:
        return "the result's ranks are not the game's final ranking"
    return None


def _seating(entries: list[Any]) -> dict[str, Any] | None:
    revealed = kinds.of_type(entries, kinds.FINISHED)
    if not revealed:
        return None  # the seed is not revealed yet: the seating cannot be drawn again
    seed = revealed[-1]["seed"]
    if seed_commitment(seed) != entries[0]["seed_commitment"]:
        return _differs("seed", "the revealed seed does not match its commitment",
                        entry=revealed[-1]["seq"])
    for index, entry in enumerate(entries):
        if entry["type"] != kinds.SEATED:
            continue
        tables, byes = seat_round(entries[:index], entry["round"], seed)
        redrawn = [
            {"table": n, "players": players,
             "seed_commitment": kinds.table_commitment(entries[0], seed, entry["round"], n)}
            for n, players in enumerate(tables, start=1)]
        recorded = [{k: t[k] for k in ("table", "players", "seed_commitment")}
                    for t in entry["tables"]]
        if redrawn != recorded or byes != entry["byes"]:
            return _differs("seating", f"round {entry['round']} does not seat again as it was"
                            " seated", round=entry["round"], entry=entry["seq"])
    return None


def _standings(document: Mapping[str, Any], entries: list[Any]) -> dict[str, Any] | None:
    given = document.get("standings")
    if given is None:
        return None
    recomputed = standings(entries)
    for mine, theirs in zip(recomputed, given, strict=False):
        for field in ("player", "rank", "points", "tie_breaks", "games"):
            if mine.get(field) != theirs.get(field):
                return _differs("standings", f"the standings' {field} of"
                                f" {theirs.get('player')!r} differ from the log's",
                                player=mine["player"], field=field)
    if len(recomputed) != len(given):
        return _differs("standings", "the standings list another number of players")
    return None
