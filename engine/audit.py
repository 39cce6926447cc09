"""Audits: rebuild a game from nothing but its log and compare with what was stored.

`report` is the whole check and does no I/O, so the same code audits a stored game (in a
worker, `workers.jobs.audit`), a replay document (`verify_replay`: uploaded to `POST
/v1/replays/verify`, or checked with no server at all by `tablelog verify`) and a finished game
imported from another server (`PUT /v1/games/{id}/replay`, through `replay_rebuilt`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from engine import codec, log, signatures
from engine.recorded import Revoke, is_recorded
from engine.scoring import explained
from engine.spec import rule_of
from engine.visibility import is_redacted

PROGRESS_EVERY = 200


def _same(a: Any, b: Any) -> bool:
    return log.canonical(a) == log.canonical(b)


def report(*args: Any, **kwargs: Any) -> dict[str, Any]:
    """The audit report of docs/api.md, Audits (the arguments are `rebuilt`'s)."""
    return rebuilt(*args, **kwargs)[0]


def rebuilt(
    entries: Sequence[Mapping[str, Any]],
    seed: str | None,
    decks: Sequence[Sequence[str]] | None,
    stored: Mapping[str, Any] | None = None,
    claimed: Mapping[str, int] | None = None,
    progress: Callable[[int, int], None] = lambda done, total: None,
    choices: Mapping[str, Sequence[Any]] | None = None,
    game_id: str | None = None,
) -> tuple[dict[str, Any], Any]:
    """The audit report, and the state the rebuild ended in (None when the log could not be
    dealt again): an import stores that state rather than replaying the log a second time.

    `stored` holds what the service keeps besides the log (`at`, `state`, `score`) and is
    compared with the rebuild at the same log version; `claimed` maps seats to totals;
    `choices` are the seed's other choices when the seed is not given (`log.choices_of`);
    `game_id` the game's id, which its seats' signatures sign (none: they are not checked).
    """
    mismatches: list[dict[str, Any]] = []
    chain_ok, redacted = _chain(entries, mismatches)
    if game_id is not None:
        mismatches += signatures.seat_mismatches(entries, game_id)
    created = entries[0] if entries and entries[0].get("type") == log.CREATED else None
    if created is None:
        mismatches.append({"seq": 1, "what": "game-created entry missing"})
        return _report(False, None, False, mismatches, [], redacted), None
    game = log.rules(created)
    recorded = is_recorded(created)
    # A recorded game has no seed to check: every card in it is in its entries, re-judged.
    seed_ok = None if recorded else _seed_ok(created, entries, seed, decks, mismatches)
    if seed is None and not decks and not recorded:
        return _report(chain_ok, seed_ok, None, mismatches, [], redacted), None

    table = log.table_of(created, seed or "", decks or [], choices)
    verdicts = {e["of"]: e for e in entries if e["type"] in (log.ACCEPTED, log.REJECTED)}
    # Only the state the stored projection describes is kept: holding every state of a long
    # game would keep the whole fold alive, for the collector to walk again and again.
    stored_version = int(stored["at"]) if stored else None
    then = None
    judged: list[tuple[int, Mapping[str, Any], dict[str, Any]]] = []
    state = None
    for done, step in enumerate(log.fold(game, table, entries), start=1):
        state = step.state
        seq = step.entry["seq"]
        if seq == stored_version:
            then = state
        # A submission still pending has no verdict to compare: nothing was claimed about it.
        if step.recomputed is not None and seq in verdicts:
            judged.append((seq, verdicts[seq], step.recomputed))
        if done % PROGRESS_EVERY == 0:
            progress(done, len(entries))
    _compare_verdicts(judged, mismatches)
    progress(len(entries), len(entries))
    score = game.score(state)
    if stored:
        _compare_stored(game, created, stored, then, score if then is state else None,
                        mismatches)
    claims = _claims(score, claimed or {}, game.spec.scoring)
    replay_ok = not any(m["what"] not in _NOT_REPLAYED for m in mismatches)
    report = _report(chain_ok, seed_ok, replay_ok, mismatches, claims, redacted,
                     explained(score.to_json(created["players"]), game.spec))
    if recorded:
        report["revokes"] = _revokes(judged)
    return report, state


def _revokes(judged: list[tuple[int, Mapping[str, Any], dict[str, Any]]]
             ) -> list[dict[str, Any]]:
    """The revokes a recorded game's entries proved (`engine.recorded.Revoke`), each with the
    submission whose verdict reported it, but those a table takeback undid since."""
    found: list[dict[str, Any]] = []
    for seq, _, verdict in judged:
        for fact in verdict.get("effects") or ():
            if fact["type"] == "taken-back":
                undone = set(fact["undone"])
                found = [r for r in found if r["seq"] not in undone]
            elif fact["type"] == Revoke.kind:
                found.append({"seq": seq, **{k: v for k, v in fact.items() if k != "type"}})
    return found


def _chain(entries, mismatches) -> tuple[bool | None, list[int]]:
    """Whether the hash chain holds, and the entries it cannot tell about.

    An entry redacted for the caller (a replay downloaded while the game runs) no longer hashes
    to its `hash`: that is no evidence of tampering, only of what the caller may not see. The
    chain is then unknown (None) unless some other entry breaks it.
    """
    broken = log.broken_links(entries)
    redacted = {seq for seq in broken if is_redacted(entries[seq - 1])}
    mismatches += [{"seq": seq, "what": "hash"} for seq in broken if seq not in redacted]
    if len(redacted) < len(broken):
        return False, sorted(redacted)
    return (None if redacted else True), sorted(redacted)


def _report(chain_ok, seed_ok, replay_ok, mismatches, claims, redacted, score=None
            ) -> dict[str, Any]:
    return {
        "ok": bool(chain_ok and seed_ok is not False and replay_ok and not mismatches),
        "hash_chain_ok": chain_ok,
        "seed_ok": seed_ok,
        "replay_ok": replay_ok,
        "mismatches": mismatches,
        "redacted": redacted,
        "claims": claims,
        "score": score,
    }


def _seed_ok(created, entries, seed, decks, mismatches) -> bool | None:
    if seed is None:
        return None
    ok = log.seed_commitment(seed) == created.get("seed_commitment")
    if log.decks_commitment(decks or []) != created.get("decks_commitment"):
        ok = False
        mismatches.append({"seq": 1, "what": "explicit decks differ from their commitment"})
    for entry in entries:
        if entry["type"] == log.FINISHED and entry.get("seed") != seed:
            ok = False
            mismatches.append({"seq": entry["seq"], "what": "revealed seed differs"})
    if not ok:
        mismatches.append({"seq": 1, "what": "seed does not match its commitment"})
    return ok


# Mismatches that rebuilding the game does not find: the replay is sound without them.
_NOT_REPLAYED = ("hash", "signature", "head")

_VERDICT_PARTS = ("type", "seat", "move", "code", "detail", "effects")


def _compare_verdicts(judged, mismatches) -> None:
    """Each stored verdict against the one recomputed for its submission (`judged`: the
    submission's seq, the stored verdict, the recomputed one).

    All are compared in one encoding first, each verdict's parts as a list in one order: a
    call of the encoder costs more than the verdict it encodes, and nearly every audit finds them
    all the same. Only if they differ is each pair compared to name the ones that do.
    """
    if _same([list(map(stored.get, _VERDICT_PARTS)) for _, stored, _ in judged],
             [list(map(recomputed.get, _VERDICT_PARTS)) for _, _, recomputed in judged]):
        return
    for seq, stored, recomputed in judged:
        stored_part = {k: stored.get(k) for k in _VERDICT_PARTS}
        recomputed_part = {k: recomputed.get(k) for k in _VERDICT_PARTS}
        if not _same(stored_part, recomputed_part):
            mismatches.append({
                "seq": stored["seq"],
                "of": seq,
                "what": "verdict",
                "stored": _hidden_as_in(stored, stored_part),
                "recomputed": _hidden_as_in(recomputed, recomputed_part),
            })


def _hidden_as_in(verdict: Mapping[str, Any], part: dict[str, Any]) -> dict[str, Any]:
    """A verdict's compared part, keeping what its verdict hides from other seats (a secret
    move, a refusal's reason): the report is redacted for its reader like the log."""
    return {**part, "hidden": verdict["hidden"]} if "hidden" in verdict else part


def _compare_stored(game, created, stored, state, score, mismatches) -> None:
    """The stored projection against `state`, the rebuild's at its version (None if the log
    never reached it), whose `score` is given when it is already known."""
    version = int(stored["at"])
    if state is None:
        mismatches.append({"seq": version, "what": "projection describes a version past the log"})
        return
    if "state" in stored and not _same(stored["state"], codec.encode(game.encode(state))):
        mismatches.append({"seq": version, "what": "stored state"})
    if "score" in stored:
        score = game.score(state) if score is None else score
        recomputed = score.to_json(created["players"])
        if not _same(stored["score"], recomputed):
            mismatches.append(_score_mismatch(version, stored["score"], recomputed))


def _score_mismatch(version: int, stored: Any, recomputed: dict[str, Any]) -> dict[str, Any]:
    """A stored score that is not the recomputed one, said as a verdict's mismatch is: both
    sides (each seat's total, in seat order) and, in `detail`, whose total differs and how;
    when every total agrees, whose breakdown (or which of the score's own fields) does not."""
    players = stored.get("players") if isinstance(stored, dict) else None
    players = [p for p in players if isinstance(p, dict)] if isinstance(players, list) else []
    was = {p.get("seat"): p for p in players}
    now = {p["seat"]: p for p in recomputed["players"]}
    totals = [was.get(s, {}).get("total") for s in now]
    name = lambda p: p.get("name") or f"seat {p['seat']}"  # noqa: E731
    differ = [p for s, p in now.items() if was.get(s, {}).get("total") != p["total"]]
    if differ:
        detail = "; ".join(f"{name(p)}'s total is stored as {was.get(p['seat'], {}).get('total')},"
                           f" recomputed {p['total']}" for p in differ)
    elif other := [p for s, p in now.items() if not _same(was.get(s), p)]:
        detail = (f"every total agrees, but the breakdown of {', '.join(map(name, other))}"
                  " differs from the recomputed one")
    else:
        fields = sorted(k for k in {*recomputed, *(stored if isinstance(stored, dict) else {})}
                        if k != "players" and (stored or {}).get(k) != recomputed.get(k))
        detail = f"every seat's breakdown agrees, but its {', '.join(fields) or 'form'} differs"
    return {"seq": version, "what": "stored score", "detail": detail,
            "stored": totals, "recomputed": [p["total"] for p in now.values()],
            "seats": [p["seat"] for p in differ]}


def _claims(score, claimed: Mapping[str, int], rules: Mapping[str, str]
            ) -> list[dict[str, Any]]:
    out = []
    for seat_text, total in sorted(claimed.items(), key=lambda kv: int(kv[0])):
        seat = score.seats[int(seat_text)]
        out.append({
            "seat": seat.seat,
            "claimed": total,
            "recomputed": seat.total,
            "difference": total - seat.total,
            "components": [{**c.to_json(), "rule": rule_of(rules, c.label)}
                           for c in seat.components],
        })
    return out


REPLAY_FORMAT = "tablelog-replay/1"


class MalformedReplay(ValueError):
    """A document that cannot be read as a replay: there is nothing to report about."""


class Secret(NamedTuple):
    """What a replay document reveals of how its game was dealt."""

    seed: str | None
    decks: list[list[str]]
    choices: dict[str, list[Any]]


def replay_secret(document: Mapping[str, Any]) -> Secret:
    """The seed and explicit decks of its `game-finished` entry once the game is over, else
    the deal shown to the table, if any: its decks and the seed's other choices."""
    seed = document.get("seed")
    if seed is not None:
        revealed = [e for e in document["entries"] if e.get("type") == log.FINISHED]
        return Secret(seed, (revealed[-1].get("decks") if revealed else None) or [], {})
    deal = document.get("deal") or {}
    if not isinstance(deal, Mapping):  # "recorded": nothing was dealt but what the log names
        return Secret(None, [], {})
    return Secret(None, deal.get("decks") or [], deal.get("choices") or {})


def verify_replay(document: Mapping[str, Any], keys: Sequence[Mapping[str, Any]] | None = None
                  ) -> dict[str, Any]:
    """The audit report of a replay document (docs/api.md, Audits), with no stored game."""
    return replay_rebuilt(document, keys)[0]


def replay_rebuilt(document: Mapping[str, Any], keys: Sequence[Mapping[str, Any]] | None = None
                   ) -> tuple[dict[str, Any], Any]:
    """A replay document's audit report, and the state its rebuild ended in (None if none).

    Its seats' signatures are checked against the keys its log registers (the document names
    the game's `id`, which they sign), and with `keys` (a `/v1/keys` document's list) its
    `head`, the server's receipt for its last entry: `signatures_ok` and `head_ok` in the
    report, None when there was nothing to check (no seat keyed; no keys, or no head: a
    replay from before receipts).
    """
    if document.get("format") != REPLAY_FORMAT:
        raise MalformedReplay(f"its format is {document.get('format')!r}, not {REPLAY_FORMAT!r}")
    entries = document.get("entries")
    if not isinstance(entries, list) or not entries:
        raise MalformedReplay("it has no entries")
    if _holds_a_float(document):
        raise MalformedReplay("it holds a number with a fraction: a game's log holds none")
    seed, decks, choices = replay_secret(document)
    stored = {"at": len(entries), "score": document["score"]} if document.get("score") else None
    game_id = document.get("id")
    try:
        report, state = rebuilt(entries, seed, decks, stored, choices=choices,
                                game_id=game_id if isinstance(game_id, str) else "")
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as broken:
        raise MalformedReplay(f"the replay document cannot be read: {broken!r}") from None
    return _signed(report, document, entries, keys), state


def _signed(report: dict[str, Any], document: Mapping[str, Any], entries: list[Any],
            keys: Sequence[Mapping[str, Any]] | None) -> dict[str, Any]:
    """The report with what the signatures showed: the seats' (found by `rebuilt`), and the
    head's when there are keys to check it with."""
    mismatches = report["mismatches"]
    keyed = bool(signatures.seat_keys(entries[0]) if isinstance(entries[0], Mapping) else None
                 ) or any(e.get("type") == log.SEAT_KEY for e in entries)
    report["signatures_ok"] = (not any(m["what"] == "signature" for m in mismatches)
                               if keyed else None)
    report["head_ok"] = None
    if keys is not None and document.get("head") is not None:
        found = signatures.head_mismatches(document["head"], entries, str(document.get("id")),
                                           keys)
        mismatches += found
        report["head_ok"] = not found
        report["ok"] = report["ok"] and not found
    return report


def _holds_a_float(document: Any) -> bool:
    """Whether a fraction (or NaN, or an infinity) is anywhere in a parsed JSON document. No log
    holds one, and `log.canonical` writes none as json.dumps would."""
    unseen = [document]
    while unseen:
        value = unseen.pop()
        if isinstance(value, dict):
            unseen.extend(value.values())
        elif isinstance(value, list):
            unseen.extend(value)
        elif isinstance(value, float):
            return True
    return False
