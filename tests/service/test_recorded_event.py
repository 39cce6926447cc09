"""An event whose tables are played with real cards: each table an ordinary recorded game (no
seed, no commitment), the seating still drawn from the event's seed and checked again, and the
event's export verified whole."""

from tests.api import bearer

DUELS = {"name": "club duels", "game": "hermit", "players": ["ann", "bob", "cid", "dan"],
         "rounds": 1, "format": "round-robin", "table_size": 2, "points": [1, 0],
         "options": {}, "seed": "club-duels", "deal": "recorded"}


def test_an_event_at_real_tables_seats_recorded_games_and_its_export_verifies(client):
    created = client.post("/v1/events", json=DUELS)
    assert created.status_code == 201, created.json
    assert created.json["deal"] == "recorded"
    event, organiser = created.json["id"], bearer(created.json["organiser_token"])
    seated = client.post(f"/v1/events/{event}/rounds", headers=organiser)
    assert seated.status_code == 201, seated.json
    for table in seated.json["tables"]:
        summary = client.get(f"/v1/games/{table['id']}").json
        assert (summary["deal"], summary["seed_commitment"]) == ("recorded", None)
        conceded = client.post(f"/v1/games/{table['id']}/moves?wait=10",
                               json={"seat": 1, "move": {"type": "concede"}},
                               headers=bearer(table["table_token"]))
        assert conceded.status_code == 201, conceded.json
    shown = client.get(f"/v1/events/{event}").json
    assert shown["deal"] == "recorded" and shown["status"] == "finished", shown
    standings = client.get(f"/v1/events/{event}/standings").json["standings"]
    assert sorted(row["player"] for row in standings if row["points"] == 1) == [
        t["players"][0] for t in sorted(seated.json["tables"], key=lambda t: t["players"][0])]
    export = client.get(f"/v1/events/{event}/export").json
    verified = client.post("/v1/events/verify", json=export).json
    assert verified["ok"] and verified["seating_checked"], verified


def test_a_seeded_event_says_so(client):
    created = client.post("/v1/events", json={**DUELS, "deal": "seeded"}).json
    assert created["deal"] == "seeded"
    plain = {k: v for k, v in DUELS.items() if k != "deal"}
    assert client.post("/v1/events", json=plain).json["deal"] == "seeded"
