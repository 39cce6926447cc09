"""What the events API does (docs/events.md), as plain functions the views in
`service/events.py` call one at a time, as `service.handlers` does for games.

An event's log is appended only while it stands where the request read it (`expected_version`):
what an entry says (a round's seating, a result) was decided from the log as it stood. Results
are recorded as they are found: whenever an event is read or acted on, every game of it that
ended since is written to its log (`result-recorded`), and once every round is seated and every
result in, the seed is revealed (`event-finished`).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from flask import Response

from engine import log
from engine.events import entries as kinds
from engine.events.evidence import FORMAT, MalformedExport, verify_event
from engine.events.ratings import rated
from engine.events.seating import seat_round
from engine.events.standings import standings
from engine.game import SPECTATOR, BadPlayerCount, BadSetup
from engine.games import GAMES
from engine.recorded import RECORDED, SEEDED, is_recorded
from service import handlers, imports, streams
from service.audience import Audiences
from service.auth import Caller, CallersGame, bearer, callers_game
from service.problems import Problem
from service.signing import Keyring
from service.streams import Form
from store import Store, keys
from store.events import ORGANISER
from store.locks import Locked
from store.log import AppendResult, now

# What `handlers.new_id` hands out: braces would break the hash tag.
_EVENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
# Tries of catching results up while other requests append to the event meanwhile.
_TRIES = 20


def create_event(store: Store, signer: Keyring, body: dict[str, Any]) -> dict[str, Any]:
    """A new event, checked whole before anything is written."""
    title = GAMES.get(body["game"])
    if title is None:
        raise Problem(400, "unknown-title", f"there is no title {body['game']!r}; the titles"
                      f" are {', '.join(sorted(GAMES))}")
    fewest, most = title.spec.seats
    size, players, points = body["table_size"], body["players"], body["points"]
    if not fewest <= size <= most:
        raise Problem(400, "bad-table-size", f"{title.name} seats {fewest} to {most} at a"
                      f" table, not {size}")
    if len(set(players)) != len(players):
        raise Problem(400, "duplicate-player", "each player is named once at an event")
    if len(players) < fewest:
        raise Problem(400, "too-few-players", f"a {title.name} table takes at least {fewest}"
                      f" players; the event has {len(players)}")
    if len(points) != size:
        raise Problem(400, "bad-points", f"the points table gives one value per place of a"
                      f" table of {size}: {size} values, not {len(points)}")
    if any(a < b for a, b in zip(points, points[1:], strict=False)):
        raise Problem(400, "bad-points", "a place never scores more than the place before it")
    for seats in range(fewest, size + 1):  # a round may seat any of these (table_sizes)
        try:
            title.options(seats, body["options"])
        except (BadPlayerCount, BadSetup) as bad:
            raise Problem(400, "bad-options", f"at a table of {seats}: {bad}") from None
    recorded = handlers.takes_recorded(title, body)
    seed = body.get("seed") or secrets.token_hex(32)
    created = {**kinds.created(body["name"], title.name, title.rules_version, players,
                               body["rounds"], body["format"], size, points, body["options"],
                               seed, recorded), "at": now()}
    event_id, token = handlers.new_id(), secrets.token_urlsafe(24)
    entry = store.events.create(event_id, created, seed, token)
    return {"id": event_id, **_described(entry), "organiser_token": token, "version": 1,
            "receipt": signer.receipt(event_id, 1, entry["hash"])}


def _described(created: dict[str, Any]) -> dict[str, Any]:
    return {**{k: created[k] for k in ("name", "game", "players", "rounds", "format",
                                       "table_size", "points", "options", "seed_commitment")},
            "deal": created.get("deal", SEEDED)}


def organiser(store: Store, event_id: str, authorization: str) -> None:
    """Only the organiser's token acts for an event."""
    token = bearer(authorization)
    if token is None:
        raise Problem(401, "token-required", "only the event's organiser_token may do this")
    if store.events.role(event_id, token) != ORGANISER:
        raise Problem(401, "bad-token", "this token is not the organiser's of this event")


def current(store: Store, signer: Keyring, event_id: str) -> list[dict[str, Any]]:
    """The event's log, every game that ended since recorded in it first (module docstring)."""
    for _ in range(_TRIES):
        entries = store.events.entries(event_id)
        if not entries:
            raise Problem(404, "event-not-found", f"there is no event {event_id!r}")
        recorded = _results(store, signer, entries)
        if kinds.is_complete(entries + recorded) and not kinds.of_type(entries, kinds.FINISHED):
            recorded.append(kinds.finished(store.events.seed(event_id)))
        if not recorded:
            return entries
        appended = store.events.append(event_id, recorded, len(entries))
        if appended.outcome not in (AppendResult.OK, AppendResult.CONFLICT):
            raise RuntimeError(f"event {event_id}: recording results came to {appended}")
    raise Problem(503, "event-busy", "the event kept changing while its results were recorded;"
                  " ask again")


def _results(store: Store, signer: Keyring, entries: list[dict[str, Any]]
             ) -> list[dict[str, Any]]:
    """The `result-recorded` entries of the games that ended and are not recorded yet."""
    found = [_ended(store, signer, g["game"], g["round"], g["table"])
             for g in kinds.games_of(entries) if g["result"] is None]
    return [result for result in found if result is not None]


def _ended(store: Store, signer: Keyring, game_id: str, round_: int, table: int
           ) -> dict[str, Any] | None:
    """A game's result once its log ends with `game-finished` (None before): its final
    score's totals and ranks, citing that entry and the server's signed head."""
    head = store.log.head(game_id)
    last = store.log.entries(game_id, after=head[0] - 1) if head else []
    if not last or last[-1]["type"] != log.FINISHED:
        return None
    status = store.projections.position(game_id).status
    score = handlers.final_score(store, callers_game(store, game_id, ""))
    return kinds.result(round_, table, game_id, score, str(status), head,
                        signer.receipt(game_id, *head), last[-1]["at"])


def show(store: Store, signer: Keyring, event_id: str) -> dict[str, Any]:
    entries = current(store, signer, event_id)
    games = {g["game"]: g for g in kinds.games_of(entries)}
    revealed = kinds.of_type(entries, kinds.FINISHED)
    seated = [
        {"round": s["round"], "byes": s["byes"], "tables": [
            {"table": t["table"], "game": t["game"], "players": t["players"],
             "status": _status(games[t["game"]]["result"]),
             "result": _brief(games[t["game"]]["result"])}
            for t in s["tables"]]}
        for s in kinds.of_type(entries, kinds.SEATED)]
    last = entries[-1]
    return {
        "id": event_id, **_described(entries[0]),
        "status": "finished" if revealed else "seating",
        "seated": seated,
        "withdrawn": [{"player": e["player"], "after_round": e["after_round"]}
                      for e in kinds.of_type(entries, kinds.WITHDRAWN)],
        "seed": revealed[-1]["seed"] if revealed else None,
        "version": last["seq"],
        "head": signer.receipt(event_id, last["seq"], last["hash"]),
    }


def _status(result: dict[str, Any] | None) -> str:
    return "in-progress" if result is None else result["status"]


def _brief(result: dict[str, Any] | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {k: result[k] for k in ("totals", "ranks", "final", "seq")}


@contextmanager
def _alone(store: Store, event_id: str) -> Iterator[None]:
    """The event changed by this request alone (`store.events.changing`); 409
    `version-conflict` when another change holds it past the wait, nothing done."""
    with ExitStack() as held:
        try:
            held.enter_context(store.events.changing(event_id))
        except Locked:
            raise Problem(409, "version-conflict", "another request is changing the event"
                          " (seating a round or withdrawing a player): nothing was done; ask"
                          " again") from None
        yield


def seat_next_round(store: Store, signer: Keyring, event_id: str) -> dict[str, Any]:
    """Seat the next round: each table an ordinary game, created as `POST /v1/games` creates
    one, dealt from the seed the event's draws for it; the event changed by no other request
    meanwhile, so that the games created are the round's."""
    with _alone(store, event_id):
        return _seated(store, signer, event_id)


def _seated(store: Store, signer: Keyring, event_id: str) -> dict[str, Any]:
    entries = current(store, signer, event_id)
    created = entries[0]
    round_ = kinds.rounds_seated(entries) + 1
    if round_ > created["rounds"]:
        raise Problem(409, "event-complete", f"all {created['rounds']} rounds are seated")
    playing = [g["game"] for g in kinds.games_of(entries) if g["result"] is None]
    if playing:
        raise Problem(409, "round-in-progress", f"{len(playing)} game(s) of round"
                      f" {round_ - 1} are still in progress: {', '.join(playing)}",
                      games=playing)
    seed = store.events.seed(event_id)
    tables, byes = seat_round(entries, round_, seed)
    if not tables:
        raise Problem(409, "too-few-players", "too few players are left to seat a table")
    made = [
        handlers.create_game(store, signer, {
            "game": created["game"], "players": players, "options": created["options"],
            **({"deal": RECORDED} if is_recorded(created)
               else {"seed": kinds.game_seed(seed, round_, n)})})
        for n, players in enumerate(tables, start=1)]
    seated = kinds.seated(round_, [
        {"table": n, "game": g["id"], "players": g["players"],
         "seed_commitment": g["seed_commitment"]} for n, g in enumerate(made, start=1)], byes)
    appended = store.events.append(event_id, [seated], entries[-1]["seq"])
    if appended.outcome != AppendResult.OK:
        raise Problem(409, "version-conflict", "the event changed while this round was seated"
                      " (another request seated or withdrew meanwhile): nothing was seated;"
                      " ask again")
    head = store.events.head(event_id)
    return {
        "round": round_, "byes": byes,
        "tables": [_handed(n, g) for n, g in enumerate(made, start=1)],
        "version": appended.version,
        "receipt": signer.receipt(event_id, *head),
    }


def _handed(number: int, game: dict[str, Any]) -> dict[str, Any]:
    """What the organiser hands a table: its game, seats and tokens, and their links."""
    game_id = game["id"]
    return {
        "table": number, "id": game_id, "players": game["players"],
        "seats": [{**s, "link": f"/games/{game_id}#seat={s['token']}"} for s in game["seats"]],
        "table_token": game["table_token"],
        "links": {"game": f"/v1/games/{game_id}",
                  "table": f"/games/{game_id}#table={game['table_token']}"},
        "seed_commitment": game["seed_commitment"],
    }


def withdraw(store: Store, signer: Keyring, event_id: str, player: str) -> dict[str, Any]:
    with _alone(store, event_id):
        return _withdrawn(store, signer, event_id, player)


def _withdrawn(store: Store, signer: Keyring, event_id: str, player: str) -> dict[str, Any]:
    entries = current(store, signer, event_id)
    if player not in entries[0]["players"]:
        raise Problem(404, "no-such-player", f"{player!r} does not play in this event")
    if kinds.of_type(entries, kinds.FINISHED):
        raise Problem(409, "event-complete", "the event has ended: nobody withdraws from it")
    if player in kinds.withdrawn_players(entries):
        raise Problem(409, "player-withdrawn", f"{player} withdrew already")
    after = kinds.rounds_seated(entries)
    appended = store.events.append(event_id, [kinds.withdrawn(player, after)],
                                   entries[-1]["seq"])
    if appended.outcome != AppendResult.OK:
        raise Problem(409, "version-conflict", "the event changed meanwhile: ask again")
    head = store.events.head(event_id)
    return {"player": player, "after_round": after, "version": appended.version,
            "receipt": signer.receipt(event_id, *head)}


def ranked(store: Store, signer: Keyring, event_id: str, after_round: int | None
           ) -> dict[str, Any]:
    entries = current(store, signer, event_id)
    seated = kinds.rounds_seated(entries)
    if after_round is not None and after_round > seated:
        raise Problem(404, "no-such-round", f"{seated} round(s) are seated, not {after_round}")
    return {"standings": standings(entries, after_round),
            "after_round": seated if after_round is None else after_round,
            "version": entries[-1]["seq"]}


def export(store: Store, signer: Keyring, event_id: str) -> dict[str, Any]:
    """The event's log, every game's replay (as `GET /v1/games/{id}/replay` gives it to a
    spectator) and its standings: what `tablelog verify-event` checks."""
    entries = current(store, signer, event_id)
    games = {g["game"]: handlers.replay_document(store, signer, callers_game(store, g["game"], ""))
             for g in kinds.games_of(entries)}
    last = entries[-1]
    return {"format": FORMAT, "id": event_id, "entries": entries,
            "head": signer.receipt(event_id, last["seq"], last["hash"]),
            "games": games, "standings": standings(entries)}


def verify(document: dict[str, Any], keys: list[dict[str, Any]] | None) -> dict[str, Any]:
    try:
        return verify_event(document, keys)
    except MalformedExport as bad:
        raise Problem(400, "malformed-export", str(bad)) from None



def player(store: Store, signer: Keyring, handle: str) -> dict[str, Any]:
    """A handle's events, games and ratings per title with their history: every event's
    results and every rated game's, rated in the order the games ended
    (`engine.events.ratings`). Recomputed from the logs on each request."""
    results, events = [], []
    for event_id in store.events.ids():
        if store.events.head(event_id) is None:
            continue  # listed, but its creation failed before its log was written
        entries = current(store, signer, event_id)
        created = entries[0]
        results += [(event_id, created["game"], r) for r in kinds.of_type(entries, kinds.RESULT)]
        if handle in created["players"]:
            events.append({"id": event_id, "name": created["name"], "game": created["game"],
                           "status": "finished" if kinds.of_type(entries, kinds.FINISHED)
                           else "seating"})
    results += _casual(store, signer)
    if not events and not any(handle in r["players"] for _, _, r in results):
        raise Problem(404, "no-such-player", f"no event or rated game has a player {handle!r}")
    found = rated(results).get(handle, {"ratings": {}, "history": []})
    games = [{"event": e, "game": r["game"], "title": title, "round": r["round"],
              "status": r["status"], "rank": r["ranks"][r["players"].index(handle)],
              "of": len(r["players"]), "ended_at": r["ended_at"]}
             for e, title, r in results if handle in r["players"]]
    return {"handle": handle, "events": events, "games": games, **found}


def import_event(store: Store, event_id: str, document: dict[str, Any]
                 ) -> tuple[int, dict[str, Any]]:
    """Store an ended event exported from another server, its games first (each imported as
    `PUT /v1/games/{id}/replay` imports one), once the whole export verifies; 201, or 200
    when it is here already."""
    if not _EVENT_ID.fullmatch(event_id):
        raise Problem(400, "bad-event-id", "an event id is 1 to 64 letters, digits, '-' or '_'")
    if document.get("id") != event_id:
        raise Problem(400, "id-mismatch", f"this is the export of event {document.get('id')!r},"
                      f" not {event_id!r}")
    report = verify(document, None)  # the other server's keys are not known here
    entries = document["entries"]
    revealed = kinds.of_type(entries, kinds.FINISHED)
    if not revealed:
        raise Problem(422, "event-not-finished", "only an ended event is imported: its log must"
                      " end with event-finished, which reveals its seed")
    if not report["ok"]:
        raise Problem(422, "event-not-verified", "the export does not verify; nothing was"
                      " imported", difference=report["difference"])
    head = store.events.head(event_id)
    ours = (entries[-1]["seq"], entries[-1]["hash"])
    if head is not None and head != ours:
        raise Problem(409, "event-exists", f"event {event_id} is another event here")
    for game_id, replay in sorted(document["games"].items()):
        imports.import_game(store, game_id, replay)
    written = head is None and store.events.load(event_id, entries, revealed[-1]["seed"])
    return (201 if written else 200), {"id": event_id, "version": ours[0], "hash": ours[1],
                                       "games": len(document["games"]), "imported": written}


def follow(store: Store, signer: Keyring, audiences: Audiences, event_id: str, after: int,
           lifetime_s: float, environ: dict[str, Any], form: Form) -> Response:
    """The event's log followed as it is written, as a game's is (`service.streams`): its
    rounds seated, its players withdrawn and the results of its games. A game's result is
    recorded by the first read of the event after the game ended; a follower waiting reads it
    at each heartbeat, so a result reaches it within one (`HEARTBEAT_S`)."""
    entries = current(store, signer, event_id)
    ended = bool(kinds.of_type(entries, kinds.FINISHED))
    seen = CallersGame(keys.event_log(event_id), {}, GAMES[entries[0]["game"]], Caller(SPECTATOR),
                ended)
    return streams.follow(store, audiences, seen, after, lifetime_s, environ, form,
                          idle=lambda: current(store, signer, event_id))


def log_of(store: Store, signer: Keyring, event_id: str, after: int) -> list[dict[str, Any]]:
    """The event's log entries after `after`, every ended game's result recorded first."""
    return [e for e in current(store, signer, event_id) if e["seq"] > after]


def _casual(store: Store, signer: Keyring) -> list[tuple[None, str, dict[str, Any]]]:
    """Every rated game outside events that ended, as a result naming its seats' handles."""
    found = []
    for game_id in store.games.rated_ids():
        created = store.log.entries(game_id, upto=1)[0]
        result = _ended(store, signer, game_id, 0, 0)
        if result is not None:
            found.append((None, created["game"], {**result, "players": created["handles"]}))
    return found
