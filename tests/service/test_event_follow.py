"""An event's log followed as a game's is: what lands in it reaches a follower, a game's
result within a heartbeat of the game's end, recorded by the follower's own wait."""

import orjson

from tests.api import bearer

NDJSON = {"Accept": "application/x-ndjson"}
DUELS = {"name": "duels", "game": "hermit", "players": ["ann", "bob", "cid", "dan"],
         "rounds": 1, "format": "round-robin", "table_size": 2, "points": [1, 0],
         "options": {}, "seed": "duels"}


def test_a_follower_gets_the_events_log_then_its_rounds_and_results_as_they_land(client):
    created = client.post("/v1/events", json=DUELS)
    assert created.status_code == 201, created.json
    event, organiser = created.json["id"], bearer(created.json["organiser_token"])
    stream = client.get(f"/v1/events/{event}/log?follow=1", headers=NDJSON)
    assert stream.content_type == "application/x-ndjson"
    lines = (orjson.loads(line) for chunk in stream.response for line in chunk.splitlines()
             if line.strip())
    assert next(lines)["type"] == "event-created"
    seated = client.post(f"/v1/events/{event}/rounds", headers=organiser)
    assert seated.status_code == 201, seated.json
    assert next(lines)["type"] == "round-seated"
    table = seated.json["tables"][0]
    conceded = client.post(f"/v1/games/{table['id']}/moves?wait=10",
                           json={"seat": 0, "move": {"type": "concede"}},
                           headers=bearer(table["table_token"]))
    assert conceded.status_code == 201, conceded.json
    # Nobody else reads the event: the follower's wait records the result itself.
    result = next(lines)
    assert (result["type"], result["game"]) == ("result-recorded", table["id"])
    stream.close()


def test_following_an_event_takes_a_stream_type_and_an_event_there(client):
    created = client.post("/v1/events", json=DUELS).json
    refused = client.get(f"/v1/events/{created['id']}/log?follow=1",
                         headers={"Accept": "application/json"})
    assert refused.status_code == 406 and refused.json["code"] == "not-acceptable"
    missing = client.get("/v1/events/nothing-here/log?follow=1", headers=NDJSON)
    assert missing.status_code == 404 and missing.json["code"] == "event-not-found"
