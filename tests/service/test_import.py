"""Importing finished games played elsewhere (`PUT /v1/games/{id}/replay`), against the suite's
Redis and workers: stored as played and verified in full, or refused naming the entry."""

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from bench.played import replay
from engine import log
from engine.games import GAMES
from engine.scoring import explained
from engine.signatures import receipt_problem
from service import create_app
from tests.api import bearer, create
from tests.service.test_openapi import Checked

OPERATOR = bearer("operator-secret")
AT_ONCE = 6


@pytest.fixture(scope="module")
def importing(redis_url, workers):
    """The suite's service, with an operator's import token configured."""
    app = create_app({"TESTING": True, "REDIS_URL": redis_url, "IMPORT_TOKEN": "operator-secret"})
    return app.test_client()


def put(http, document, game_id=None, headers=OPERATOR):
    return http.put(f"/v1/games/{game_id or document['id']}/replay", json=document,
                    headers=headers)


def rechained(document, edit):
    """`document` with `edit` applied to its entries and the chain made whole again, as a
    forger who knows the hash rule would."""
    bodies = [{k: v for k, v in e.items() if k != "hash"} for e in document["entries"]]
    edit(bodies)
    numbered = [{**body, "seq": seq} for seq, body in enumerate(bodies, start=1)]
    return {**document, "entries": log.chain(log.GENESIS, numbered)}


def test_a_finished_game_is_stored_as_it_was_played_and_audits_clean(importing):
    document = replay("keltis-card", "imported", "imp-whole", ["ida", "ivo"])
    answer = put(importing, document)
    assert answer.status_code == 201 and answer.headers["Location"] == "/v1/games/imp-whole"
    imported = answer.json
    receipt = imported.pop("receipt")
    assert imported == {"id": "imp-whole", "game": "keltis-card", "imported": True,
                        "version": document["version"], "hash": document["entries"][-1]["hash"]}
    # This server's receipt for the last entry it now holds (CONTRACT.md section 11).
    assert (receipt["game"], receipt["seq"], receipt["hash"]) == (
        "imp-whole", document["version"], document["entries"][-1]["hash"])
    assert receipt_problem(receipt, importing.get("/v1/keys").json["keys"]) is None
    served = importing.get("/v1/games/imp-whole/replay").json
    # Signed by this server, for the last entry it now holds.
    assert served.pop("head")["hash"] == document["entries"][-1]["hash"]
    assert served == document
    summary = importing.get("/v1/games/imp-whole").json
    assert (summary["status"], summary["seed"]) == ("finished", "imported")
    # The score answered is the replay's, each component with its rule (engine.scoring.explained).
    assert importing.get("/v1/games/imp-whole/score").json == explained(
        document["score"], GAMES[document["game"]].spec)
    assert summary["to_act"] == []
    audit = importing.post("/v1/games/imp-whole/audit?wait=10").json
    assert audit["ok"], audit["mismatches"]


def test_an_imported_game_is_listed_by_its_creation_time(importing):
    older = replay("hermit", "listed", "imp-older", ["ike", "ulf"], created=10)
    newer = replay("hermit", "listed-2", "imp-newer", ["ike", "ulf"], created=20)
    put(importing, newer)
    put(importing, older)
    playing_now = create(importing, "hermit", ["ike", "ulf"])
    for query in ("", "&game=hermit", "&status=finished"):
        listed = importing.get(f"/v1/games?player=ike&order=newest{query}").json["games"]
        running = [playing_now.id] if "finished" not in query else []
        assert [g["id"] for g in listed] == [*running, "imp-newer", "imp-older"]


def test_importing_the_same_game_again_writes_nothing(importing):
    document = replay("coloretto", "twice", "imp-twice")
    assert put(importing, document).status_code == 201
    again = put(importing, document)
    assert again.status_code == 200 and again.json["imported"] is False
    events = importing.get("/v1/games/imp-twice/events?limit=5000").json["events"]
    assert events == document["entries"]


def test_an_id_held_by_another_game_is_a_conflict(importing):
    played_here = create(importing, "hermit", ["ann", "bob"])
    document = replay("hermit", "conflict", played_here.id)
    answer = put(importing, document)
    assert answer.status_code == 409 and answer.json["code"] == "game-exists"
    assert importing.get(played_here.url()).json["version"] == 1
    other = replay("hermit", "conflict-2", "imp-held")
    put(importing, replay("hermit", "conflict", "imp-held"))
    assert put(importing, other).json["code"] == "game-exists"


def _edit_effects(bodies):
    accepted = next(b for b in bodies[40:] if b["type"] == log.ACCEPTED)
    accepted["effects"] = []


TAMPERED = {
    # An edited entry that keeps its old hash: the chain breaks right there.
    "entry edited": (
        lambda d: {**d, "entries": [
            {**e, "seat": 1 - e["seat"]} if e["seq"] == 30 else e for e in d["entries"]
        ]},
        lambda d: 30,
    ),
    # The same, hashed again from there on: the chain holds but the rules judge otherwise.
    "verdict edited and chained again": (
        lambda d: rechained(d, _edit_effects),
        lambda d: next(e["seq"] for e in d["entries"][40:] if e["type"] == log.ACCEPTED),
    ),
    "score edited": (
        lambda d: {**d, "score": {**d["score"], "players": d["score"]["players"][::-1]}},
        lambda d: d["version"],
    ),
    "seed not the committed one": (lambda d: {**d, "seed": "another"}, lambda d: 1),
}


@pytest.mark.parametrize("tamper", sorted(TAMPERED))
def test_a_game_that_does_not_verify_is_refused_naming_the_entry(importing, tamper):
    document = replay("hermit", "tampered", f"imp-{tamper.replace(' ', '-')}")
    edit, broken_at = TAMPERED[tamper]
    answer = put(importing, edit(document))
    assert answer.status_code == 422 and answer.json["code"] == "replay-not-verified"
    seq = broken_at(document)
    assert answer.json["seq"] == seq and f"entry {seq} " in answer.json["detail"]
    assert importing.get(f"/v1/games/{document['id']}").status_code == 404


def test_only_a_finished_game_is_imported(importing):
    document = replay("sieben-siegel", "unfinished", "imp-unfinished")
    running = {**document, "seed": None, "status": "in-progress"}
    cut = rechained(document, lambda bodies: bodies.pop())
    for unfinished in (running, cut):
        answer = put(importing, unfinished)
        assert answer.status_code == 422 and answer.json["code"] == "game-not-finished"
    # Ended early by a forged game-finished entry, with no score to betray it.
    early = rechained(document, lambda bodies: bodies.__delitem__(slice(20, -1)))
    answer = put(importing, {**early, "score": None})
    assert answer.status_code == 422 and answer.json["seq"] == 21
    assert importing.get("/v1/games/imp-unfinished").status_code == 404


def test_only_the_operator_imports(importing, client):
    document = replay("hermit", "operator", "imp-operator")
    table = create(importing, "hermit", ["ann", "bob"]).table
    for headers, status, code in (({}, 401, "token-required"),
                                  (bearer("guess"), 401, "bad-token"),
                                  (table, 401, "bad-token")):
        answer = put(importing, document, headers=headers)
        assert (answer.status_code, answer.json["code"]) == (status, code)
    # The suite's service takes no imports: with no token that is a 401 all the same (the
    # request lacks credentials), with one a 403.
    anonymous = put(client, document, headers={})
    assert (anonymous.status_code, anonymous.json["code"]) == (401, "token-required")
    closed = put(client, document)
    assert (closed.status_code, closed.json["code"]) == (403, "import-disabled")
    assert importing.get("/v1/games/imp-operator").status_code == 404


def test_a_game_is_imported_under_its_own_id_only(importing):
    document = replay("hermit", "ids", "imp-own")
    assert put(importing, document, "imp-other").json["code"] == "id-mismatch"
    braced = {**document, "id": "imp{own}"}
    assert put(importing, braced).json["code"] == "bad-game-id"


def test_a_game_id_is_matched_whole_a_trailing_newline_included(importing):
    document = {**replay("hermit", "newline", "imp-newline"), "id": "imp-newline\n"}
    answer = put(importing, document, "imp-newline%0A")
    assert (answer.status_code, answer.json["code"]) == (400, "bad-game-id")
    assert importing.get("/v1/games/imp-newline%0A").status_code == 404


def test_a_replay_naming_no_id_is_not_imported(importing):
    document = replay("hermit", "no-id", "imp-no-id")
    for nameless in ({k: v for k, v in document.items() if k != "id"}, {**document, "id": None}):
        answer = put(importing, nameless, "imp-no-id")
        assert answer.status_code == 400 and answer.json["code"] == "import-needs-id"
    assert importing.get("/v1/games/imp-no-id").status_code == 404


def test_a_game_stored_here_is_not_imported_again_under_another_id(importing):
    document = replay("keltis-nwnz", "copied", "imp-copied")
    assert put(importing, document).status_code == 201
    copy = {**document, "id": "imp-copy"}
    answer = put(importing, copy)
    assert answer.status_code == 409 and answer.json["code"] == "game-copied"
    assert answer.json["existing"] == "imp-copied" and "imp-copied" in answer.json["detail"]
    assert importing.get("/v1/games/imp-copy").status_code == 404
    assert put(importing, document).status_code == 200  # under its own id, as before


def test_a_game_played_here_is_not_imported_under_another_id(importing):
    played = create(importing, "hermit", ["ann", "bob"], seed="played-here")
    played.play_to_end(random.Random(3))
    document = importing.get(played.url("/replay")).json
    answer = put(importing, {**document, "id": "imp-played-copy"})
    assert answer.status_code == 409 and answer.json["existing"] == played.id


def test_a_claim_left_by_an_import_that_found_its_id_taken_is_taken_over(importing):
    played_here = create(importing, "hermit", ["ann", "bob"])
    document = replay("hermit", "stale", "imp-stale")
    # Its claim made, the import finds the id held by another game: nothing is stored.
    assert put(importing, {**document, "id": played_here.id}).status_code == 409
    assert put(importing, document).status_code == 201


def test_the_same_game_imported_under_two_ids_at_once_is_stored_once(importing):
    document = replay("coloretto", "raced", "imp-raced")
    start = threading.Barrier(AT_ONCE)

    def under(n):
        start.wait(30)
        return put(importing.application.test_client(), {**document, "id": f"imp-raced-{n}"})

    with ThreadPoolExecutor(AT_ONCE) as pool:
        answers = list(pool.map(under, range(AT_ONCE)))
    assert sorted(a.status_code for a in answers) == [201] + [409] * (AT_ONCE - 1)
    stored = next(f"imp-raced-{n}" for n, a in enumerate(answers) if a.status_code == 201)
    assert {a.json["existing"] for a in answers if a.status_code == 409} == {stored}


class CheckedPut(Checked):
    def put(self, url, **kw):
        return self._check("put", url, self.client.put(url, **kw))


def test_every_import_answer_fits_the_openapi_document(importing):
    checked = CheckedPut(importing)
    document = replay("hermit", "openapi", "imp-openapi")
    answers = [put(checked, document), put(checked, document),
               put(checked, {**document, "id": "imp-openapi-2", "seed": "x"}),
               put(checked, replay("hermit", "openapi-2", "imp-openapi")),
               put(checked, {**document, "id": "imp-openapi-4"}),
               put(checked, document, headers={}),
               put(checked, {"format": "tablelog-replay/1"}, "imp-openapi-3")]
    assert [a.status_code for a in answers] == [201, 200, 422, 409, 409, 401, 400]
    assert checked.checked == len(answers)
    refusals = checked.spec["paths"]["/v1/games/{game_id}/replay"]["put"]["responses"]
    assert "`game-exists`" in refusals["409"]["description"]
    assert "`game-copied`" in refusals["409"]["description"]
    assert "`replay-not-verified`" in refusals["422"]["description"]
