"""Submitting moves: verdicts, waiting, idempotency, version conflicts and who may act."""

import random
import re
import threading

from flask import g

from schemas import api
from service import handlers, web
from service.web import read
from tests.api import bearer, create, unstamped


def test_a_move_without_wait_is_pending_then_judged(client):
    game = create(client)
    answer = game.move(0, {"type": "draw"}, wait=0)
    assert answer.status_code == 202
    body = answer.json
    assert body.pop("receipt")["seq"] == 2 and body == {"seq": 2, "status": "pending"}
    for _ in range(200):
        judged = client.get(game.url("/moves/2"), headers=game.seat(0)).json
        if judged["status"] != "pending":
            break
    assert judged["status"] == "accepted"
    assert judged["effects"][0]["type"] == "drew"


def test_wait_answers_201_with_effects(client):
    game = create(client)
    answer = game.move(0, {"type": "draw"})
    assert answer.status_code == 201
    body = answer.json
    assert body["status"] == "accepted" and body["seq"] == 2 and body["version"] == 3
    assert body["code"] is None and body["detail"] is None
    assert body["effects"][0]["type"] == "drew"


def test_an_illegal_move_is_422_with_the_rule_and_stays_in_the_log(client):
    game = create(client)
    answer = game.move(1, {"type": "draw"})
    assert answer.status_code == 422
    assert answer.content_type == "application/problem+json"
    assert answer.json["code"] == "not-your-turn"
    assert "seat 0's turn" in answer.json["detail"]
    events = client.get(game.url("/events"), headers=game.table).json["events"]
    assert [e["type"] for e in events] == ["game-created", "move-submitted", "move-rejected"]
    assert events[2]["of"] == 2 and events[2]["code"] == "not-your-turn"
    state = client.get(game.url("/state")).json
    assert state["to_act"] == [0] and state["state"]["drawn"] is None


def test_rejection_reasons_are_only_for_the_submitter(client):
    game = create(client)
    game.move(1, {"type": "take", "row": 0})
    seen_by_other = client.get(game.url("/moves/2"), headers=game.seat(2)).json
    seen_by_self = client.get(game.url("/moves/2"), headers=game.seat(1)).json
    assert seen_by_other["status"] == "rejected" and seen_by_other["code"] is None
    assert seen_by_self["code"] == "not-your-turn"


def test_malformed_moves_are_400_and_append_nothing(client):
    game = create(client)
    malformed = ({"type": "fly"}, {"type": "take"}, {"type": "take", "row": "x"},
                 {"type": "draw", "extra": 1}, {"type": "take", "row": -1})
    for move in malformed * 2:  # the second time, as its validation was remembered
        answer = game.move(0, move)
        assert answer.status_code == 400, move
        assert answer.json["code"] == "invalid-move", move
        if move["type"] != "fly":
            assert answer.json["errors"], move
    assert client.get(game.url()).json["version"] == 1
    for _ in range(2):  # a refused body is not remembered (service.web.read)
        answer = client.post(game.url("/moves"), json={"mov": {}}, headers=game.seat(0))
        assert answer.status_code == 400 and answer.json["code"] == "invalid-request"
        assert "mov" in answer.json["errors"]


def test_posting_needs_a_valid_token_for_the_right_seat(client):
    game = create(client)
    anonymous = client.post(game.url("/moves"), json={"move": {"type": "draw"}})
    assert anonymous.status_code == 401 and anonymous.json["code"] == "token-required"
    forged = client.post(game.url("/moves"), json={"move": {"type": "draw"}},
                         headers=bearer("forged-token"))
    assert forged.status_code == 401 and forged.json["code"] == "bad-token"
    wrong_scheme = client.post(game.url("/moves"), json={"move": {"type": "draw"}},
                               headers={"Authorization": "Basic abc"})
    assert wrong_scheme.status_code == 401
    as_other = client.post(game.url("/moves"), json={"seat": 1, "move": {"type": "draw"}},
                           headers=game.seat(0))
    assert as_other.status_code == 403 and as_other.json["code"] == "not-your-seat"
    assert client.get(game.url()).json["version"] == 1


def test_the_table_token_acts_for_any_seat_but_must_name_it(client):
    game = create(client)
    unnamed = client.post(game.url("/moves"), json={"move": {"type": "draw"}},
                          headers=game.table)
    assert unnamed.status_code == 400 and unnamed.json["code"] == "seat-required"
    bad_seat = client.post(game.url("/moves"), json={"seat": 7, "move": {"type": "draw"}},
                           headers=game.table)
    assert bad_seat.status_code == 400 and bad_seat.json["code"] == "no-such-seat"
    named = client.post(game.url("/moves?wait=5"), json={"seat": 0, "move": {"type": "draw"}},
                        headers=game.table)
    assert named.status_code == 201


def test_expected_version_conflict_is_409_and_appends_nothing(client):
    game = create(client)
    assert game.move(0, {"type": "draw"}, expected_version=1).status_code == 201
    stale = game.move(0, {"type": "place", "row": 0}, expected_version=1)
    assert stale.status_code == 409
    assert stale.json["code"] == "version-conflict" and stale.json["version"] == 3
    assert client.get(game.url()).json["version"] == 3
    fresh = game.move(0, {"type": "place", "row": 0}, expected_version=3)
    assert fresh.status_code == 201


def test_same_idempotency_key_and_body_returns_the_first_answer(client):
    game = create(client)
    key = {"Idempotency-Key": "k-1", **game.seat(0)}
    first = client.post(game.url("/moves?wait=5"), json={"move": {"type": "draw"}}, headers=key)
    again = client.post(game.url("/moves?wait=5"), json={"move": {"type": "draw"}}, headers=key)
    assert first.status_code == again.status_code == 201
    assert unstamped(first.json) == unstamped(again.json)
    assert client.get(game.url()).json["version"] == 3
    other = client.post(game.url("/moves"), json={"move": {"type": "take", "row": 0}},
                        headers=key)
    assert other.status_code == 422 and other.json["code"] == "idempotency-key-reused"
    assert client.get(game.url()).json["version"] == 3



def test_a_query_or_header_read_before_is_read_again_as_it_is_now(client):
    """The moves route remembers what a query string and a header load to (service.web.read):
    a refusal is not remembered, and another value is loaded afresh."""
    game = create(client)
    for _ in range(2):
        refused = client.post(game.url("/moves?wait=99"), json={"move": {"type": "draw"}},
                              headers=game.seat(0))
        assert refused.status_code == 400 and "wait" in refused.json["errors"]
    assert client.post(game.url("/moves?wait=0"), json={"move": {"type": "draw"}},
                       headers=game.seat(0)).status_code == 202
    keyed = {"Idempotency-Key": "k-2", **game.seat(0)}
    first = client.post(game.url("/moves?wait=5"), json={"move": {"type": "place", "row": 0}},
                        headers=keyed)
    again = client.post(game.url("/moves?wait=5"), json={"move": {"type": "place", "row": 0}},
                        headers=keyed)
    assert first.status_code == 201 and unstamped(again.json) == unstamped(first.json)
    another = client.post(game.url("/moves?wait=5"), json={"move": {"type": "draw"}},
                          headers={**keyed, "Idempotency-Key": "k-3"})
    assert another.status_code == 422 and another.json["code"] == "not-your-turn"

def test_many_clients_on_one_game_get_one_order_and_one_acceptance(app):
    """Eight clients race for the same turn: every post is logged once, exactly one wins."""
    game = create(app.test_client())
    answers = []

    def post():
        answers.append(game.move(0, {"type": "draw"}, wait=8))

    threads = [threading.Thread(target=post) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [201] + [422] * 7
    assert {a.json["code"] for a in answers if a.status_code == 422} == {"must-place"}
    events = app.test_client().get(game.url("/events"), headers=game.table).json["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    submitted = [e["seq"] for e in events if e["type"] == "move-submitted"]
    judged = [e["of"] for e in events if e["type"] in ("move-accepted", "move-rejected")]
    assert len(submitted) == 8 and judged == submitted


def test_posting_to_a_finished_game_is_409(client):
    game = create(client, seed="short", options={"deals": 1})
    game.play_to_end(random.Random(3))
    answer = game.move(0, {"type": "draw"})
    assert answer.status_code == 409 and answer.json["code"] == "game-finished"


def names(text: str, card: str) -> bool:
    """Whether `text` names `card` as a word: a signature's or key's base64url may hold the
    same two characters inside it (`...KV1u...`), which names nothing."""
    return re.search(rf"(?<![A-Za-z0-9_-]){re.escape(card)}(?![A-Za-z0-9_-])", text) is not None


def test_a_refused_move_never_shows_another_seat_the_card_it_named(client):
    """Seat 1 tries to play out of turn: that it holds the card is its own secret."""
    game = create(client, "keltis-card", ["ann", "bob"], seed="refused")
    card = client.get(game.url("/state"), headers=game.seat(1)).json["state"]["you"]["hand"][0]
    refused = game.move(1, {"type": "play", "card": card})
    assert refused.status_code == 422 and refused.json["code"] == "not-your-turn"
    for others in (game.seat(0), {}):
        for path in ("/events", "/replay", f"/moves/{refused.json['seq']}"):
            assert not names(client.get(game.url(path), headers=others).text, card), path
    own = client.get(game.url("/events"), headers=game.seat(1)).json["events"]
    assert own[1]["move"] == {"type": "play", "card": card}
    assert client.get(game.url("/events"), headers=game.table).json["events"][1]["move"]


def test_an_accepted_move_is_public_in_its_verdict_entry(client):
    game = create(client, "keltis-card", ["ann", "bob"], seed="accepted")
    card = client.get(game.url("/state"), headers=game.seat(0)).json["state"]["you"]["hand"][0]
    assert game.move(0, {"type": "discard", "card": card}).status_code == 201
    events = client.get(game.url("/events")).json["events"]
    assert events[1]["type"] == "move-submitted" and events[1]["move"] is None
    assert events[2]["type"] == "move-accepted"
    assert events[2]["move"] == {"type": "discard", "card": card}


def test_a_body_read_again_is_a_copy_of_its_own(app):
    """What a body loads to is remembered (service.web.read): each request still gets its own."""
    body = b'{"seat": 0, "move": {"type": "draw"}}'
    for _ in range(2):
        with app.test_request_context("/v1/games/x/moves", method="POST", data=body,
                                      content_type="application/json"):
            g.largest_body = len(body)
            loaded = read(api.Submission)
            assert loaded == {"seat": 0, "move": {"type": "draw"}}
            loaded["move"]["type"] = "changed by this request"


def test_a_large_body_is_loaded_afresh_and_never_remembered(client):
    """Only bodies and moves of at most api.REMEMBERED_BODY bytes are remembered: what clients
    send cannot fill the web's memory."""
    game = create(client)
    large = {"type": "draw", "padding": "x" * api.REMEMBERED_BODY}
    remembered = web._loaded_body.cache_info(), handlers._move_errors.cache_info()
    for _ in range(2):
        answer = game.move(0, large)
        assert answer.status_code == 400 and answer.json["code"] == "invalid-move"
        assert "padding" in answer.json["errors"]
    assert (web._loaded_body.cache_info(), handlers._move_errors.cache_info()) == remembered
