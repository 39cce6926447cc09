"""A game is served under the rules it was recorded by. Rules this server does not hold are a
422 problem naming them: never a 500, and never a replay under today's rules."""

from dataclasses import replace

import redis

from engine import log
from service import create_app
from store import keys
from tests.api import create

PROBLEM = "application/problem+json"


def _refused_for_unknown_rules(answer, version):
    assert answer.status_code == 422, answer.json
    assert answer.content_type == PROBLEM
    assert answer.json["code"] == "unknown-rules-version"
    assert f"'{version}'" in answer.json["detail"] and "coloretto/1" in answer.json["detail"]


def test_a_game_stored_under_rules_this_server_lacks_is_refused_and_nothing_is_appended(
    client, redis_url
):
    # Created and played by a newer server: this one never posted a move to it.
    newer = create(create_app({"TESTING": True, "REDIS_URL": redis_url}).test_client())
    newer.move(0, {"type": "draw"})
    game = replace(newer, http=client)
    meta = keys.game(game.id).meta
    store = redis.Redis.from_url(redis_url)
    store.hset(meta, "rules_version", "coloretto/99")  # as a newer server would have stored it
    calls = [
        client.get(game.url()),
        client.get(game.url("/state")),
        client.get(game.url("/state?at=2")),
        client.get(game.url("/legal-moves"), headers=game.table),
        client.get(game.url("/score?at=3")),
        client.get(game.url("/replay")),
        game.move(0, {"type": "place", "row": 0}),
        client.post(game.url("/audit?wait=2"), json={}),
    ]
    for answer in calls:
        _refused_for_unknown_rules(answer, "coloretto/99")
    store.hset(meta, "rules_version", "coloretto/1")
    events = client.get(game.url("/events")).json["events"]
    assert [e["type"] for e in events] == [log.CREATED, log.SUBMITTED, log.ACCEPTED]


def test_a_replay_under_rules_this_server_lacks_is_refused_not_replayed(client):
    game = create(client, seed="future")
    game.move(0, {"type": "draw"})
    doc = client.get(game.url("/replay"), headers=game.table).json
    bodies = [{k: v for k, v in e.items() if k != "hash"} for e in doc["entries"]]
    bodies[0]["rules_version"] = "coloretto/99"
    doc["entries"] = log.chain(log.GENESIS, bodies)
    for url in ("/v1/replays/verify", "/v1/replays/views"):
        _refused_for_unknown_rules(client.post(url, json=doc), "coloretto/99")
    doc["entries"][0] = {**doc["entries"][0], "game": "chess"}
    answer = client.post("/v1/replays/views", json=doc)
    assert answer.status_code == 422 and answer.json["code"] == "unknown-rules-version"
    assert "no rules of that game" in answer.json["detail"]



def test_a_game_stored_before_rules_versions_is_read_under_the_first(client, redis_url):
    game = create(client)
    game.move(0, {"type": "draw"})
    redis.Redis.from_url(redis_url).hdel(keys.game(game.id).meta, "rules_version")
    assert client.get(game.url("/state")).status_code == 200
    assert game.move(0, {"type": "place", "row": 0}).status_code == 201
    assert log.rules({"game": "coloretto"}) is log.rules({"game": "coloretto",
                                                          "rules_version": "coloretto/1"})
