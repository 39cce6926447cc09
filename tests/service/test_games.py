"""Creating, listing and reading games over HTTP, against a real Redis and real workers."""

import hashlib
import random

import orjson
import pytest
import redis
from freezegun import freeze_time

from store import keys
from tests.api import bearer, create
from tests.conftest import ROOT


def test_create_answers_the_contract_shape(client):
    answer = client.post(
        "/v1/games", json={"game": "coloretto", "players": ["ann", "bob", "cid"], "seed": "s"}
    )
    assert answer.status_code == 201
    body = answer.json
    assert set(body) >= {"id", "game", "players", "options", "seats", "table_token",
                         "seed_commitment", "version"}
    assert body["seed_commitment"] == hashlib.sha256(b"s").hexdigest()
    assert [s["seat"] for s in body["seats"]] == [0, 1, 2]
    assert [s["name"] for s in body["seats"]] == ["ann", "bob", "cid"]
    assert len({s["token"] for s in body["seats"]} | {body["table_token"]}) == 4
    assert body["version"] == 1
    assert answer.headers["Location"] == f"/v1/games/{body['id']}"


def test_seed_is_hidden_until_the_game_is_finished(client):
    game = create(client, seed="secret-seed")
    summary = client.get(game.url()).json
    assert summary["seed"] is None and summary["status"] == "in-progress"
    assert "secret-seed" not in client.get(game.url("/replay"), headers=game.table).text
    assert "secret-seed" not in client.get(game.url("/events"), headers=game.table).text


def test_without_a_seed_one_is_drawn_and_committed(client):
    first, second = create(client), create(client)
    assert first.created["seed_commitment"] != second.created["seed_commitment"]


def test_summary_names_whose_turn_and_round(client):
    game = create(client)
    summary = client.get(game.url()).json
    assert summary["to_act"] == [0] and summary["round"] == 1 and summary["version"] == 1
    assert summary["players"] == ["ann", "bob", "cid"]


def test_timestamps_are_iso_utc_with_z(client):
    with freeze_time("2026-11-22 12:00:00"):
        game = create(client)
    created = client.get(game.url("/events")).json["events"][0]
    assert created["at"] == "2026-11-22T12:00:00.000Z"
    assert client.get(game.url()).json["created_at"] == "2026-11-22T12:00:00.000Z"


def test_an_explicit_deck_is_dealt_as_given(client):
    deck = ["blue"] * 9 + ["brown"] * 9 + ["grey"] * 9 + ["green"] * 9 + ["orange"] * 9 + \
        ["pink"] * 9 + ["yellow"] * 9 + ["+2"] * 10 + ["joker"] * 3
    game = create(client, players=["a", "b", "c", "d"], deck=deck)
    state = client.get(game.url("/state"), headers=game.table).json["state"]
    assert state["collected"] == [{"blue": 1}, {"brown": 1}, {"grey": 1}, {"green": 1}]


def test_a_deck_that_is_not_a_permutation_is_refused(client):
    answer = client.post("/v1/games", json={
        "game": "coloretto", "players": ["a", "b", "c"], "deck": ["blue"] * 76})
    assert answer.status_code == 400
    assert answer.content_type == "application/problem+json"
    assert answer.json["code"] == "bad-deck"
    assert "permutation" in answer.json["detail"]


def test_an_empty_deck_or_both_deck_and_decks_are_refused(client):
    """CONTRACT.md section 3: `deck` "must be a permutation of exactly the cards that shuffle
    would have produced; anything else is a 400", `deck` being "short for a one-element
    `decks`"."""
    coloretto = ["blue"] * 9 + ["brown"] * 9 + ["grey"] * 9 + ["green"] * 9 + \
        ["orange"] * 9 + ["pink"] * 9 + ["yellow"] * 9 + ["+2"] * 10 + ["joker"] * 3
    for dealt in ({"deck": []}, {"deck": coloretto, "decks": [coloretto]}):
        answer = client.post("/v1/games", json={
            "game": "coloretto", "players": ["a", "b", "c", "d"], **dealt})
        assert answer.status_code == 400, dealt
        assert answer.json["code"] == "bad-deck", dealt
    assert "not both" in answer.json["detail"]


def test_bad_creations_are_problems(client):
    cases = [
        ({"game": "chess", "players": ["a", "b"]}, "invalid-request"),
        ({"game": "coloretto", "players": ["a", "b"]}, "bad-player-count"),
        ({"game": "coloretto", "players": ["a", "b", "c"], "options": {"speed": 1}},
         "bad-options"),
        ({"game": "coloretto", "players": ["a", "b", "c", "d"],
          "options": {"removed_color": "blue"}}, "bad-options"),
        ({"players": ["a", "b", "c"]}, "invalid-request"),
    ]
    for body, code in cases:
        answer = client.post("/v1/games", json=body)
        assert answer.status_code == 400, body
        assert answer.json["code"] == code, body
    broken = client.post("/v1/games", data="{nope", content_type="application/json")
    assert broken.status_code == 400 and broken.json["code"] == "invalid-json"


def test_unknown_game_is_404_problem(client):
    for path in ("", "/state", "/events", "/score", "/replay", "/legal-moves", "/moves/2"):
        answer = client.get(f"/v1/games/nope{path}")
        assert answer.status_code == 404, path
        assert answer.content_type == "application/problem+json"
        assert answer.json["code"] == "game-not-found"


def test_list_filters_and_pages(client):
    mine = [create(client, players=["zed", "yan", "xia"]) for _ in range(3)]
    other = create(client, players=["zed", "yan", "xia", "wu"])
    found = client.get("/v1/games?player=wu&limit=10").json["games"]
    assert [g["id"] for g in found] == [other.id]
    ids, cursor = [], None
    while True:
        page = client.get("/v1/games?player=xia&limit=2" + (f"&cursor={cursor}" if cursor else ""))
        ids += [g["id"] for g in page.json["games"]]
        cursor = page.json["next"]
        if cursor is None:
            break
    assert ids == [g.id for g in mine] + [other.id]
    assert client.get("/v1/games?status=finished&player=xia").json["games"] == []
    assert client.get("/v1/games?status=done").json["code"] == "invalid-request"
    first = client.get("/v1/games?player=xia&limit=2&cursor=").json["games"]
    assert [g["id"] for g in first] == ids[:2]
    refused = client.get("/v1/games?cursor=1e9x").json
    assert refused["errors"] == {"cursor": ["not a cursor given by a previous page"]}


def test_list_newest_first_pages_back_in_time(client):
    games = [create(client, players=["qi", "ro", "su"]) for _ in range(5)]
    ids, cursor = [], None
    while True:
        tail = f"&cursor={cursor}" if cursor else ""
        page = client.get("/v1/games?player=su&order=newest&limit=2" + tail).json
        ids += [g["id"] for g in page["games"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert ids == [g.id for g in reversed(games)]
    assert client.get("/v1/games?order=random").json["code"] == "invalid-request"


def test_the_list_is_oldest_first_unless_asked_newest_as_documented(client):
    games = [create(client, players=["ova", "pim"], game="hermit") for _ in range(3)]
    listed = {order: [g["id"] for g in client.get(f"/v1/games?player=ova{order}").json["games"]]
              for order in ("", "&order=oldest", "&order=newest")}
    assert listed[""] == listed["&order=oldest"] == [g.id for g in games]
    assert listed["&order=newest"] == [g.id for g in reversed(games)]
    row = next(line for line in (ROOT / "docs" / "api.md").read_text().splitlines()
               if line.startswith("| `GET /v1/games` |"))
    assert "`order` `oldest` (the default: oldest first" in row
    assert "`newest` (newest first" in row


def test_each_viewer_reads_its_own_view_and_once_the_game_is_over_the_tables(client):
    game = create(client, "hermit", players=["ana", "ben"], seed="viewed")
    states = [client.get(game.url("/state"), headers=h).json["state"]
              for h in (game.table, game.seat(0), game.seat(1), {})]
    assert len({orjson.dumps(s) for s in states}) == 4  # each sees other hands
    game.play_to_end(random.Random("viewed"))
    over = [client.get(game.url("/state"), headers=h).json for h in (game.table, game.seat(0), {})]
    assert over[0]["status"] == "finished" and over[0] == over[1] == over[2]


def test_spectator_state_has_no_deck_and_table_state_has_it(client):
    game = create(client)
    spectator = client.get(game.url("/state")).json["state"]
    seat = client.get(game.url("/state"), headers=game.seat(1)).json["state"]
    table = client.get(game.url("/state"), headers=game.table).json["state"]
    assert "deck" not in spectator and "deck" not in seat and len(table["deck"]) == 65
    assert seat["you"] == {}


def test_forged_token_is_401_even_for_reading(client):
    game = create(client)
    answer = client.get(game.url("/state"), headers=bearer("forged"))
    assert answer.status_code == 401 and answer.json["code"] == "bad-token"
    other = create(client)
    answer = client.get(game.url("/state"), headers=other.table)
    assert answer.status_code == 401


def test_boards_and_health_and_openapi(client):
    assert client.get("/v1/boards/coloretto").json["code"] == "no-such-board"
    board = client.get("/v1/boards/keltis-nwnz")
    assert board.status_code == 200
    assert board.json["stand_in"] is True and len(board.json["cells"]) == 57
    assert len(board.json["finals"]) == 5
    health = client.get("/healthz")
    assert health.status_code == 200 and health.json["redis"] == "ok"
    assert health.json["workers"] >= 1
    spec = client.get("/openapi.json").json
    assert spec["openapi"].startswith("3.1")
    assert "/v1/games/{game_id}/moves" in spec["paths"]
    assert "coloretto_take" in spec["components"]["schemas"]


def test_filters_read_their_own_index_and_check_each_status(client, app):
    running = create(client, "hermit", players=["ana", "ben"])
    done = create(client, players=["ana", "ben", "cy"], seed="listed", options={"deals": 1})
    done.play_to_end(random.Random("listed"))
    # An index entry written for a game whose finishing append then failed: listed no more.
    app.extensions["store"].games.finishing(running.id)

    def ids(query):
        listed = client.get(f"/v1/games?order=newest&limit=200&{query}").json["games"]
        return [g["id"] for g in listed]

    assert done.id in ids("status=finished") and running.id not in ids("status=finished")
    assert running.id in ids("game=hermit") and done.id not in ids("game=hermit")
    assert done.id in ids("game=coloretto&status=finished")
    assert running.id in ids("status=in-progress") and done.id not in ids("status=in-progress")


@pytest.mark.parametrize("order", ["oldest", "newest"])
def test_games_created_at_the_same_time_are_each_listed_once(client, redis_url, order):
    games = [create(client, players=[f"tie-{order}", "ren", "sol"]) for _ in range(5)]
    index = redis.Redis.from_url(redis_url)
    # As if all five were created in the same instant: pages must end among them.
    index.zadd(keys.GAMES, {g.id: 2_000_000_000.5 for g in games})
    ids, cursor, pages = [], None, 0
    while pages < 10:
        tail = f"&cursor={cursor}" if cursor else ""
        page = client.get(f"/v1/games?player=tie-{order}&order={order}&limit=2" + tail).json
        ids += [g["id"] for g in page["games"]]
        cursor, pages = page["next"], pages + 1
        if cursor is None:
            break
    assert sorted(ids) == sorted(g.id for g in games) and len(ids) == len(games)
