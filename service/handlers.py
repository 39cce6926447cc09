"""What the API does, as plain functions the thin views in `service/` call one at a time.

Each takes the store, the game as the caller sees it (`CallersGame`) and loaded input, and
returns an answer body (or raises a Problem). Nothing here knows Flask beyond the Problem it raises.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import time
from collections import Counter
from typing import Any, NoReturn

import orjson

from engine import log, signatures
from engine.audit import MalformedReplay, replay_rebuilt
from engine.game import (
    TABLE,
    BadPlayerCount,
    BadSetup,
    Game,
    IllegalMove,
    MoveAfterEnd,
    Table,
    Viewer,
)
from engine.games import GAMES
from engine.recorded import MISNAMED, RECORDED, SEEDED
from engine.scoring import explained
from engine.signatures import BadKey
from engine.table_actions import FOR_NONE
from engine.visibility import redact
from schemas import api, loader, remembered
from schemas.moves import MOVES
from service.auth import CallersGame, RememberedGames
from service.problems import Problem
from service.signing import Keyring
from store import Store
from store.audits import AuditStatus
from store.connection import UNREACHABLE
from store.hub import Waiter
from store.log import Appended, AppendResult, VerdictRead, Writing, now, verdict_on
from store.projections import Projection, score_json
from store.stored import Status, state_json
from workers import queue

# -- creating and listing ---------------------------------------------------------------------


def create_game(store: Store, signer: Keyring, body: dict[str, Any]) -> dict[str, Any]:
    game = GAMES[body["game"]]
    players = body["players"]
    public_keys = _seat_keys(body.get("public_keys") or {}, len(players))
    try:
        options = game.options(len(players), body["options"])
    except BadPlayerCount as bad:
        raise Problem(400, "bad-player-count", str(bad)) from None
    except BadSetup as bad:
        raise Problem(400, "bad-options", str(bad)) from None
    recorded = _recorded(game, body)
    seed = "" if recorded else body.get("seed") or secrets.token_hex(32)
    decks = _decks_given(body)
    _check_decks(game.canonical_deck(len(players), options), decks)
    at = now()
    dealt = Table(len(players), options, seed, tuple(map(tuple, decks)), recorded=recorded)
    state = game.started(game.deal(dealt), at)
    game_id = new_id()
    tokens = {secrets.token_urlsafe(24): str(seat) for seat in range(len(players))}
    table_token = secrets.token_urlsafe(24)
    handles = _handles(body.get("handles"), players)
    created = {**log.created(game, players, options, seed, decks, public_keys, recorded,
                             handles), "at": at}
    entry = store.games.create(
        game_id,
        created,
        {"seed": seed, "decks": decks},
        {**tokens, table_token: TABLE},
        Projection.of(game, state, 0),
    )
    if handles:
        store.games.rated(game_id)
    require_replicated(store, game_id)
    return {
        "id": game_id,
        "game": game.name,
        "players": players,
        "options": options,
        "seats": [
            {"seat": int(seat), "name": players[int(seat)], "token": token}
            for token, seat in tokens.items()
        ],
        "table_token": table_token,
        "seed_commitment": created.get("seed_commitment"),
        "deal": RECORDED if recorded else SEEDED,
        "version": 1,
        "receipt": signer.receipt(game_id, 1, entry["hash"]),
    }


def _handles(given: list[str] | None, players: list[str]) -> list[str] | None:
    """A rated game's handles, one a seat and each once (docs/events.md, Ratings)."""
    if given is None:
        return None
    if len(given) != len(players) or len(set(given)) != len(given):
        raise Problem(400, "bad-handles", f"a rated game names one handle a seat, each once:"
                      f" {len(players)} distinct handles, not {given!r}")
    return list(given)


def _recorded(game: Game, body: dict[str, Any]) -> bool:
    """Whether the game is to be recorded at a real table: the title must take recorded deals,
    and nothing may say how the service would deal it."""
    if not takes_recorded(game, body):
        return False
    dealing = sorted(k for k in ("seed", "deck", "decks") if body.get(k))
    if dealing:
        raise Problem(400, "bad-deal", f"a recorded game is dealt at the table, not here: it"
                      f" takes no {' or '.join(dealing)}")
    return True


def takes_recorded(game: Game, body: dict[str, Any]) -> bool:
    """Whether `body` asks for a recorded deal (a game's, or every table's of an event): 400
    `deal-not-recorded` when its title takes none."""
    if body.get("deal", SEEDED) != RECORDED:
        return False
    if not game.spec.recorded:
        raise Problem(400, "deal-not-recorded", f"{game.name} games are not recorded at a real"
                      " table yet: create it seeded, or with an explicit deck")
    return True


def _seat_keys(given: dict[str, str], seats: int) -> dict[str, str]:
    """The seat keys given at creation, by seat (a string), each checked to be a key."""
    for seat, key in given.items():
        if not seat.isdigit() or int(seat) >= seats:
            raise Problem(400, "no-such-seat",
                          f"this game has seats 0 to {seats - 1}, not {seat!r}")
        _check_key(key)
    return {str(int(seat)): key for seat, key in given.items()}


def _check_key(key: str) -> None:
    try:
        signatures.public_key(key)
    except BadKey as bad:
        raise Problem(400, "bad-public-key", str(bad)) from None


def new_id() -> str:
    # An id that starts with "-" would be read as an option by a command line (`tablelog show
    # -x...`): one in 64 random ids would, so they are drawn again.
    while True:
        found = secrets.token_urlsafe(9)
        if not found.startswith("-"):
            return found


def _decks_given(body: dict[str, Any]) -> list[list[str]]:
    """The decks a creation deals from, first deal first: `decks`, or `deck`, short for a
    one-element `decks` (an empty one is no permutation of the game's cards); none when
    neither is given, and 400 `bad-deck` when both are."""
    if "deck" in body and "decks" in body:
        raise Problem(400, "bad-deck", "give `deck` (the first deal's) or `decks` (one a deal),"
                      " not both")
    return [body["deck"]] if "deck" in body else body.get("decks") or []


def _check_decks(canonical: tuple[str, ...], decks: list[list[str]]) -> None:
    want = Counter(canonical)
    for number, deck in enumerate(decks, start=1):
        got = Counter(deck)
        if got == want:
            continue
        missing = sorted((want - got).elements())[:5]
        extra = sorted((got - want).elements())[:5]
        raise Problem(
            400,
            "bad-deck",
            f"deck {number} must be a permutation of the {len(canonical)} cards of the game"
            f" (it has {len(deck)}; missing {missing or 'none'}, unexpected {extra or 'none'})",
        )


def summary(store: Store, seen: CallersGame) -> dict[str, Any]:
    meta, game_id = seen.meta, seen.id
    position = store.projections.position(game_id)
    return {
        "id": game_id,
        "game": meta["game"],
        "players": meta["players"],
        "options": meta["options"],
        "status": position.status,
        "version": meta["version"],
        "to_act": list(position.to_act),
        "round": position.round,
        "seed_commitment": meta["seed_commitment"],
        "seed": (store.games.secret(game_id)[0] or None) if seen.finished else None,
        "deal": meta.get("deal", SEEDED),
        "created_at": meta["created_at"],
        "viewer": seen.caller.viewer,
    }


def list_games(store: Store, query: dict[str, Any]) -> dict[str, Any]:
    """Oldest first (or `order=newest`); `next` is an opaque cursor for the following page.

    Games are read from the index that fits (all games, one title's, the finished ones) in
    batches that double in size, and filtered on a few small fields; only the games listed are
    read whole. So finished games among thousands running are found without reading the others.
    """
    newest = query["order"] == "newest"
    after = _read_cursor(query.get("cursor"))
    chosen: list[str] = []
    size = 100
    ended = query.get("status") in (Status.FINISHED, Status.ABANDONED)
    while len(chosen) < query["limit"]:
        batch = store.games.ids(after, size, newest, query.get("game"), ended)
        if not batch:
            break
        briefs = store.games.briefs([g for g, _ in batch])
        for (game_id, created), brief in zip(batch, briefs, strict=True):
            after = (created, game_id)
            if brief is not None and _matches(brief, query):
                chosen.append(game_id)
                if len(chosen) == query["limit"]:
                    break
        size = min(2 * size, 3200)
    metas = store.games.metas(chosen)
    found = [_listed(g, meta) for g, meta in zip(chosen, metas, strict=True) if meta is not None]
    full = len(chosen) == query["limit"] and after is not None
    return {"games": found, "next": f"{after[0]!r}~{after[1]}" if full else None}


def _read_cursor(cursor: str | None) -> tuple[float, str | None] | None:
    """A page's `next`: the creation time and id of the last game it looked at (or, from
    before ids were in cursors, a time alone)."""
    if not cursor:
        return None
    at, _, last = cursor.partition("~")
    return float(at), last or None


def _matches(meta: dict[str, Any], query: dict[str, Any]) -> bool:
    return (
        query.get("game") in (None, meta["game"])
        and query.get("status") in (None, meta["status"])
        and (query.get("player") is None or query["player"] in meta["players"])
    )


def _listed(game_id: str, meta: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": game_id,
        "game": meta["game"],
        "players": meta["players"],
        "options": meta["options"],
        "status": meta["status"],
        "version": int(meta["version"]),
        "seed_commitment": meta["seed_commitment"],
        "deal": meta.get("deal", SEEDED),
        "created_at": meta["created_at"],
    }


# -- moves and verdicts -----------------------------------------------------------------------


# A move's append waits this long at most, in its own round trip, for the verdict before the
# web asks again (a verdict mostly comes well within it, even with 32 clients posting); what
# leaves the log still, an append Redis runs again because it had lost the script, costs no
# more than this.
LOOK_S = 0.1


def submit(
    store: Store,
    signer: Keyring,
    seen: CallersGame,
    body: dict[str, Any],
    idempotency_key: str | None,
    wait: float,
    known: RememberedGames | None = None,
    request_id: str | None = None,
) -> tuple[int, dict[str, Any]]:
    """Append a move (`known` remembers what its verdict's wait saw of the game; the store
    keeps `request_id` beside it, for the verdict's log line); the answer carries the server's
    receipt for the last entry it knows written (the verdict, or else the submission)."""
    meta, game_id = seen.meta, seen.id
    move = _well_formed(meta["game"], body["move"])
    try:
        seat = seen.caller.acting_seat(body.get("seat"), len(meta["players"]),
                                       for_none=move["type"] in FOR_NONE)
    except Problem as refused:
        # A token holder naming no seat, or the wrong one, on a game that is over is told it
        # is over. One this process remembers may have ended since: asked on a refusal alone.
        if refused.status != 401 and (seen.finished or _over_now(store, seen)):
            _over()
        raise
    if seen.finished:
        _over()
    if meta.get("deal") == RECORDED and isinstance(seat, int):
        _named_as_at_the_table(store, seen, seat, move)
    entry = log.submission(seat, move, signed=_signed(seen, seat, body, move))
    body_hash = hashlib.sha256(
        log.canonical({"seat": seat, "move": move, "v": body.get("expected_version")})
    ).hexdigest()
    writing = Writing(
        game_id,
        (entry,),
        submission=True,
        expected_version=body.get("expected_version"),
        idempotency=(idempotency_key, body_hash) if idempotency_key else None,
        counts=seen.owed.take() if seen.owed else (),
        keyed=meta["keyed"],
        request=request_id,
    )
    deadline = time.monotonic() + wait
    # Without an expected version or a key the append is written or chained again (games are
    # never deleted), so its round trip may go on to wait for the verdict.
    plain = body.get("expected_version") is None and not idempotency_key
    look_ms = max(1, int(min(wait, LOOK_S) * 1000)) if plain and wait > 0 else 0
    submitted = store.log.submit(writing, (meta["version"], meta["hash"]), look_ms)
    appended = submitted.appended
    _refused(seen, appended, body.get("expected_version"), body_hash, known)
    fresh = appended.outcome == AppendResult.OK
    written_last = (appended.seq, submitted.hash if fresh else None)
    try:
        waited = _verdict_entry(store, game_id, appended.seq, deadline - time.monotonic(),
                                appended.version, fresh, submitted.looked)
        status, answered = _verdict_answer(appended.seq, waited[1], seen.viewer)
    except UNREACHABLE:
        # The move is in the log; only its verdict could not be awaited: it is read later.
        status, answered = 202, {"seq": appended.seq, "status": "pending"}
    else:
        if known is not None:
            known.saw(game_id, waited)
        if waited[1] is not None:
            written_last = waited[1]["seq"], waited[1]["hash"]
    require_replicated(store, game_id)
    return status, {**answered, "receipt": _receipt(store, signer, game_id, *written_last)}


def _named_as_at_the_table(store: Store, seen: CallersGame, seat: int, move: dict[str, Any]
                           ) -> None:
    """A recorded game's move naming a card that no card at the table can be
    (`engine.recorded.MISNAMED`) is a 422 with nothing written. It is judged on the state at
    the log's head, once every submission there has its verdict (`_caught_up`); one that
    waits longer than that is judged by the worker as any move."""
    caught_up = _caught_up(store, seen.id)
    if caught_up is None:
        return
    version, saved = caught_up
    game = seen.game
    try:
        game.judge(game.decode(saved),
                   {"seat": seat, "move": move, "seq": version + 1, "at": now()})
    except IllegalMove as refused:
        if refused.code in MISNAMED:
            raise Problem(422, refused.code, refused.detail) from None


# How long a recorded game's move waits for the verdicts on the submissions before it (a
# verdict takes milliseconds while workers run), to be judged on the state after them.
CAUGHT_UP_S = 2.0


def _caught_up(store: Store, game_id: str) -> tuple[int, Any] | None:
    """The log's version and the engine state there (encoded) once every submission in the
    log is judged, waiting up to `CAUGHT_UP_S` for their verdicts (on the process's hub, as a
    move's wait does: no connection held meanwhile); None past that."""
    deadline = time.monotonic() + CAUGHT_UP_S
    while (head := store.log.head(game_id)) is not None:
        version, saved = _state(store, game_id)
        if version == head[0]:
            return version, saved
        if (left := deadline - time.monotonic()) <= 0:
            break
        store.hub.wait(game_id, head[0], left, Waiter(urgent=True))
    return None


def _signed(seen: CallersGame, seat: int | str, body: dict[str, Any], move: dict[str, Any]
            ) -> tuple[int, str] | None:
    """A keyed seat's submission: its expected version and signature, checked against the
    seat's key; only the seat's own token may post it. None for a seat with no key."""
    key = seen.meta["public_keys"].get(str(seat))
    if key is None:
        return None
    if seen.caller.is_table:
        raise Problem(403, "seat-signs-its-moves", (
            f"seat {seat} registered a key: its moves are posted with its own token and"
            " signed, the table token cannot act for it"))
    expected, signature = body.get("expected_version"), body.get("signature")
    if expected is None:
        raise Problem(422, "expected-version-required", (
            f"seat {seat} signs its moves: a signed move names the `expected_version` it"
            " was made at"))
    if not signature:
        raise Problem(422, "signature-required", (
            f"seat {seat} registered a key: each of its moves carries a `signature`, Ed25519"
            " over the canonical JSON of {game, seat, expected_version, move}"))
    if not signatures.verified(key, signature, signatures.move_payload(seen.id, seat, expected,
                                                                       move)):
        raise Problem(422, "bad-signature", (
            f"the signature is not seat {seat}'s key's over the canonical JSON of {{game,"
            " seat, expected_version, move}"))
    return expected, signature


def _receipt(store: Store, signer: Keyring, game_id: str, seq: int, entry_hash: str | None
             ) -> dict[str, Any]:
    """The server's receipt for entry `seq`, whose hash is read when not known (a
    submission answered again for its Idempotency-Key)."""
    if entry_hash is None:
        entry_hash = store.log.entries(game_id, after=seq - 1, upto=seq)[0]["hash"]
    return signer.receipt(game_id, seq, entry_hash)


def head(signer: Keyring, seen: CallersGame) -> dict[str, Any]:
    """The server's receipt for the log's last entry."""
    return signer.receipt(seen.id, seen.meta["version"], seen.meta["hash"])


def register_key(store: Store, signer: Keyring, seen: CallersGame, seat: int, public_key: str,
                 known: RememberedGames) -> dict[str, Any]:
    """A seat's key, registered once by the seat itself, as an entry of its game's log."""
    if seen.caller.seat != seat:
        raise Problem(403, "not-your-seat", f"only seat {seat}'s own token registers its key")
    if seen.finished:
        _over()
    _check_key(public_key)
    meta = seen.meta
    known.forget(seen.id)  # its meta here lacks the key from now on
    for _ in range(3):
        keys = meta["public_keys"]
        if str(seat) in keys:
            raise Problem(409, "seat-key-registered",
                          f"seat {seat} registered its key already; a key is registered once")
        writing = Writing(seen.id, (log.seat_key(seat, public_key),), keyed=meta["keyed"],
                          meta=(("public_keys", orjson.dumps({**keys, str(seat): public_key})
                                 .decode()), ("keyed", str(meta["keyed"] + 1))))
        appended = store.log.write(writing, (meta["version"], meta["hash"]))
        if appended.outcome == AppendResult.FINISHED:  # it ended meanwhile
            _over()
        if appended.outcome == AppendResult.OK:
            require_replicated(store, seen.id)
            entry = store.log.entries(seen.id, after=appended.seq - 1, upto=appended.seq)[0]
            return {"seat": seat, "public_key": public_key,
                    "receipt": signer.receipt(seen.id, entry["seq"], entry["hash"])}
        meta = store.games.context(seen.id, None).meta or meta  # another seat registered
    raise Problem(409, "seat-keys-changed", "seats kept registering keys meanwhile: ask again")


def _refused(seen: CallersGame, appended: Appended, expected: int | None, body_hash: str,
             known: RememberedGames | None) -> None:
    """The problem (raised) when the append did not take the move."""
    outcome = appended.outcome
    if outcome in (AppendResult.FINISHED, AppendResult.MISSING) and known is not None:
        known.forget(seen.id)
    if outcome == AppendResult.LIMITED:
        assert seen.owed is not None
        raise seen.owed.refusal(appended.refused)
    if outcome == AppendResult.FINISHED:
        _over()
    if outcome == AppendResult.MISSING:  # only a game remembered is looked up no more
        raise Problem(404, "game-not-found", f"there is no game {seen.id!r}")
    if outcome == AppendResult.CONFLICT:
        raise Problem(
            409,
            "version-conflict",
            f"the log is at version {appended.version}, not {expected}",
            version=appended.version,
        )
    if outcome == AppendResult.REKEYED:
        if known is not None:
            known.forget(seen.id)
        raise Problem(409, "seat-keys-changed", (
            "a seat registered its key since this server last read the game: post the move"
            " again (signed, if it is that seat's)"), version=appended.version)
    if outcome == AppendResult.IDEMPOTENT and appended.body_hash != body_hash:
        raise Problem(
            422, "idempotency-key-reused", "this Idempotency-Key was used with another body"
        )


def _over_now(store: Store, seen: CallersGame) -> bool:
    """Whether the game is over now, read afresh."""
    return store.games.context(seen.id, None).finished


def _over() -> NoReturn:
    over = MoveAfterEnd()
    raise Problem(409, over.code, over.detail)


def require_replicated(store: Store, game_id: str) -> None:
    """A write is answered only once a replica holds it (when the store has replicas)."""
    if not store.replicas.hold(game_id):
        raise Problem(
            503,
            "not-replicated",
            "the write was made but no replica acknowledged it in time, so it may not survive"
            " a failover; ask again (a move with the same Idempotency-Key)",
        )


def _well_formed(game: str, move: dict[str, Any]) -> dict[str, Any]:
    schemas = MOVES[game]
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in schemas:
        raise Problem(
            400,
            "invalid-move",
            f"{game} has no move of type {kind!r}; its moves are {', '.join(sorted(schemas))}",
        )
    errors = _move_errors(game, kind, log.canonical(move))
    if errors:
        raise Problem(400, "invalid-move", f"this {kind} move is malformed", errors=errors)
    return move


@remembered(4096, api.REMEMBERED_BODY)
def _move_errors(game: str, kind: str, move: bytes) -> dict[str, Any]:
    """What validating a move found, by the move's canonical JSON: a game's moves are a few
    shapes, posted again and again."""
    return loader(MOVES[game][kind]).validate(orjson.loads(move))


def verdict(
    store: Store, seen: CallersGame, seq: int, wait: float = 0, version: int = 0,
    fresh: bool = False,
    looked: VerdictRead | None = None,
) -> tuple[int, dict[str, Any]]:
    """The verdict on submission `seq`, waiting up to `wait` seconds for it (no polling)."""
    _, found = _verdict_entry(
        store, seen.id, seq, wait, version or seen.meta["version"], fresh, looked)
    return _verdict_answer(seq, found, seen.viewer)


def _verdict_answer(seq: int, found: dict[str, Any] | None, viewer: Viewer
                    ) -> tuple[int, dict[str, Any]]:
    if found is None:
        return 202, {"seq": seq, "status": "pending"}
    shown = redact(found, viewer)
    accepted = found["type"] == log.ACCEPTED
    answer = {
        "seq": seq,
        "status": "accepted" if accepted else "rejected",
        "version": found["seq"],
        "code": shown.get("code"),
        "detail": shown.get("detail"),
        "effects": shown.get("effects"),
    }
    return (201 if accepted else 422), answer


def _verdict_entry(
    store: Store, game_id: str, seq: int, wait: float, version: int, fresh: bool,
    looked: VerdictRead | None,
) -> VerdictRead:
    """Look (unless the submission was appended just now, at `version`: nothing has judged it
    yet; or its append's round trip `looked` already), then block on the log for what lands
    past `version` until the verdict is among it; the last seq seen, and the verdict."""
    deadline = time.monotonic() + wait
    if looked is not None:
        version, found = looked
    else:
        found = None if fresh else store.log.verdict(game_id, seq)
    while found is None and (left := deadline - time.monotonic()) > 0:
        entries = store.hub.wait(game_id, version, left, Waiter(urgent=True))
        if entries:
            version, found = entries[-1]["seq"], verdict_on(entries, seq)
    return version, found


def lookup(store: Store, seen: CallersGame, seq: int) -> dict[str, Any]:
    in_log = 1 <= seq <= seen.meta["version"]
    entries = store.log.entries(seen.id, after=seq - 1, upto=seq) if in_log else []
    if not entries or entries[0]["type"] != log.SUBMITTED:
        raise Problem(404, "no-such-submission", f"log entry {seq} is not a submitted move")
    return verdict(store, seen, seq)[1]


# -- reading the game --------------------------------------------------------------------------


def _rebuilt(store: Store, seen: CallersGame, upto: int | None) -> tuple[list[dict[str, Any]], Any]:
    """The log up to `upto` and the state right after it, replayed through the engine."""
    entries = store.log.entries(seen.id, upto=upto)
    seed, decks = store.games.secret(seen.id)
    return entries, log.state_at(seen.game, log.table_of(seen.meta, seed, decks), entries)


def _ended(store: Store, seen: CallersGame) -> tuple[list[dict[str, Any]], Status, int, Any]:
    """A finished game's whole log, its status, round and score, as stored: it changes no
    more, and an export downloads every finished game, so replaying each log again would be
    the export's whole cost (and a compacted game keeps its score, not its state). (A running
    game is replayed: a verdict may land between the reads.)"""
    entries, position = store.log.entries(seen.id), store.projections.position(seen.id)
    return entries, position.status, position.round, orjson.loads(_current_score(store, seen))


def _replayed(store: Store, seen: CallersGame) -> tuple[list[dict[str, Any]], Status, int, Any]:
    """A running game's log, its status, round and score, replayed through the engine."""
    entries, final = _rebuilt(store, seen, None)
    return (entries, Status.of(seen.game, final), seen.game.round(final),
            seen.game.score(final).to_json(seen.meta["players"]))


def state(store: Store, seen: CallersGame, version: int | None) -> bytes:
    meta, game, viewer = seen.meta, seen.game, seen.viewer
    if version is None:
        position, stored = store.projections.standing(seen.id)
        view = _view_of(game, stored or _folded(store, seen.id), viewer)
        return b"".join([
            b'{"version":', str(position.version).encode(),
            b',"status":', orjson.dumps(position.status),
            b',"round":', str(position.round).encode(),
            b',"to_act":', orjson.dumps(list(position.to_act)),
            b',"state":', view, b"}",
        ])
    _check_version(meta, version)
    _, then = _rebuilt(store, seen, version)
    return orjson.dumps({
        "version": version,
        "status": Status.of(game, then),
        "round": game.round(then),
        "to_act": list(game.to_act(then)),
        "state": game.view(then, viewer),
    })


def _state(store: Store, game_id: str) -> tuple[int, Any]:
    """The log version the projections describe and the engine state there, encoded: as
    stored, or folded (`_folded`)."""
    version, saved = store.projections.state(game_id)
    return version, orjson.loads(_folded(store, game_id)) if saved is None else saved


def _folded(store: Store, game_id: str) -> bytes:
    """The final state's JSON of a compacted game whose record keeps none (written before
    spans), folded here from its log and kept with the record for the next reader: the store
    returns what it holds and folds nothing."""
    state = state_json(log.folded(store.log.entries(game_id), *store.games.secret(game_id)))
    store.projections.keep_state(game_id, folded := state.encode())
    return folded


@functools.lru_cache(maxsize=1024)
def _view_of(game: Game, stored: bytes, viewer: Viewer) -> bytes:
    """`viewer`'s view of a stored engine state, as JSON. The last thousand are kept, so that
    the players and spectators of a game who read its state after each move decode it once
    between them in each web process; keyed by the stored state itself, none is ever stale."""
    return orjson.dumps(game.view(game.decode(orjson.loads(stored)), viewer))


def _check_version(meta: dict[str, Any], version: int) -> None:
    if version > meta["version"]:
        raise Problem(404, "no-such-version",
                      f"the log has {meta['version']} entries, not {version}")


def legal_moves(store: Store, seen: CallersGame) -> dict[str, Any]:
    if seen.finished:  # none, at every table: its state is not read (nor a compacted log folded)
        return {"version": store.projections.version(seen.id), "moves": []}
    game, caller = seen.game, seen.caller
    version, saved = _state(store, seen.id)
    now_state = game.decode(saved)
    seats = range(len(seen.meta["players"])) if caller.is_table else (
        [caller.seat] if caller.seat is not None else []
    )
    # The table sees every face-down choice: it is offered only moves they leave possible.
    listed = game.table_moves if caller.is_table else game.legal_moves
    moves = [{"seat": s, "move": m} for s in seats for m in listed(now_state, s)]
    return {"version": version, "moves": moves}


def score(store: Store, seen: CallersGame, version: int | None) -> bytes:
    """The breakdown as answered: each component with the rule that scores it (the breakdown
    kept, and compared by audits, has none)."""
    if version is None:
        breakdown = orjson.loads(_current_score(store, seen))
    else:
        _check_version(seen.meta, version)
        _, then = _rebuilt(store, seen, version)
        breakdown = seen.game.score(then).to_json(seen.meta["players"])
    return orjson.dumps(explained(breakdown, seen.game.spec))


def final_score(store: Store, seen: CallersGame) -> dict[str, Any]:
    """An ended game's last score breakdown, as `GET /v1/games/{id}/score` answers it."""
    return orjson.loads(_current_score(store, seen))


def _current_score(store: Store, seen: CallersGame) -> bytes:
    """The first reader of a version computes its score and keeps it for the next."""
    kept = store.projections.score(seen.id)
    if kept is not None:
        return kept
    version, saved = _state(store, seen.id)
    computed = score_json(seen.game, seen.game.decode(saved), seen.meta["players"])
    store.projections.keep_score(seen.id, version, computed)
    return computed


def events(store: Store, seen: CallersGame, after: int, limit: int
           ) -> tuple[list[dict[str, Any]], int]:
    found = [redact(e, seen.viewer) for e in store.log.entries(seen.id, after, limit=limit)]
    return found, (found[-1]["seq"] if found else after)


def replay_document(store: Store, signer: Keyring, seen: CallersGame) -> dict[str, Any]:
    meta, game, game_id, finished = seen.meta, seen.game, seen.id, seen.finished
    entries, status, last_round, score = (_ended if finished else _replayed)(store, seen)
    seed, decks = store.games.secret(game_id)
    table = log.table_of(meta, seed, decks)
    created = entries[0]
    if table.recorded:  # nothing was dealt here: every card is in the entries
        deal: Any = RECORDED
    elif seen.viewer == TABLE:
        canonical = game.canonical_deck(table.seats, table.options)
        dealt = [list(table.deck(r, canonical)) for r in range(1, last_round + 1)]
        deal = _deal(game, table, dealt, finished)
    else:
        deal = None
    return {
        "format": "tablelog-replay/1",
        "id": game_id,
        "game": meta["game"],
        "players": meta["players"],
        "options": meta["options"],
        "rules_version": created["rules_version"],
        "status": status,
        "version": meta["version"],
        "seed_commitment": meta["seed_commitment"],
        "seed": (seed or None) if finished else None,
        "deal": deal,
        "entries": [redact(e, seen.viewer) for e in entries],
        "score": score,
        # The server's word for the log as it gave it: anyone can check it later with the
        # published keys (engine.signatures).
        "head": signer.receipt(game_id, entries[-1]["seq"], entries[-1]["hash"]),
    }


def _deal(game: Game, table: Table, dealt: list[list[str]], finished: bool) -> dict[str, Any]:
    # Until the seed is shown, what else it chose must be, for the replay to be dealt again.
    if finished:
        return {"decks": dealt}
    return {"decks": dealt, "choices": log.choices_of(game, table)}


# -- audits ----------------------------------------------------------------------------------


def request_audit(
    store: Store, seen: CallersGame, claimed: dict[str, int], wait: float, most_waiting: int
) -> tuple[int, dict[str, Any]]:
    """Queue an audit, unless `most_waiting` wait for an auditor already: each new claim is a
    rebuild, and a flood of them from many addresses, each within its own rate, would queue
    work (and records) without end."""
    seats = len(seen.meta["players"])
    for seat in claimed:
        if int(seat) >= seats:
            raise Problem(400, "no-such-seat", f"this game has seats 0 to {seats - 1}")
    place = queue.audit_place(store, most_waiting)
    if place is None:
        raise Problem(503, "audits-busy",
                      f"{most_waiting} audits wait for an auditor already: ask again shortly")
    try:
        number, new = store.audits.new(seen.id, seen.meta["version"], claimed)
        if new:
            queue.enqueue_audit(store.queues, seen.id, number)
    finally:
        store.audit_places.give_back(place)
    return audit_report(store, seen, number, wait)


def audit_report(
    store: Store, seen: CallersGame, number: int, wait: float = 0
) -> tuple[int, dict[str, Any]]:
    game_id = seen.id
    found = store.audits.read(game_id, number, wait)
    if found is None:
        raise Problem(404, "no-such-audit", f"game {game_id} has no audit {number}")
    link = {"self": f"/v1/games/{game_id}/audits/{number}"}
    if found.get("status") != AuditStatus.DONE:
        return 202, {**found, "links": link}
    return 200, {**redact(found, seen.viewer), "links": link}


def verify(document: dict[str, Any], keys: list[dict[str, Any]]) -> dict[str, Any]:
    """Check an uploaded replay document offline: the audit report, no stored game needed;
    its seats' signatures, and its head against this server's `keys`."""
    return audited(document, keys)[0]


def audited(document: dict[str, Any], keys: list[dict[str, Any]] | None = None
            ) -> tuple[dict[str, Any], Any]:
    """A replay document's audit report, and the state its rebuild ended in (None if none)."""
    try:
        return replay_rebuilt(document, keys)
    except MalformedReplay as broken:
        raise Problem(400, "malformed-replay", str(broken)) from None
