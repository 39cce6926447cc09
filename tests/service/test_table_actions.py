"""Table actions through the API, judged by running workers: takebacks, concessions, abandoned
games and turn clocks, each in the log, its refusals 422s naming the rule."""

import random
from datetime import UTC, datetime, timedelta

import pytest
from freezegun import freeze_time

from engine.games import GAMES
from tests.api import create

SEATS = {"coloretto": 3, "hermit": 3, "keltis-card": 2, "keltis-nwnz": 3, "sieben-siegel": 4}


def _players(title):
    return [f"p{s}" for s in range(SEATS[title])]


def _table(client, game, move, wait=5, **body):
    return client.post(game.url(f"/moves?wait={wait}"), json={"move": move, **body},
                       headers=game.table)


def _now(client, game, viewer):
    state = client.get(game.url("/state"), headers=viewer).json
    legal = client.get(game.url("/legal-moves"), headers=viewer).json["moves"]
    score = client.get(game.url("/score"), headers=viewer).json
    return {k: v for k, v in state.items() if k != "version"}, legal, score


@pytest.mark.parametrize("title", sorted(SEATS))
def test_a_table_takeback_leaves_the_game_as_right_after_its_entry(client, title):
    game = create(client, title, _players(title))
    rnd = random.Random(title)
    verdicts = game.play(rnd, 4)
    to = verdicts[1]
    viewers = [game.table, game.seat(0), {}]
    then = [_now(client, game, v) for v in viewers]  # read after all four moves...
    at_to = client.get(game.url(f"/state?at={to}"), headers=game.table).json
    answer = _table(client, game, {"type": "takeback", "to": to})
    assert answer.status_code == 201, answer.json
    effects = answer.json["effects"]
    assert effects[0]["type"] == "taken-back" and effects[0]["to"] == to
    assert len(effects[0]["undone"]) == 2
    state = client.get(game.url("/state"), headers=game.table).json
    assert state["state"] == at_to["state"] and state["to_act"] == at_to["to_act"]
    # History stays as it was: the entries before the takeback show what they showed.
    assert client.get(game.url(f"/state?at={verdicts[-1]}"), headers=game.table).json[
        "state"] == then[0][0]["state"]
    score = client.get(game.url("/score"), headers=game.table).json
    cited = {e for p in score["players"] for c in p["components"] for e in c["events"]}
    assert not cited & set(effects[0]["undone"])


def test_after_a_takeback_every_read_is_the_one_right_after_its_entry(client):
    game = create(client, "coloretto", ["ann", "bob", "cid"])
    rnd = random.Random(1)
    verdicts = game.play(rnd, 2)
    viewers = [game.table, game.seat(0), game.seat(1), {}]
    then = [_now(client, game, v) for v in viewers]
    game.play(rnd, 3)
    assert _table(client, game, {"type": "takeback", "to": verdicts[-1]}).status_code == 201
    assert [_now(client, game, v) for v in viewers] == then


@pytest.mark.parametrize("title", sorted(SEATS))
def test_a_seats_takeback_is_applied_by_the_last_accept(client, title):
    game = create(client, title, _players(title))
    rnd = random.Random(title)
    verdicts = game.play(rnd, 3)
    viewers = [game.table, *(game.seat(s) for s in range(SEATS[title])), {}]
    then = [_now(client, game, v) for v in viewers]
    game.play(rnd, 2)
    proposed = game.move(1, {"type": "takeback", "to": verdicts[-1]})
    assert proposed.status_code == 201
    of = proposed.json["seq"]
    others = [s for s in range(SEATS[title]) if s != 1]
    for seat in others[:-1]:
        assert game.move(seat, {"type": "takeback-accept", "of": of}).status_code == 201
    shown = client.get(game.url("/state"), headers={}).json["state"]["table"]["proposal"]
    assert shown == {"seq": of, "seat": 1, "to": verdicts[-1], "accepted": others[:-1]}
    last = game.move(others[-1], {"type": "takeback-accept", "of": of})
    assert [e["type"] for e in last.json["effects"]] == ["takeback-accepted", "taken-back"]
    assert [_now(client, game, v) for v in viewers] == then


@pytest.mark.parametrize("title", sorted(SEATS))
def test_a_decline_or_a_move_ends_a_seats_proposal_and_changes_nothing(client, title):
    game = create(client, title, _players(title))
    rnd = random.Random(title)
    game.play(rnd, 2)
    before = _now(client, game, game.table)
    of = game.move(0, {"type": "takeback", "to": 1}).json["seq"]
    declined = game.move(1, {"type": "takeback-decline", "of": of})
    assert declined.json["effects"] == [{"type": "takeback-declined", "seat": 1, "of": of}]
    again = game.move(1, {"type": "takeback-accept", "of": of})
    assert again.status_code == 422 and again.json["code"] == "no-such-proposal"
    assert _now(client, game, game.table) == before
    of = game.move(0, {"type": "takeback", "to": 1}).json["seq"]
    game.play(rnd, 1)
    events = client.get(game.url("/events"), headers=game.table).json["events"]
    assert {"type": "takeback-lapsed", "of": of} in events[-1]["effects"]


@pytest.mark.parametrize("who, move, code", [
    ("table", {"type": "takeback", "to": 2}, "takeback-bad-entry"),
    ("table", {"type": "takeback", "to": 99}, "takeback-bad-entry"),
    (0, {"type": "takeback-accept", "of": 2}, "no-such-proposal"),
    ("table", {"type": "claim-timeout"}, "no-turn-clock"),
])
def test_a_refused_table_action_is_a_422_naming_its_rule_and_changes_nothing(
        client, who, move, code):
    game = create(client, "coloretto", ["ann", "bob", "cid"])
    game.play(random.Random(4), 2)
    before = _now(client, game, game.table)
    answer = _table(client, game, move) if who == "table" else game.move(who, move)
    assert answer.status_code == 422 and answer.json["code"] == code, answer.json
    assert _now(client, game, game.table) == before


def test_accepting_your_own_proposal_and_conceding_twice_are_refused(client):
    game = create(client, "hermit", ["ann", "bob", "cid"])
    of = game.move(0, {"type": "takeback", "to": 1}).json["seq"]
    own = game.move(0, {"type": "takeback-accept", "of": of})
    assert own.status_code == 422 and own.json["code"] == "own-proposal"
    assert game.move(2, {"type": "concede"}).status_code == 201
    twice = game.move(2, {"type": "concede"})
    assert twice.status_code == 422 and twice.json["code"] == "seat-conceded"


def test_the_table_names_the_seat_it_concedes_for(client):
    game = create(client, "hermit", ["ann", "bob", "cid"])
    answer = _table(client, game, {"type": "concede"})
    assert answer.status_code == 400 and answer.json["code"] == "seat-required"
    assert _table(client, game, {"type": "concede"}, seat=1).status_code == 201


def test_a_conceded_seat_is_played_by_the_service_to_the_end_and_ranks_last(client):
    game = create(client, "coloretto", ["ann", "bob", "cid"], options={"deals": 1})
    assert game.move(1, {"type": "concede"}).status_code == 201
    game.play_to_end(random.Random(5))
    events = client.get(game.url("/events?limit=1000"), headers=game.table).json["events"]
    played = [e for e in events if e.get("conceded")]
    assert played and {e["seat"] for e in played} == {1}
    score = client.get(game.url("/score")).json
    assert score["final"] is True
    ranked = {p["seat"]: p for p in score["players"]}
    assert ranked[1]["rank"] == 3 and ranked[1]["conceded"] is True


@pytest.mark.parametrize("title", sorted(SEATS))
def test_a_game_ends_when_all_but_one_seat_concede_its_score_final(client, title):
    game = create(client, title, ["a", "b", "c"])
    game.play(random.Random(title), 2)
    assert game.move(0, {"type": "concede"}).status_code == 201
    assert game.move(2, {"type": "concede"}).status_code == 201
    summary = client.get(game.url()).json
    assert summary["status"] == "finished" and summary["seed"]
    assert summary["to_act"] == []
    assert client.get(game.url("/state"), headers=game.table).json["to_act"] == []
    assert client.get(game.url("/legal-moves"), headers=game.table).json["moves"] == []
    assert client.get(game.url("/score")).json["final"] is True


def test_the_table_conceding_on_a_finished_game_is_told_it_is_finished(client):
    game = create(client, "hermit", ["ann", "bob", "cid"])
    assert _table(client, game, {"type": "concede"}, seat=0).status_code == 201
    assert _table(client, game, {"type": "concede"}, seat=2).status_code == 201
    for body in ({}, {"seat": 1}, {"seat": 7}):
        answer = _table(client, game, {"type": "concede"}, **body)
        assert answer.status_code == 409 and answer.json["code"] == "game-finished", answer.json
    late = game.move(1, {"type": "concede"})
    assert late.status_code == 409 and late.json["code"] == "game-finished"
    anonymous = client.post(game.url("/moves"), json={"move": {"type": "concede"}})
    assert anonymous.status_code == 401


def test_an_abandoned_game_is_listed_as_such_reveals_its_seed_and_verifies(client):
    game = create(client, "keltis-card", ["ann", "bob"])
    game.play(random.Random(6), 3)
    answer = _table(client, game, {"type": "abandon", "reason": "the pub closed"})
    assert answer.status_code == 201
    summary = client.get(game.url()).json
    assert summary["status"] == "abandoned" and summary["seed"]
    listed = client.get("/v1/games?status=abandoned&limit=200").json["games"]
    assert game.id in [g["id"] for g in listed]
    assert game.id not in [g["id"] for g in client.get(
        "/v1/games?status=finished&limit=200").json["games"]]
    score = client.get(game.url("/score")).json
    assert score["final"] is False and score["abandoned"] is True
    late = game.move(0, {"type": "abandon"})
    assert late.status_code == 409 and late.json["code"] == "game-finished"
    replay = client.get(game.url("/replay")).json
    verified = client.post("/v1/replays/verify?wait=10", json=replay).json
    assert verified["ok"] is True, verified


def test_every_seat_votes_to_abandon(client):
    game = create(client, "hermit", ["ann", "bob"])
    assert game.move(0, {"type": "abandon"}).json["effects"] == [
        {"type": "abandon-voted", "seat": 0}]
    assert client.get(game.url()).json["status"] == "in-progress"
    assert game.move(1, {"type": "abandon"}).status_code == 201
    assert client.get(game.url()).json["status"] == "abandoned"


def test_a_timeout_is_claimed_only_past_the_turn_limit(client):
    start = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
    with freeze_time(start, tick=True) as clock:
        game = create(client, "coloretto", ["ann", "bob", "cid"], options={"turn_limit_s": 60})
        clock.move_to(start + timedelta(seconds=30))
        early = game.move(1, {"type": "claim-timeout"})
        assert early.status_code == 422 and early.json["code"] == "claim-too-early"
        clock.move_to(start + timedelta(seconds=61))
        claimed = game.move(1, {"type": "claim-timeout"})
    assert claimed.status_code == 201, claimed.json
    assert claimed.json["effects"][0] == {"type": "timed-out", "seats": [0], "limit_s": 60}
    state = client.get(game.url("/state")).json["state"]["table"]
    assert state["conceded"] == [0]
    # The verdict is a function of the log's times: an audit a year later agrees.
    with freeze_time(start + timedelta(days=365), tick=True):
        audit = client.post(game.url("/audit?wait=10")).json
    assert audit["ok"] is True, audit
    thinking = [p["extras"]["thinking_ms"] for p in client.get(game.url("/score")).json[
        "players"]]
    assert thinking[0] >= 60_000  # from its turn (the creation) to the claim


def test_every_title_takes_table_actions_in_its_move_schema():
    for game in GAMES.values():
        moves = {m.type for m in game.spec.moves}
        assert {"takeback", "takeback-accept", "takeback-decline", "concede", "abandon",
                "claim-timeout"} <= moves


def test_the_api_document_describes_every_table_action_and_its_refusals(client):
    document = client.get("/openapi.json").json
    operation = document["paths"]["/v1/games/{game_id}/moves"]["post"]
    said = operation["summary"] + operation.get("description", "")
    for name in ("takeback", "takeback-accept", "takeback-decline", "concede", "abandon",
                 "claim-timeout", "turn_limit_s", "takeback-bad-entry", "own-proposal",
                 "seat-conceded", "claim-too-early", "no-such-proposal"):
        assert f"`{name}`" in said, name
    schemas = document["components"]["schemas"]
    assert any("takeback" in name.lower() for name in schemas), sorted(schemas)[:20]
