"""Seats that come back: a game created in the browser shows every link with a copy button,
opening in a tab of its own; the browser keeps the links it created or opened, and a game page
opened again offers them; and no token ever reaches the server but as an Authorization header.
"""

from __future__ import annotations

import logging

import pytest

from tests.api import create
from tests.browser.conftest import ready, until
from tests.browser.test_pages import game_id


@pytest.fixture
def requests_seen(context):
    """Every URL the browser asks the server for, and every Authorization header it sends."""
    seen = {"urls": [], "authorizations": []}

    def asked(request):
        seen["urls"].append(request.url)
        if "authorization" in request.headers:
            seen["authorizations"].append(request.headers["authorization"])

    context.on("request", asked)
    return seen


def create_in_the_browser(context, web):
    home = context.new_page()
    home.goto(web + "/")
    home.select_option("#new-game", "hermit")
    home.fill("#new-players", "ann, bob, cid")
    home.click("#create button[type=submit]")
    home.wait_for_selector(".seat-link a")
    return home


def test_created_links_are_copied_opened_apart_and_offered_again(context, web, caplog,
                                                                  requests_seen):
    caplog.set_level(logging.INFO)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    home = create_in_the_browser(context, web)
    seat_links = home.eval_on_selector_all(".seat-link a", "els => els.map(a => a.href)")
    table_link = home.eval_on_selector(".table-link a", "a => a.href")
    table_token = home.locator(".table-token code").text_content()
    assert len(seat_links) == 3 and table_link.endswith(f"#table={table_token}")
    tokens = [link.split("#seat=")[1] for link in seat_links] + [table_token]

    # Every link opens in a tab of its own and has a button that copies it; so has the token.
    for item in home.locator(".links li").all():
        assert item.locator("button.copy").count() == 1
        if item.locator("a").count():
            assert item.locator("a").get_attribute("target") == "_blank"
    copy = ".seat-link[data-seat='1'] button.copy"
    home.click(copy)
    until(home, f"document.querySelector(\"{copy}\").textContent === 'copied'")
    assert home.evaluate("navigator.clipboard.readText()") == seat_links[1]
    home.click(".table-token button.copy")
    until(home, "document.querySelector('.table-token button.copy').textContent === 'copied'")
    assert home.evaluate("navigator.clipboard.readText()") == table_token
    with context.expect_page() as opened:
        home.click(".seat-link[data-seat='0'] a")
    ready(opened.value)
    assert home.locator(".seat-link").count() == 3, "the home page keeps every link"
    assert opened.value.locator("#who").get_attribute("data-viewer") == "0"

    # The game page opened again, without any token, offers every seat this browser holds.
    again = context.new_page()
    again.goto(f"{web}/games/{game_id(seat_links[0])}")
    ready(again)
    assert again.locator("#who").get_attribute("data-viewer") == "spectator"
    offered = again.eval_on_selector_all("#held a", "els => els.map(a => a.href)")
    assert offered == [*seat_links, table_link]
    again.click("#held a[data-seat='2']")
    until(again, "document.getElementById('who').dataset.viewer === '2'")
    ready(again)
    assert again.locator("#held a").count() == 3, "the other seats and the table"

    # The home page lists what this browser holds too.
    home.reload()
    home.wait_for_selector(f"#held-games li[data-id='{game_id(seat_links[0])}']")
    assert home.locator(f"#held-games li[data-id='{game_id(seat_links[0])}'] a").count() == 5

    # A token travels only as an Authorization header: in no URL asked for, in no log line.
    assert requests_seen["authorizations"], "the seats' pages did call the API with their tokens"
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "GET /games/" in logged, "the server's request log was read"
    for token in tokens:
        assert not [url for url in requests_seen["urls"] if token in url]
        assert token not in logged


def test_a_link_opened_here_is_offered_when_the_game_is_opened_again(context, web, client):
    game = create(client, "coloretto", ["ann", "bob", "cid"])
    seat = context.new_page()
    seat.goto(f"{web}/games/{game.id}#seat={game.tokens[1]}")
    ready(seat)
    again = context.new_page()
    again.goto(f"{web}/games/{game.id}")
    ready(again)
    offered = again.eval_on_selector_all("#held a", "els => els.map(a => [a.dataset.seat, a.href])")
    assert offered == [["1", f"{web}/games/{game.id}#seat={game.tokens[1]}"]]
    assert again.locator("#held").text_content().startswith("open as: bob's seat")
