"""Players by handle: rated games listed as they finish, and a player's rating history
reproduced exactly from their games in order, each change citing the game's final entry."""

import random
import time

from openskill.models import PlackettLuce

from tests.api import create


def handled(client, title, players, handles, **body):
    return create(client, title, players, handles=handles, **body)


def conceded(game, *seats):
    for seat in seats:
        answer = game.move(seat, {"type": "concede"})
        assert answer.status_code == 201, answer.json


def player(client, handle, games):
    """The player's page once `games` rated games of theirs are listed (each is listed by the
    worker right after the verdict that finishes it)."""
    deadline = time.monotonic() + 10
    while True:
        answer = client.get(f"/v1/players/{handle}")
        if answer.status_code == 200 and len(answer.json["history"]) == games:
            return answer.json
        assert time.monotonic() < deadline, answer.json
        time.sleep(0.05)


def test_a_players_rating_history_is_reproduced_from_their_games_in_order(client):
    played = handled(client, "coloretto", ["ann", "bob", "cid"],
                     {"0": "ann-r", "1": "bob-r", "2": "cid-r"}, seed="rated-1")
    played.play_to_end(random.Random("rated-1"))
    duel = handled(client, "hermit", ["bob", "ann"], {"0": "bob-r", "1": "ann-r"})
    conceded(duel, 0)
    # Dan gave no handle: ann and cid are rated between themselves, by their places.
    partly = handled(client, "coloretto", ["cid", "dan", "ann"], {"0": "cid-r", "2": "ann-r"})
    conceded(partly, 0, 1)
    unrated = create(client, "coloretto", ["ann", "bob", "cid"])
    conceded(unrated, 1, 2)
    abandoned = handled(client, "coloretto", ["ann", "bob", "cid"],
                        {"0": "ann-r", "1": "bob-r", "2": "cid-r"})
    assert client.post(abandoned.url("/moves?wait=5"), json={"move": {"type": "abandon"}},
                       headers=abandoned.table).status_code == 201

    ann = player(client, "ann-r", 3)
    assert [(c["title"], c["game"]) for c in ann["history"]] == [
        ("coloretto", played.id), ("coloretto", partly.id), ("hermit", duel.id)]
    model, ratings = PlackettLuce(), {}
    for game in (played, duel, partly):
        score = client.get(game.url("/score"), headers=game.table).json
        handles = game.created["handles"]
        seats = sorted(int(s) for s in handles)
        title = client.get(game.url()).json["game"]
        before = [ratings.get((title, handles[str(s)]), (model.mu, model.sigma)) for s in seats]
        ranks = {p["seat"]: p["rank"] for p in score["players"]}
        after = model.rate([[model.create_rating(list(b))] for b in before],
                           ranks=[ranks[s] for s in seats])
        for s, team in zip(seats, after, strict=True):
            ratings[(title, handles[str(s)])] = (team[0].mu, team[0].sigma)
    for title in ("coloretto", "hermit"):
        mu, sigma = ratings[(title, "ann-r")]
        assert ann["ratings"][title] == {"mu": mu, "sigma": sigma, "display": mu - 3 * sigma,
                                         "games": 2 if title == "coloretto" else 1}
    assert ann["history"][1]["opponents"] == ["cid-r"] and ann["history"][1]["rank"] == 1
    for change in ann["history"]:
        game_url = f"/v1/games/{change['game']}"
        last = client.get(f"{game_url}/events?after={change['seq'] - 1}").json["events"]
        assert [e["type"] for e in last] == ["game-finished"]
        assert last[0]["seq"] == change["seq"]
        assert client.get(game_url).json["version"] == change["seq"]
    assert client.get("/v1/players/dan").json["code"] == "no-such-player"


def test_a_handle_for_a_seat_the_game_has_not_or_given_twice_is_refused(client):
    for handles, code in (({"3": "ann-x"}, "bad-handles"), ({"0": "ann-x", "1": "ann-x"},
                          "bad-handles"), ({"0": "Ann X"}, "invalid-request")):
        answer = client.post("/v1/games", json={"game": "coloretto", "handles": handles,
                                                "players": ["ann", "bob", "cid"]})
        assert answer.status_code == 400 and answer.json["code"] == code, answer.json
