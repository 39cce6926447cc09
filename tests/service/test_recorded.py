
"""A Coloretto game recorded at a real table, through the API and its workers: created with
`"deal": "recorded"`, set up and drawn by naming cards, each refusal a stable code, and its
replay, audit, verification and import re-judging every entry."""

import dataclasses
import random
import threading

import redis

from engine import log
from engine.game import TABLE
from engine.games import GAMES
from engine.playout import play, record, transcribe
from service import create_app, handlers
from tests.api import create, unwritten
from tests.engine.transcribed import brief
from tests.service import test_import
from tests.service.test_import import put
from tests.store.conftest import wait_until_blocked
from workers import jobs

START = ["pink", "blue", "grey"]
importing = test_import.importing  # the suite's service, taking imports


def recorded(client, **options):
    return create(client, "coloretto", ["ann", "bob", "cid"], deal="recorded",
                  options=options)


def table(client, game, move, seat=None, wait=5):
    body = {"move": move} if seat is None else {"move": move, "seat": seat}
    return client.post(game.url(f"/moves?wait={wait}"), json=body, headers=game.table)


def entered_at_the_table(client, game, seeded, players, ordered=True) -> tuple[dict, dict]:
    """`game`, recorded at a real table, entered as a scorekeeper would enter the `seeded`
    playout (every submission accepted): it finishes with the seeded game's score (`brief`,
    `ordered` as there), and its replay, saying it was recorded, verifies. Returns the replay
    and the seeded score."""
    for who, move in transcribe(seeded):
        answer = table(client, game, move, None if who == TABLE else who)
        assert answer.status_code == 201, answer.json
    summary = client.get(game.url()).json
    assert summary["status"] == "finished" and summary["deal"] == "recorded"
    assert summary["seed"] is None
    want = seeded.game.score(seeded.final).to_json(players)
    assert brief(client.get(game.url("/score")).json, ordered) == brief(want, ordered)
    document = client.get(game.url("/replay")).json
    assert document["deal"] == "recorded" and document["seed"] is None
    verified = client.post("/v1/replays/verify", json=document).json
    assert verified["ok"] and verified["replay_ok"] and verified["seed_ok"] is None, verified
    return document, want


def setup(client, game, cards=START, removed="green", wait=5):
    return table(client, game, {"type": "setup", "starting_cards": cards,
                                "removed_color": removed}, wait=wait)


def test_a_recorded_game_has_no_seed_nor_commitment_and_says_so(client):
    game = recorded(client)
    assert game.created["deal"] == "recorded" and game.created["seed_commitment"] is None
    summary = client.get(game.url()).json
    assert (summary["deal"], summary["seed_commitment"], summary["seed"]) == (
        "recorded", None, None)
    seeded = create(client, "coloretto", ["ann", "bob", "cid"], seed="s")
    assert seeded.created["deal"] == "seeded" and client.get(seeded.url()).json["deal"] == (
        "seeded")
    # Looked up by id: the newest listed may be games other tests imported, dated later.
    listed = {g["id"]: g["deal"] for g in client.get("/v1/games?order=newest&limit=200").json[
        "games"]}
    assert (listed[seeded.id], listed[game.id]) == ("seeded", "recorded")
    state = client.get(game.url("/state"), headers=game.table).json["state"]
    assert state["setup_needed"] and state["recorded"] and state["collected"] == [{}, {}, {}]


def test_a_recorded_game_takes_no_seed_or_deck(client):
    answer = client.post("/v1/games", json={"game": "coloretto", "players": ["a", "b", "c"],
                                            "deal": "recorded", "seed": "s"})
    assert answer.status_code == 400 and answer.json["code"] == "bad-deal"
    assert "seed" in answer.json["detail"]


def test_a_title_not_yet_recorded_is_refused_at_creation(client, monkeypatch):
    """Every title takes recorded deals today; a title whose spec does not (a new one, until it
    does) is refused at creation: Coloretto's spec, as such a title's, for this test alone."""
    title = GAMES["coloretto"]
    monkeypatch.setattr(title, "spec", dataclasses.replace(title.spec, recorded=False))
    answer = client.post("/v1/games", json={"game": "coloretto", "players": ["a", "b", "c"],
                                            "deal": "recorded"})
    assert answer.status_code == 400 and answer.json["code"] == "deal-not-recorded"


def test_the_deal_is_seeded_or_recorded(client):
    answer = client.post("/v1/games", json={"game": "coloretto", "players": ["a", "b", "c"],
                                            "deal": "dealt"})
    assert answer.status_code == 400


def test_the_table_sets_up_before_the_first_move_and_draws_name_their_cards(client):
    game = recorded(client)
    early = game.move(0, {"type": "draw", "card": "pink"})
    assert early.status_code == 422 and early.json["code"] == "setup-first"
    by_seat = game.move(0, {"type": "setup", "starting_cards": START, "removed_color": "green"})
    assert by_seat.status_code == 422 and by_seat.json["code"] == "setup-by-table"
    done = setup(client, game)
    assert done.status_code == 201, done.json
    assert done.json["effects"] == [{"type": "deal-started", "deal": 1,
                                     "starting_cards": START, "first_seat": 0}]
    again = setup(client, game)
    assert again.status_code == 422 and again.json["code"] == "setup-recorded"
    assert f"entry {done.json['seq']}" in again.json["detail"]
    bare = game.move(0, {"type": "draw"})
    assert bare.status_code == 422 and bare.json["code"] == "card-required"
    legal = client.get(game.url("/legal-moves"), headers=game.seat(0)).json["moves"]
    assert {"seat": 0, "move": {"type": "draw", "card": "joker"}} in legal
    assert not any(m["move"].get("card") == "green" for m in legal)
    drew = game.move(0, {"type": "draw", "card": "joker"})
    assert drew.status_code == 201 and drew.json["effects"] == [
        {"type": "drew", "seat": 0, "card": "joker"}]


def test_a_card_seen_too_often_or_left_out_is_a_422_naming_where_and_changes_nothing(client):
    game = recorded(client)
    setup(client, game)
    seqs = []
    for seat, row in ((0, 0), (1, 1), (2, 2)):
        drew = game.move(seat, {"type": "draw", "card": "joker"})
        seqs.append(drew.json["seq"])
        assert game.move(seat, {"type": "place", "row": row}).status_code == 201
    before = client.get(game.url("/state"), headers=game.table).json
    fourth = unwritten(client, game, lambda: game.move(0, {"type": "draw", "card": "joker"}),
                       "card-seen")
    assert f"entries {', '.join(map(str, seqs))}" in fourth.json["detail"]
    unwritten(client, game, lambda: game.move(0, {"type": "draw", "card": "green"}),
              "card-not-in-game")
    after = client.get(game.url("/state"), headers=game.table).json
    assert after["state"] == before["state"]


def judged_here(client, game, seat, move):
    """A move posted to a store no worker reads, then judged by a drain run here."""
    posted = game.move(seat, move, wait=0)
    assert posted.status_code == 202, posted.json
    assert jobs.drain(linger_s=0) == 1
    return posted


def three_jokers_drawn(client, game):
    """Set up, and each seat has drawn a joker (the title's three); seat 2's place waits."""
    assert setup(client, game, wait=0).status_code == 202
    assert jobs.drain(linger_s=0) == 1
    for seat, row in ((0, 0), (1, 1)):
        judged_here(client, game, seat, {"type": "draw", "card": "joker"})
        judged_here(client, game, seat, {"type": "place", "row": row})
    judged_here(client, game, 2, {"type": "draw", "card": "joker"})
    waiting = game.move(2, {"type": "place", "row": 2}, wait=0)
    assert waiting.status_code == 202
    return waiting.json["seq"]


def test_a_card_named_too_often_behind_a_move_awaiting_its_verdict_is_refused_after_it(
        quiet_url):
    """A fourth joker, drawn by seat 0 while seat 2's place still waits for its verdict: only
    the state after that place says it is seat 0's turn and the card is seen too often, so
    the web waits for that verdict, then refuses the draw with nothing written."""
    client = create_app({"TESTING": True, "REDIS_URL": quiet_url}).test_client()
    game = recorded(client)
    place = three_jokers_drawn(client, game)
    answers = []
    fourth = threading.Thread(target=lambda: answers.append(
        game.move(0, {"type": "draw", "card": "joker"}, wait=0)))
    fourth.start()
    quiet = redis.Redis.from_url(quiet_url)
    wait_until_blocked(quiet, "xread", db=quiet_url.rsplit("/", 1)[1])  # the draw waits
    assert jobs.drain(linger_s=0) == 1  # the place judged
    fourth.join(10)
    refused = answers[0]
    assert refused.status_code == 422 and refused.json["code"] == "card-seen", refused.json
    assert "seq" not in refused.json and "receipt" not in refused.json
    logged = client.get(game.url("/events?limit=100"), headers=game.table).json["events"]
    assert logged[-1]["type"] == "move-accepted" and logged[-1]["of"] == place


def test_a_card_named_too_often_behind_a_verdict_that_does_not_come_is_judged_by_a_worker(
        quiet_url, monkeypatch):
    """Past `CAUGHT_UP_S` without the verdict before it, the move is written and its
    worker rejects it, as any refused move: kept in the log."""
    monkeypatch.setattr(handlers, "CAUGHT_UP_S", 0.05)
    client = create_app({"TESTING": True, "REDIS_URL": quiet_url}).test_client()
    game = recorded(client)
    three_jokers_drawn(client, game)
    written = game.move(0, {"type": "draw", "card": "joker"}, wait=0)
    assert written.status_code == 202
    assert jobs.drain(linger_s=0) == 2
    verdict = client.get(game.url(f"/moves/{written.json['seq']}"), headers=game.table).json
    assert verdict["status"] == "rejected" and verdict["code"] == "card-seen"


def test_a_seeded_game_takes_no_setup_and_no_named_card(client):
    game = create(client, "coloretto", ["ann", "bob", "cid"], seed="seeded")
    refused = setup(client, game)
    assert refused.status_code == 422 and refused.json["code"] == "not-recorded"
    named = game.move(0, {"type": "draw", "card": "pink"})
    assert named.status_code == 422 and named.json["code"] == "not-recorded"


def test_a_seeded_game_entered_at_the_table_scores_the_same_and_verifies(client, importing):
    seeded = play(GAMES["coloretto"], 3, "by-hand", random.Random("by-hand"), {"deals": 1})
    game = recorded(client, deals=1)
    document, want = entered_at_the_table(client, game, seeded, ["ann", "bob", "cid"])
    assert document["seed_commitment"] is None
    assert document["entries"][-1]["type"] == "game-finished"
    assert document["entries"][-1]["deal"] == "recorded"
    stepped = client.post("/v1/replays/views?from=1&to=3", json=document)
    assert stepped.status_code == 200, stepped.json
    needed = [step["state"]["setup_needed"] for step in stepped.json["steps"]]
    assert needed[0] and not needed[-1]
    audit = client.post(game.url("/audit?wait=10"), json={"claimed": {"0": 1}}).json
    assert audit["ok"] and audit["claims"][0]["recomputed"] == want["players"][0]["total"]

    again = put(importing, document, game_id=game.id)  # here already: the same game
    assert again.status_code == 200, again.json


def test_a_tampered_recorded_replay_is_named_at_the_entry_that_breaks(client):
    title = GAMES["coloretto"]
    seeded = play(title, 3, "tamper", random.Random("tamper"), {"deals": 1})
    game = recorded(client, deals=1)
    for who, move in list(transcribe(seeded))[:6]:
        assert table(client, game, move, None if who == "table" else who).status_code == 201
    document = client.get(game.url("/replay"), headers=game.table).json
    assert document["deal"] == "recorded"
    draw = next(e for e in document["entries"] if e["type"] == "move-submitted"
                and e["move"]["type"] == "draw")
    draw["move"]["card"] = "green"  # the colour left out
    verified = client.post("/v1/replays/verify", json=document).json
    assert not verified["ok"] and verified["mismatches"][0]["seq"] == draw["seq"]


def test_a_recorded_game_from_elsewhere_is_imported_once_it_verifies(importing):
    title = GAMES["coloretto"]
    seeded = play(title, 4, "elsewhere", random.Random("elsewhere"), {"deals": 1})
    kept = record(title, 4, {"deals": 1}, list(transcribe(seeded)))
    bodies = [{k: v for k, v in e.items() if k != "hash"} for e in kept.entries]
    bodies[0]["at"] = "2026-12-01T10:00:00.000Z"
    entries = log.chain(log.GENESIS, bodies)
    document = {
        "format": "tablelog-replay/1", "id": "recorded-imported", "game": "coloretto",
        "players": bodies[0]["players"], "options": bodies[0]["options"],
        "rules_version": bodies[0]["rules_version"], "status": "finished",
        "version": len(entries), "seed_commitment": None, "seed": None, "deal": "recorded",
        "entries": entries, "score": title.score(kept.final).to_json(bodies[0]["players"]),
    }
    answer = put(importing, document)
    assert answer.status_code == 201, answer.json
    summary = importing.get("/v1/games/recorded-imported").json
    assert (summary["status"], summary["deal"], summary["seed"]) == ("finished", "recorded",
                                                                     None)
    served = importing.get("/v1/games/recorded-imported/replay").json
    served.pop("head")
    assert served == document
    audit = importing.post("/v1/games/recorded-imported/audit?wait=10").json
    assert audit["ok"], audit["mismatches"]
    forged = {**document, "entries": [*entries[:-2], {**entries[-2], "effects": []},
                                      entries[-1]]}
    refused = put(importing, {**forged, "id": "recorded-forged"})
    assert refused.status_code == 422


def test_a_table_takeback_to_before_the_setup_lets_the_table_name_it_again(client):
    game = recorded(client)
    setup(client, game)
    back = table(client, game, {"type": "takeback", "to": 1})
    assert back.status_code == 201, back.json
    state = client.get(game.url("/state"), headers=game.table).json["state"]
    assert state["setup_needed"] and state["collected"] == [{}, {}, {}]
    again = setup(client, game, ["yellow", "blue", "grey"])
    assert again.status_code == 201, again.json

