"""The event page in Chromium at a desktop's size and a phone's (screenshots of both): its
rounds link to their games, its standings are the API's, a point opens its game at the final
entry it cites, a tie-break's tooltip gives its sum; the organiser's view seats a round."""

from __future__ import annotations

import random

import pytest

from engine.events.entries import game_seed
from engine.games import GAMES
from engine.log import SUBMITTED
from engine.playout import play
from tests.api import bearer
from tests.browser.conftest import ready, until
from tests.browser.test_layout import shoot

EVENT = {"name": "pub night", "game": "hermit", "players": ["ann", "bob", "cid", "dan", "eve",
         "fay"], "rounds": 2, "format": "swiss", "table_size": 3, "points": [3, 1, 0],
         "seed": "pub-night"}


def _play(client, table, seed):
    playout = play(GAMES["hermit"], len(table["players"]), seed, random.Random(seed))
    moves = [(e["seat"], e["move"]) for e in playout.entries if e["type"] == SUBMITTED]
    for n, (seat, move) in enumerate(moves, start=1):
        answer = client.post(f"/v1/games/{table['id']}/moves" + ("?wait=10" if n == len(moves)
                                                                 else ""),
                             json={"seat": seat, "move": move},
                             headers=bearer(table["table_token"]))
        assert answer.status_code in (201, 202), answer.json


@pytest.fixture(scope="module")
def event(app):
    client = app.test_client()
    created = client.post("/v1/events", json=EVENT).json
    seated = client.post(f"/v1/events/{created['id']}/rounds",
                         headers=bearer(created["organiser_token"])).json
    for table in seated["tables"]:
        _play(client, table, game_seed(EVENT["seed"], 1, table["table"]))
    return created


def test_the_standings_click_through_to_the_final_entry_at_both_sizes(context, web, client,
                                                                      event):
    page = context.new_page()
    page.goto(f"{web}/events/{event['id']}")
    until(page, "window.tablelog && window.tablelog.ready")
    ranked = client.get(f"/v1/events/{event['id']}/standings").json["standings"]
    shown = page.eval_on_selector_all("#standings tbody tr", "rows => rows.map(r => ["
                                      "r.dataset.player, r.querySelector('[data-field=points]')"
                                      ".firstChild.textContent.trim()])")
    assert shown == [[row["player"], str(row["points"])] for row in ranked]
    buchholz = page.get_attribute(f"tr[data-player='{ranked[0]['player']}']"
                                  " [data-field=opponents-points]", "title")
    assert buchholz.endswith(f"= {ranked[0]['tie_breaks'][0]['value']}")
    shoot(page, "event-standings", "#standings")
    cited = ranked[0]["games"][0]
    page.click(f"tr[data-player='{ranked[0]['player']}'] a.point")
    ready(page, cited["seq"])
    assert page.url.endswith(f"/games/{cited['game']}?at={cited['seq']}")


def test_the_organiser_seats_the_next_round_from_the_page(context, web, event):
    page = context.new_page()
    page.goto(f"{web}/events/{event['id']}#organiser={event['organiser_token']}")
    until(page, "window.tablelog && window.tablelog.ready")
    page.click("#seat-round")
    until(page, "document.querySelectorAll('#seated .links').length === 2")
    until(page, "document.querySelectorAll('#rounds .round').length === 2")
    shoot(page, "event-organiser", "#organiser")
