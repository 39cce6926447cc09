"""The audit report of a log rebuilt in process: every verdict recomputed and compared."""

import random

from engine import audit, codec, log
from engine.games import GAMES
from engine.playout import play
from engine.visibility import redact

GAME = GAMES["coloretto"]


def _finished(slips: float = 0.0) -> list[dict]:
    return play(GAME, 3, "audited", random.Random(4), {"deals": 1}, slips=slips, batch=2).entries


def _report(entries: list[dict]) -> dict:
    return audit.report(entries, "audited", [])


def test_a_faithful_log_with_refusals_audits_clean():
    entries = _finished(slips=0.2)
    assert any(e["type"] == log.REJECTED for e in entries)
    report = _report(entries)
    assert report["ok"] and report["replay_ok"] and report["mismatches"] == []


def test_a_verdict_rewritten_and_rechained_is_named_by_its_seq_and_no_other():
    entries = _finished()
    accepted = [i for i, e in enumerate(entries) if e["type"] == log.ACCEPTED]
    forged = accepted[len(accepted) // 2]
    bodies = [{k: v for k, v in e.items() if k != "hash"} for e in entries]
    bodies[forged]["effects"] = [{**bodies[forged]["effects"][0], "forged": True}]
    report = _report(log.chain(log.GENESIS, bodies))
    assert report["hash_chain_ok"] and not report["replay_ok"]
    assert [(m["seq"], m["of"], m["what"]) for m in report["mismatches"]] == [
        (entries[forged]["seq"], entries[forged]["of"], "verdict")
    ]
    assert report["mismatches"][0]["stored"]["effects"][0]["forged"] is True


def test_a_verdict_that_differs_only_as_json_does_is_a_mismatch():
    # True == 1 in Python; a stored `true` where the rules wrote seat 1 is still another verdict.
    entries = _finished()
    bodies = [{k: v for k, v in e.items() if k != "hash"} for e in entries]
    forged = next(b for b in bodies if b["type"] == log.ACCEPTED and b["seat"] == 1)
    forged["seat"] = True
    report = _report(log.chain(log.GENESIS, bodies))
    assert [(m["seq"], m["what"]) for m in report["mismatches"]] == [(forged["seq"], "verdict")]


def _stored(entries: list[dict], version: int) -> dict:
    """What the service keeps besides the log, describing version `version`."""
    state = log.state_at(GAME, log.table_of(entries[0], "audited", []), entries[:version])
    return {
        "at": version,
        "state": codec.encode(GAME.encode(state)),
        "score": GAME.score(state).to_json(entries[0]["players"]),
    }


def test_stored_projections_of_the_last_version_or_an_earlier_one_audit_clean():
    entries = _finished()
    for version in (len(entries), len(entries) // 2):
        report = audit.report(entries, "audited", [], _stored(entries, version))
        assert report["ok"] and report["mismatches"] == [], version


def test_a_stored_state_and_score_that_the_rebuild_does_not_give_are_each_named():
    entries = _finished()
    version = len(entries) // 2
    stored = _stored(entries, version)
    wrong = _stored(entries, version - 2)
    stored.update(state=wrong["state"], score={**stored["score"], "forged": True})
    report = audit.report(entries, "audited", [], stored)
    assert not report["ok"]
    assert [(m["seq"], m["what"]) for m in report["mismatches"]] == [
        (version, "stored state"), (version, "stored score")
    ]


def test_stored_projections_of_a_version_past_the_log_are_named():
    entries = _finished()
    report = audit.report(entries[:-10], "audited", [], _stored(entries, len(entries)))
    assert [(m["seq"], m["what"]) for m in report["mismatches"]] == [
        (len(entries), "projection describes a version past the log")
    ]


def test_a_mismatched_verdict_hides_from_other_seats_what_the_verdict_hides():
    entries = _finished(slips=0.2)
    bodies = [{k: v for k, v in e.items() if k != "hash"} for e in entries]
    refused = next(b for b in bodies if b["type"] == log.REJECTED)
    refused["detail"] = "forged"
    (mismatch,) = _report(log.chain(log.GENESIS, bodies))["mismatches"]
    other = (refused["seat"] + 1) % 3
    for part in ("stored", "recomputed"):
        shown = redact(mismatch, other)[part]
        assert shown["code"] is None and shown["detail"] is None
        assert redact(mismatch, refused["seat"])[part]["code"] == mismatch[part]["code"]
    assert mismatch["stored"]["detail"] == "forged"


def test_a_stored_total_edited_says_whose_total_and_both_values():
    entries = _finished()
    stored = _stored(entries, len(entries))
    players = stored["score"]["players"]
    right = [p["total"] for p in players]
    players[1]["total"] += 7
    (mismatch,) = audit.report(entries, "audited", [], stored)["mismatches"]
    name = entries[0]["players"][1]
    assert mismatch == {
        "seq": len(entries), "what": "stored score", "seats": [1],
        "stored": [right[0], right[1] + 7, right[2]], "recomputed": right,
        "detail": f"{name}'s total is stored as {right[1] + 7}, recomputed {right[1]}",
    }


def test_a_stored_breakdown_edited_with_its_totals_kept_says_whose_breakdown():
    entries = _finished()
    stored = _stored(entries, len(entries))
    stored["score"]["players"][2]["components"][0]["detail"] = "forged"
    (mismatch,) = audit.report(entries, "audited", [], stored)["mismatches"]
    assert mismatch["detail"] == (f"every total agrees, but the breakdown of"
                                  f" {entries[0]['players'][2]} differs from the recomputed one")
    assert mismatch["stored"] == mismatch["recomputed"] and mismatch["seats"] == []
