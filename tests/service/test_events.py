"""Events end to end through the API, with the suite's running workers: a 12-player, 4-round
Swiss Coloretto event at tables of 4 and a 10-player, 3-round Hermit event (tables of 3 and 4),
every game played to its end move by move. Their standings equal a computation made here from
the games' own final scores, every number's citation resolves to its game's entry and signed
head, the seating is drawn again from the revealed seed, and a tampered game in the export is
named by the verification."""

from __future__ import annotations

import copy
import random
from collections import defaultdict
from itertools import combinations

import pytest
from openskill.models import PlackettLuce

from bench.local import diskless_redis
from engine import signatures
from engine.events.entries import game_seed
from engine.events.seating import seat_round
from engine.games import GAMES
from engine.log import SUBMITTED, seed_commitment
from engine.playout import play
from service import create_app
from tests.api import bearer

COLORETTO = {"name": "club cup", "game": "coloretto", "players": [f"c{n:02d}" for n in range(12)],
             "rounds": 4, "format": "swiss", "table_size": 4, "points": [6, 4, 2, 0],
             "options": {"deals": 1}, "seed": "coloretto-cup"}
HERMIT = {"name": "hermit night", "game": "hermit", "players": [f"h{n}" for n in range(10)],
          "rounds": 3, "format": "swiss", "table_size": 4, "points": [5, 3, 1, 0],
          "options": {}, "seed": "hermit-night"}


def _play(client, event, round_, table):
    """Play a table's game to its end through the API: the moves of a playout of the same
    deal (its seed drawn from the event's, as the seating draws it), each posted by the table's
    token, judged by the workers."""
    game = GAMES[event["game"]]
    seed = game_seed(event["seed"], round_, table["table"])
    assert seed_commitment(seed) == table["seed_commitment"]
    playout = play(game, len(table["players"]), seed, random.Random(seed), event["options"])
    moves = [(e["seat"], e["move"]) for e in playout.entries if e["type"] == SUBMITTED]
    url, token = f"/v1/games/{table['id']}/moves", bearer(table["table_token"])
    for n, (seat, move) in enumerate(moves, start=1):
        last = n == len(moves)
        answer = client.post(url + ("?wait=10" if last else ""),
                             json={"seat": seat, "move": move}, headers=token)
        assert answer.status_code == (201 if last else 202), answer.json
    summary = client.get(f"/v1/games/{table['id']}").json
    assert summary["status"] == "finished"


def _run(client, event):
    created = client.post("/v1/events", json=event)
    assert created.status_code == 201, created.json
    event_id, organiser = created.json["id"], bearer(created.json["organiser_token"])
    rounds = []
    for round_ in range(1, event["rounds"] + 1):
        seated = client.post(f"/v1/events/{event_id}/rounds", headers=organiser)
        assert seated.status_code == 201, seated.json
        rounds.append(seated.json)
        if round_ == 1:  # the next round waits for this one's games
            early = client.post(f"/v1/events/{event_id}/rounds", headers=organiser)
            assert early.status_code == 409 and early.json["code"] == "round-in-progress"
            assert set(early.json["games"]) == {t["id"] for t in seated.json["tables"]}
        for table in seated.json["tables"]:
            _play(client, event, round_, table)
    return event_id, rounds


@pytest.fixture(scope="module", params=[COLORETTO, HERMIT], ids=["coloretto", "hermit"])
def played(request, app):
    client = app.test_client()
    event = request.param
    event_id, rounds = _run(client, event)
    return client, event, event_id, rounds


def _expected(client, event, rounds):
    """The standings computed here, from each game's own final score (`GET .../score`), by
    the rules docs/events.md gives."""
    points_by_place, lowest = event["points"], GAMES[event["game"]].lowest_wins
    results = []
    for seated in rounds:
        for table in seated["tables"]:
            score = client.get(f"/v1/games/{table['id']}/score").json
            assert score["final"]
            results.append({p["name"]: (p["total"], p["rank"]) for p in score["players"]})
    points = defaultdict(int)
    for result in results:
        for name, (_, rank) in result.items():
            points[name] += points_by_place[rank - 1] if rank < len(result) else points_by_place[-1]
    for seated in rounds:
        for name in seated["byes"]:
            points[name] += points_by_place[(len(points_by_place) + 1) // 2 - 1]
    buchholz, own = defaultdict(int), defaultdict(int)
    for result in results:
        for name, (total, _) in result.items():
            buchholz[name] += sum(points[o] for o in result if o != name)
            own[name] += -total if lowest else total
    level = {p: (points[p], buchholz[p], own[p]) for p in event["players"]}
    won = defaultdict(int)
    for result in results:
        for a, b in combinations(result, 2):
            if level[a] == level[b] and result[a][1] != result[b][1]:
                won[a if result[a][1] < result[b][1] else b] += 1
    key = {p: (*level[p], won[p]) for p in event["players"]}
    return {p: {"points": points[p], "tie_breaks": [buchholz[p], own[p], won[p]],
                "rank": 1 + sum(key[q] > key[p] for q in event["players"])}
            for p in event["players"]}


def test_the_standings_equal_a_computation_from_the_games_final_scores(played):
    client, event, event_id, rounds = played
    answer = client.get(f"/v1/events/{event_id}/standings").json
    got = {row["player"]: {"points": row["points"], "rank": row["rank"],
                           "tie_breaks": [t["value"] for t in row["tie_breaks"]]}
           for row in answer["standings"]}
    assert got == _expected(client, event, rounds)
    assert [row["rank"] for row in answer["standings"]] == sorted(
        row["rank"] for row in answer["standings"])
    lines = client.get(f"/v1/events/{event_id}/standings",
                       headers={"Accept": "application/x-ndjson"})
    assert lines.mimetype == "application/x-ndjson"
    assert len(lines.data.splitlines()) == len(event["players"])


def test_the_tables_are_within_the_titles_seats_and_everyone_plays_every_round(played):
    client, event, _, rounds = played
    for seated in rounds:
        sizes = sorted(len(t["players"]) for t in seated["tables"])
        assert sizes == ([4, 4, 4] if event["game"] == "coloretto" else [3, 3, 4])
        assert sorted(p for t in seated["tables"] for p in t["players"]) == sorted(
            event["players"])
        assert seated["byes"] == []


def test_every_number_cites_its_games_entry_and_signed_head(played):
    client, _, event_id, _ = played
    keys = client.get("/v1/keys").json["keys"]
    rows = client.get(f"/v1/events/{event_id}/standings").json["standings"]
    cited = 0
    for row in rows:
        assert row["points"] == sum(g["points"] for g in row["games"])
        for game in row["games"]:
            entry = client.get(f"/v1/games/{game['game']}/events?after={game['seq'] - 1}"
                               "&limit=1").json["events"][0]
            assert (entry["seq"], entry["hash"], entry["type"]) == (
                game["seq"], game["hash"], "game-finished")
            head = game["head"]
            assert (head["game"], head["seq"], head["hash"]) == (
                game["game"], game["seq"], game["hash"])
            assert signatures.receipt_problem(head, keys) is None
            cited += 1
        own = row["tie_breaks"][1]
        assert own["value"] == sum(part["value"] for part in own["from"])
    assert cited == sum(len(r["players"]) for r in client.get(
        f"/v1/events/{event_id}").json["seated"] for r in r["tables"])


def test_the_seating_is_drawn_again_from_the_revealed_seed(played):
    client, event, event_id, rounds = played
    shown = client.get(f"/v1/events/{event_id}").json
    assert shown["status"] == "finished" and shown["seed"] == event["seed"]
    entries = client.get(f"/v1/events/{event_id}/export").json["entries"]
    seated_at = [n for n, e in enumerate(entries) if e["type"] == "round-seated"]
    for index, seated in zip(seated_at, rounds, strict=True):
        tables, byes = seat_round(entries[:index], seated["round"], event["seed"])
        assert tables == [t["players"] for t in seated["tables"]] and byes == seated["byes"]


def test_after_round_gives_the_standings_as_they_stood(played):
    client, event, event_id, rounds = played
    first = client.get(f"/v1/events/{event_id}/standings?after_round=1").json["standings"]
    assert all(len(row["games"]) == 1 for row in first)
    assert sum(row["points"] for row in first) == sum(
        sum(event["points"][:len(t["players"]) - 1]) + event["points"][-1]
        for t in rounds[0]["tables"])
    past = client.get(f"/v1/events/{event_id}/standings?after_round={event['rounds'] + 1}")
    assert past.status_code == 404 and past.json["code"] == "no-such-round"


def test_the_export_verifies_and_a_tampered_game_is_named(played):
    client, _, event_id, _ = played
    document = client.get(f"/v1/events/{event_id}/export").json
    report = client.post("/v1/events/verify", json=document).json
    assert report["ok"] and report["seating_checked"] and report["difference"] is None
    tampered = copy.deepcopy(document)
    game_id = sorted(document["games"])[0]
    replay = tampered["games"][game_id]
    accepted = next(e for e in replay["entries"] if e["type"] == "move-accepted")
    accepted["effects"] = []
    report = client.post("/v1/events/verify", json=tampered).json
    assert not report["ok"]
    assert report["difference"]["game"] == game_id
    assert report["difference"]["entry"] == accepted["seq"]


def test_a_players_rating_history_is_reproduced_from_their_games_in_order(played):
    client, event, event_id, rounds = played
    finished = []
    for seated in rounds:
        for table in seated["tables"]:
            score = client.get(f"/v1/games/{table['id']}/score").json
            last = client.get(f"/v1/games/{table['id']}/events?after=0&limit=5000"
                              ).json["events"][-1]
            names = [p["name"] for p in sorted(score["players"], key=lambda p: p["seat"])]
            ranks = [p["rank"] for p in sorted(score["players"], key=lambda p: p["seat"])]
            finished.append((last["at"], table["id"], names, ranks))
    model, current, mine = PlackettLuce(), {}, []
    handle = event["players"][0]
    for _, game_id, names, ranks in sorted(finished):
        teams = [[current.get(n, model.rating())] for n in names]
        for name, (rating,) in zip(names, model.rate(teams, ranks=ranks), strict=True):
            current[name] = rating
            if name == handle:
                mine.append((game_id, rating.mu, rating.sigma))
    answer = client.get(f"/v1/players/{handle}").json
    assert [(h["game"], h["after"]["mu"], h["after"]["sigma"]) for h in answer["history"]
            if h["event"] == event_id] == mine
    assert answer["ratings"][event["game"]]["ordinal"] == current[handle].ordinal()
    assert [e["id"] for e in answer["events"]] == [event_id]
    assert client.get("/v1/players/nobody-at-all").json["code"] == "no-such-player"


def test_an_ended_event_moves_to_another_server_whole(played, app):
    client, event, event_id, _ = played
    document = client.get(f"/v1/events/{event_id}/export").json
    operator = bearer("the-operator")
    with diskless_redis() as port:
        other = create_app({"TESTING": True, "REDIS_URL": f"redis://127.0.0.1:{port}/0",
                            "IMPORT_TOKEN": "the-operator"}).test_client()
        url = f"/v1/events/{event_id}/export"
        assert other.put(url, json=document).json["code"] == "token-required"
        wrong = copy.deepcopy(document)
        wrong["entries"][1]["round"] = 2
        refused = other.put(url, json=wrong, headers=operator)
        assert refused.status_code == 422 and refused.json["code"] == "event-not-verified"
        assert other.get(f"/v1/events/{event_id}").json["code"] == "event-not-found"
        imported = other.put(url, json=document, headers=operator)
        assert imported.status_code == 201, imported.json
        assert imported.json["games"] == len(document["games"])
        receipt = imported.json["receipt"]
        assert (receipt["game"], receipt["seq"], receipt["hash"]) == (
            event_id, document["entries"][-1]["seq"], document["entries"][-1]["hash"])
        assert signatures.receipt_problem(receipt, other.get("/v1/keys").json["keys"]) is None
        assert other.put(url, json=document, headers=operator).status_code == 200
        assert other.get(f"/v1/events/{event_id}/standings").json["standings"] == \
            document["standings"]
        log = other.get(f"/v1/events/{event_id}/log?after=1").json
        assert log["entries"] == document["entries"][1:]
        assert log["next"] == document["entries"][-1]["seq"]
