"""An event's bad input is a problem+json with a stable code and writes nothing; only the
organiser seats and withdraws; a withdrawn player is seated no more."""

import threading

import pytest

from store import events, keys
from tests.api import bearer

EVENT = {"name": "cup", "game": "hermit", "players": ["ann", "bob", "cid", "dan", "eve"],
         "rounds": 2, "format": "round-robin", "table_size": 3, "points": [3, 1, 0]}


def _events(app):
    return app.extensions["store"].redis.zcard(keys.EVENTS)


def _games(app):
    return app.extensions["store"].redis.zcard(keys.GAMES)


def _organised(client, **change):
    created = client.post("/v1/events", json={**EVENT, "game": "coloretto", **change}).json
    return f"/v1/events/{created['id']}", created["id"], bearer(created["organiser_token"])


@pytest.mark.parametrize(("change", "code"), [
    ({"points": [3, 1]}, "bad-points"),
    ({"points": [1, 3, 0]}, "bad-points"),
    ({"players": ["ann"]}, "too-few-players"),
    ({"table_size": 6}, "bad-table-size"),
    ({"game": "chess"}, "unknown-title"),
    ({"players": ["ann", "ann", "bob"]}, "duplicate-player"),
    ({"options": {"target": 5}}, "bad-options"),
])
def test_bad_input_is_refused_and_writes_nothing(app, client, change, code):
    before = _events(app)
    answer = client.post("/v1/events", json={**EVENT, **change})
    assert answer.status_code == 400 and answer.json["code"] == code, answer.json
    assert answer.mimetype == "application/problem+json"
    assert _events(app) == before


def test_only_the_organiser_seats_and_a_withdrawn_player_sits_no_more(client):
    # Coloretto seats 3 to 5: four players left at tables of 3 leave one a bye.
    created = client.post("/v1/events", json={**EVENT, "game": "coloretto"}).json
    url = f"/v1/events/{created['id']}"
    assert client.post(f"{url}/rounds").json["code"] == "token-required"
    assert client.post(f"{url}/rounds", headers=bearer("nope")).json["code"] == "bad-token"
    organiser = bearer(created["organiser_token"])
    gone = client.post(f"{url}/withdrawals", json={"player": "cid"}, headers=organiser)
    assert gone.status_code == 201 and gone.json["after_round"] == 0
    again = client.post(f"{url}/withdrawals", json={"player": "cid"}, headers=organiser)
    assert again.status_code == 409 and again.json["code"] == "player-withdrawn"
    unknown = client.post(f"{url}/withdrawals", json={"player": "zed"}, headers=organiser)
    assert unknown.status_code == 404 and unknown.json["code"] == "no-such-player"
    seated = client.post(f"{url}/rounds", headers=organiser).json
    assert "cid" not in {p for t in seated["tables"] for p in t["players"]}
    assert [len(t["players"]) for t in seated["tables"]] == [3] and len(seated["byes"]) == 1
    shown = client.get(url).json
    assert shown["withdrawn"] == [{"player": "cid", "after_round": 0}]
    assert client.get("/v1/events/nothing-here").json["code"] == "event-not-found"


def test_nobody_withdraws_from_an_event_that_ended(app, client):
    """An event of one round whose one game was abandoned by its table: its result scores
    nothing, the seed is revealed, and the event takes no more withdrawals or rounds."""
    created = client.post("/v1/events", json={**EVENT, "players": ["ann", "bob", "cid"],
                                              "rounds": 1}).json
    url, organiser = f"/v1/events/{created['id']}", bearer(created["organiser_token"])
    (table,) = client.post(f"{url}/rounds", headers=organiser).json["tables"]
    abandoned = client.post(f"/v1/games/{table['id']}/moves?wait=10",
                            json={"move": {"type": "abandon", "reason": "the pub closed"}},
                            headers=bearer(table["table_token"]))
    assert abandoned.status_code == 201, abandoned.json
    shown = client.get(url).json
    assert shown["status"] == "finished" and shown["seed"] is not None
    assert shown["seated"][0]["tables"][0]["status"] == "abandoned"
    assert {row["points"] for row in client.get(f"{url}/standings").json["standings"]} == {0}
    late = client.post(f"{url}/withdrawals", json={"player": "ann"}, headers=organiser)
    assert late.status_code == 409 and late.json["code"] == "event-complete"
    again = client.post(f"{url}/rounds", headers=organiser)
    assert again.status_code == 409 and again.json["code"] == "event-complete"


def test_a_round_is_seated_only_once_another_change_of_the_event_is_done(app, client):
    """A seating creates its games, then appends them: a change of the event in between would
    leave them outside it. So a seating waits for another change under way, and creates
    nothing meanwhile."""
    url, event_id, organiser = _organised(client)
    answers, before = [], _games(app)
    with app.extensions["store"].events.changing(event_id):  # another request's change
        seating = threading.Thread(target=lambda: answers.append(
            client.post(f"{url}/rounds", headers=organiser)))
        seating.start()
        seating.join(0.3)
        assert seating.is_alive() and _games(app) == before  # waiting, nothing created
    seating.join(10)
    assert answers[0].status_code == 201, answers[0].json
    assert _games(app) == before + len(answers[0].json["tables"])


def test_a_change_waiting_too_long_for_another_is_refused_and_creates_nothing(
        app, client, monkeypatch):
    monkeypatch.setattr(events, "CHANGING_WAIT_S", 0.05)
    url, event_id, organiser = _organised(client)
    before = _games(app)
    with app.extensions["store"].events.changing(event_id):
        seated = client.post(f"{url}/rounds", headers=organiser)
        gone = client.post(f"{url}/withdrawals", json={"player": "cid"}, headers=organiser)
    for refused in (seated, gone):
        assert refused.status_code == 409 and refused.json["code"] == "version-conflict"
    assert _games(app) == before
    assert client.get(url).json["version"] == 1  # nothing appended
    assert client.post(f"{url}/rounds", headers=organiser).status_code == 201  # released
