"""Games outside events rated for the handles their seats were created with: a player's rating
history is reproduced from those games in the order they ended."""

from __future__ import annotations

import random

from openskill.models import PlackettLuce

from engine.games import GAMES
from engine.log import SUBMITTED
from engine.playout import play
from store import keys
from tests.api import create

HANDLES = ["rated-zoe", "rated-yan", "rated-xia"]


def _played(client, seed, handles):
    rated = {"handles": handles} if handles else {}
    game = create(client, "hermit", ["z", "y", "x"], seed=seed, **rated)
    playout = play(GAMES["hermit"], 3, seed, random.Random(seed))
    for entry in playout.entries:
        if entry["type"] == SUBMITTED:
            answer = client.post(game.url("/moves?wait=10"),
                                 json={"seat": entry["seat"], "move": entry["move"]},
                                 headers=game.table)
            assert answer.status_code == 201, answer.json
    return game


def test_a_rated_games_handles_get_its_rating_changes_in_order(client):
    games = [_played(client, "rated-1", HANDLES), _played(client, "rated-2", HANDLES[::-1])]
    _played(client, "unrated", None)  # no handles: rated for nobody
    model, current, mine = PlackettLuce(), {}, []
    for game in games:
        created = client.get(game.url("/events?limit=1")).json["events"][0]
        score = client.get(game.url("/score")).json
        ranks = [p["rank"] for p in sorted(score["players"], key=lambda p: p["seat"])]
        teams = [[current.get(h, model.rating())] for h in created["handles"]]
        for handle, (rating,) in zip(created["handles"], model.rate(teams, ranks=ranks),
                                     strict=True):
            current[handle] = rating
            if handle == HANDLES[0]:
                mine.append((game.id, rating.mu, rating.sigma))
    answer = client.get(f"/v1/players/{HANDLES[0]}").json
    assert [(h["game"], h["after"]["mu"], h["after"]["sigma"]) for h in answer["history"]] == mine
    assert [g["event"] for g in answer["games"]] == [None, None]
    assert answer["ratings"]["hermit"]["games"] == 2 and answer["events"] == []


def test_handles_one_a_seat_each_once(app, client):
    before = app.extensions["store"].redis.zcard(keys.GAMES)
    for handles in (["a", "b"], ["a", "a", "b"]):
        answer = client.post("/v1/games", json={"game": "hermit", "players": ["z", "y", "x"],
                                                "handles": handles})
        assert answer.status_code == 400 and answer.json["code"] == "bad-handles"
    assert app.extensions["store"].redis.zcard(keys.GAMES) == before
