"""Every title played through the pages in a real browser, as a new user would.

A game is created from the home page's form; each seat plays from its own link by clicking the
table; a spectator page follows the game live meanwhile. The viewer is then stepped back with
the keyboard and the table drawn at an early entry is checked against the API's state there,
for a seat and for the spectator; a score component is clicked and its entries are marked; a
false claim is audited; and the spectator page is checked to hold no card of any seat's hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.games import GAMES
from tests.api import Game, bearer
from tests.browser.conftest import ready, until
from tests.browser.pages import cards_on, check_table, strings

SHORT = {
    "coloretto": ("ann, bob, cid", {"deals": 1}),
    "hermit": ("ann, bob, cid", {}),
    "keltis-card": ("ann, bob", {}),
    "keltis-nwnz": ("ann, bob", {}),
    "sieben-siegel": ("ann, bob, cid", {"rounds": 1}),
}
CLICKS = 6


def create_from_home(context, web, name):
    home = context.new_page()
    home.goto(web + "/")
    players, options = SHORT[name]
    home.select_option("#new-game", name)
    home.fill("#new-players", players)
    for option, value in options.items():
        home.fill(f"#option-{option}", str(value))
    home.fill("#new-seed", f"browser-{name}")
    home.click("#create button[type=submit]")
    home.wait_for_selector(".seat-link a")
    seats = home.eval_on_selector_all(".seat-link a", "els => els.map(a => a.href)")
    spectator = home.eval_on_selector(".spectator-link a", "a => a.href")
    # The new game heads the list, newest first.
    home.wait_for_selector(f"#games tbody tr:first-child[data-id='{game_id(spectator)}']")
    home.close()
    return seats, spectator


def game_id(link):
    return link.split("/games/")[1].split("#")[0].split("?")[0]


def token(link):
    return link.split("#seat=")[1]


def click_a_move(page):
    """Play whatever the page offers first: a place on the table, else a listed move."""
    page.bring_to_front()  # a tab behind others is not laid out, so it cannot be clicked
    before = page.evaluate("tablelog.verdicts")
    offered = page.locator("#table .playable, #predict, #moves button").first
    offered.click()
    if page.locator("#chooser button").count():
        page.locator("#chooser button").first.click()
    until(page, f"tablelog.verdicts > {before}")
    assert page.locator("#last-verdict").get_attribute("class") == "good", (
        page.locator("#last-verdict").text_content())


def play_by_clicking(client, pages, url, moves):
    for _ in range(moves):
        to_act = client.get(url).json["to_act"]
        page = pages[to_act[0]]
        version = client.get(url).json["version"]
        until(page, f"tablelog.version >= {version}")
        click_a_move(page)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_short_game_through_the_pages(context, web, client, name):
    seat_links, spectator_link = create_from_home(context, web, name)
    url = f"/v1/games/{game_id(spectator_link)}"
    spectator = context.new_page()
    spectator.goto(spectator_link)
    ready(spectator)
    pages = []
    for link in seat_links:
        page = context.new_page()
        page.goto(link)
        pages.append(ready(page))
    assert "seat=" not in spectator.url and all("?" not in link for link in seat_links)

    play_by_clicking(client, pages, url, CLICKS)
    version = client.get(url).json["version"]
    until(spectator, f"tablelog.version === {version}", timeout=15_000)
    ready(spectator, version)

    # Step back with the keyboard and compare the table with the API's state at that entry.
    spectator.bring_to_front()
    early = 4
    spectator.keyboard.press("Home")
    ready(spectator, 1)
    for _ in range(early - 1):
        spectator.keyboard.press("ArrowRight")
    ready(spectator, early)
    assert spectator.url.endswith(f"?at={early}")
    checked = check_table(spectator, name, client.get(f"{url}/state?at={early}").json["state"])
    mine = pages[0]
    mine.bring_to_front()
    mine.goto(seat_links[0].replace("#", f"?at={early}#"))
    ready(mine, early)
    own = client.get(f"{url}/state?at={early}", headers=bearer(token(seat_links[0]))).json
    assert check_table(mine, name, own["state"]) >= checked
    spectator.bring_to_front()
    spectator.keyboard.press("End")
    ready(spectator, version)
    check_table(spectator, name, client.get(f"{url}/state").json["state"])

    # The spectator's page holds no card of a hand beyond what is public.
    public = strings(client.get(f"{url}/state").json["state"])
    public += strings(client.get(f"{url}/events?limit=5000").json["events"])
    assert not (cards_on(spectator) - public)
    assert spectator.locator("#table [data-path^='/you']").count() == 0
    hands = strings([client.get(f"{url}/state", headers=bearer(token(link))).json["state"]["you"]
                     for link in seat_links])
    assert bool(hands) == (name != "coloretto"), "every title but Coloretto has hidden hands"

    # A score component marks its lines and takes the log to them. Hermit scores only
    # once a quartet is taken: the seats play on (through the API) until something scores.
    game = Game(client, {"id": game_id(spectator_link)},
                {seat: token(link) for seat, link in enumerate(seat_links)})
    for _ in range(200):
        if any(p["components"] for p in client.get(f"{url}/score").json["players"]):
            break
        play_one(client, game)
    # Its moves reach the page live: until the score of the last is drawn, the panel holds an
    # earlier one, whose components a redraw replaces between reading one and clicking it.
    version = client.get(url).json["version"]
    ready(spectator, version)
    until(spectator,
        f"document.getElementById('score').dataset.at === '{version}'", timeout=15_000)
    component = spectator.locator(".component:not([data-events=''])").first
    component.wait_for(timeout=15_000)
    lines = [int(e) for e in component.get_attribute("data-lines").split(",")]
    component.click()
    until(spectator, f"document.querySelectorAll('#log li.marked').length === {len(lines)}")
    marked = spectator.eval_on_selector_all("#log li.marked", "els => els.map(e => +e.dataset.seq)")
    assert marked == lines

    # Audit a claim five points too high: the report says so.
    total = client.get(f"{url}/score").json["players"][0]["total"]
    spectator.fill("#claims input[data-seat='0']", str(total + 5))
    spectator.click("#run-audit")
    difference = spectator.locator(".claim[data-seat='0'] .difference")
    difference.wait_for()
    assert difference.text_content() == "+5"
    assert spectator.locator("#report-ok").get_attribute("data-ok") == "true"


def test_a_rejected_move_is_shown_with_its_rule(context, web, client):
    seat_links, _ = create_from_home(context, web, "coloretto")
    url = f"/v1/games/{game_id(seat_links[0])}"
    page = context.new_page()
    # The page learns nothing more from the follow stream, so what it offers goes stale.
    page.route("**/events?follow=1*", lambda route: route.abort())
    context.expected_errors = ("net::ERR_FAILED",)
    page.goto(seat_links[0])
    ready(page)
    page.wait_for_selector("#table .playable[data-target='deck']")
    drew = client.post(f"{url}/moves?wait=5", json={"move": {"type": "draw"}},
                       headers=bearer(token(seat_links[0])))
    assert drew.status_code == 201
    page.click("#table .playable[data-target='deck']")
    verdict = page.locator("#last-verdict.bad")
    verdict.wait_for()
    assert "was rejected" in verdict.text_content()
    rejected = page.locator("#log li.move-rejected")
    rejected.wait_for()
    assert "ann's draw was rejected: " in rejected.text_content()


def test_a_replay_opens_from_the_picker_and_a_tampered_one_dropped_is_flagged(context, web, client):
    seat_links, spectator_link = create_from_home(context, web, "coloretto")
    game = Game(client, {"id": game_id(spectator_link)},
                {seat: token(link) for seat, link in enumerate(seat_links)})
    game.created["table_token"] = None
    play_to_end(client, game)
    viewer = context.new_page()
    viewer.goto(spectator_link)
    ready(viewer)
    with viewer.expect_download() as download:
        viewer.click("#download")
    document = json.loads(Path(download.value.path()).read_text())
    assert document["format"] == "tablelog-replay/1" and document["seed"] == "browser-coloretto"

    opened = upload(context, web, document)
    assert opened.locator("#report-ok").get_attribute("data-ok") == "true"
    version = len(document["entries"])
    ready(opened, version)
    check_table(opened, "coloretto", client.get(game.url(f"/state?at={version}")).json["state"])
    opened.keyboard.press("Home")
    ready(opened, 1)
    check_table(opened, "coloretto", client.get(game.url("/state?at=1")).json["state"])

    take = next(e for e in document["entries"]
                if e["type"] == "move-accepted" and e["effects"][0]["type"] == "took")
    take["effects"][0]["cards"] = ["+2", "+2", "+2"]
    flagged = upload(context, web, document, dropped=True)
    assert flagged.locator("#report-ok").get_attribute("data-ok") == "false"
    assert flagged.locator(f".mismatch[data-seq='{take['seq']}']").count() >= 1
    assert flagged.locator(f"#log li.broken[data-seq='{take['seq']}']").count() == 1
    assert f"entry {take['seq']} (hash)" in flagged.locator("#message").text_content()


def upload(context, web, document, dropped=False):
    """Open a replay document on /replay, through the file picker or dropped on its zone."""
    page = context.new_page()
    page.goto(web + "/replay")
    text = json.dumps(document)
    if dropped:
        files = page.evaluate_handle("""(text) => {
            const files = new DataTransfer();
            files.items.add(new File([text], "replay.json", {type: "application/json"}));
            return files;
        }""", text)
        page.dispatch_event("#drop", "dragover", {"dataTransfer": files})
        assert "over" in page.locator("#drop").get_attribute("class")
        page.dispatch_event("#drop", "drop", {"dataTransfer": files})
    else:
        page.set_input_files("#replay-file", files=[{
            "name": "replay.json", "mimeType": "application/json", "buffer": text.encode()}])
    page.wait_for_selector("#report-ok")
    return ready(page)


def play_one(client, game) -> bool:
    """The first seat to act plays its first legal move with its own token; False when over."""
    to_act = client.get(game.url()).json["to_act"]
    if not to_act:
        return False
    legal = client.get(game.url("/legal-moves"), headers=game.seat(to_act[0])).json["moves"]
    assert game.move(to_act[0], legal[0]["move"]).status_code == 201
    return True


def play_to_end(client, game):
    for _ in range(1000):
        if not play_one(client, game):
            return
    raise AssertionError("the game did not end")


def test_the_home_page_lists_newest_first_and_filters(context, web, client):
    older = [client.post("/v1/games", json={"game": g, "players": ["ann", "bob", "cid"]}).json
             for g in ("hermit", "sieben-siegel", "hermit")]
    home = context.new_page()
    home.goto(web + "/")
    home.wait_for_selector(f"#games tbody tr:first-child[data-id='{older[-1]['id']}']")
    ids = home.eval_on_selector_all("#games tbody tr", "els => els.map(e => e.dataset.id)")
    assert ids[:3] == [g["id"] for g in reversed(older)]
    home.select_option("#filter-game", "sieben-siegel")
    home.wait_for_selector(f"#games tbody tr:first-child[data-id='{older[1]['id']}']")
    assert set(column(home, 2)) == {"sieben-siegel"}
    home.select_option("#filter-status", "finished")
    gone = older[1]["id"]
    until(home, f"!document.querySelector(\"#games tr[data-id='{gone}']\")")
    assert set(column(home, 4)) <= {"finished"}


def column(page, number):
    return page.eval_on_selector_all(
        f"#games tbody tr[data-id] td:nth-child({number})", "els => els.map(e => e.textContent)"
    )
