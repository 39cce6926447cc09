"""Table actions from the pages: a seat proposes a takeback and the others accept it from
theirs, a seat concedes, the table abandons, and a clocked game shows its clock and offers a
claim once a seat is late; each at a phone's width too, where nothing scrolls sideways."""

from __future__ import annotations

import random

from tests.api import create
from tests.browser.conftest import ready, until
from tests.browser.pages import check_table
from tests.browser.test_layout import SIZES, no_sideways_scroll


def open_as(context, web, game, token: str, at: int | None = None):
    page = context.new_page()
    page.goto(f"{web}/games/{game.id}{f'?at={at}' if at else ''}#{token}")
    ready(page, at)
    return page


def seat(game, number: int) -> str:
    return f"seat={game.tokens[number]}"


def accepted(page) -> None:
    """The page's last action was accepted (its verdict is shown, not a refusal)."""
    page.wait_for_selector("#last-verdict")
    verdict = page.locator("#last-verdict")
    assert verdict.get_attribute("class") == "good", verdict.text_content()


def table_side(client, game) -> dict:
    """The table's side of the state: none once nothing is left at the table."""
    state = client.get(game.url("/state"), headers=game.table).json["state"]
    return state.get("table") or {"proposal": None, "conceded": []}


def test_a_seat_proposes_a_takeback_and_the_others_accept_it_from_their_pages(context, web, client):
    game = create(client, "coloretto", ["ann", "bob", "cid"])
    verdicts = game.play(random.Random(28), 4)
    to = verdicts[1]
    then = client.get(game.url(f"/state?at={to}"), headers=game.seat(2)).json
    bob = open_as(context, web, game, seat(game, 1))  # follows the game live meanwhile

    # ann steps back to the entry and proposes taking the game back to it.
    ann = open_as(context, web, game, seat(game, 0), at=to)
    ann.click("#takeback-here")
    accepted(ann)
    ann.wait_for_selector("#takeback-withdraw")

    bob.set_viewport_size(SIZES["phone"])
    bob.wait_for_selector("#takeback-accept")
    no_sideways_scroll(bob)
    bob.click("#takeback-accept")
    accepted(bob)
    assert table_side(client, game)["proposal"] is not None, "one seat has still to accept"

    cid = open_as(context, web, game, seat(game, 2))
    cid.click("#takeback-accept")
    accepted(cid)

    # The game is back at that entry, for every reader; the undone entries show as taken back.
    now = client.get(game.url("/state"), headers=game.seat(2)).json
    assert now["state"] == then["state"] and now["to_act"] == then["to_act"]
    events = client.get(game.url("/events"), headers=game.table).json["events"]
    undone = set(events[-1]["effects"][-1]["undone"])
    struck = {e["seq"] for e in events
              if e["seq"] in undone or (e["type"] != "move-submitted" and e.get("of") in undone)}
    until(cid, f"document.getElementById('table').dataset.at === '{len(events)}'")
    shown = set(cid.eval_on_selector_all("#log li.taken-back",
                                         "els => els.map(e => +e.dataset.seq)"))
    assert shown == struck
    assert cid.locator(f"#e{len(events)}").text_content().startswith(
        f"{len(events)} cid accepted the takeback")
    check_table(cid, "coloretto", now["state"])


def test_a_seat_withdraws_its_proposal_and_another_declines_one(context, web, client):
    game = create(client, "hermit", ["ann", "bob"])
    game.play(random.Random(31), 2)
    ann = open_as(context, web, game, seat(game, 0), at=1)
    bob = open_as(context, web, game, seat(game, 1), at=1)
    ann.click("#takeback-here")
    accepted(ann)
    ann.click("#takeback-withdraw")
    accepted(ann)
    assert table_side(client, game)["proposal"] is None
    ann.wait_for_selector("#takeback-here")

    bob.click("#takeback-here")
    accepted(bob)
    ann.click("#takeback-decline")
    accepted(ann)
    assert table_side(client, game)["proposal"] is None
    until(bob, "document.getElementById('log').textContent"
               ".includes('ann declined the takeback proposed as entry')")


def test_the_table_takes_back_at_once_and_concedes_for_a_seat(context, web, client):
    game = create(client, "coloretto", ["ann", "bob", "cid"])
    verdicts = game.play(random.Random(30), 3)
    then = client.get(game.url(f"/state?at={verdicts[0]}"), headers=game.table).json
    table = open_as(context, web, game, f"table={game.created['table_token']}")
    table.fill("#takeback-to", str(verdicts[0]))
    table.click("#takeback-form button[type=submit]")
    accepted(table)
    now = client.get(game.url("/state"), headers=game.table).json
    assert now["state"] == then["state"]
    table.wait_for_selector(f"#e{verdicts[1]}.taken-back")

    table.select_option("#concede-seat", "2")
    table.click("#concede")
    table.click("#concede-confirm")
    accepted(table)
    assert table_side(client, game)["conceded"] == [2]
    table.wait_for_selector("#score li.conceded[data-seat='2']")
    until(table, "[...document.querySelectorAll('#concede-seat option')]"
                 ".map(o => o.value).join() === '0,1'")


def test_a_seat_concedes_from_its_page(context, web, client):
    game = create(client, "hermit", ["ann", "bob", "cid"])
    bob = open_as(context, web, game, seat(game, 1))
    bob.set_viewport_size(SIZES["phone"])
    bob.click("#concede")
    no_sideways_scroll(bob)
    bob.click("#concede-confirm")
    accepted(bob)
    assert table_side(client, game)["conceded"] == [1]
    bob.wait_for_selector("#you-conceded")
    # The score panel ranks the conceded seat last, and says so.
    bob.wait_for_selector("#score li.conceded[data-seat='1']")
    ranked = bob.eval_on_selector_all("#score .players > li",
                                      "els => els.map(e => +e.dataset.seat)")
    assert ranked[-1] == 1
    assert "conceded" in bob.locator("#score li[data-seat='1'] .player-total").text_content()
    # The service played bob's first choice for him, marked so in the log.
    until(bob, "document.querySelector('#log .for-conceded') !== null")


def test_the_table_abandons_from_its_page_and_a_refusal_names_its_rule(context, web, client):
    game = create(client, "keltis-card", ["ann", "bob"], options={"turn_limit_s": 600})
    game.play(random.Random(29), 3)
    table = open_as(context, web, game, f"table={game.created['table_token']}")
    table.wait_for_selector("#clock li.waited-for")
    table.set_viewport_size(SIZES["phone"])
    no_sideways_scroll(table)

    # Entry 2 is a submission, no verdict: a takeback to it is refused with the rule.
    table.fill("#takeback-to", "2")
    table.click("#takeback-form button[type=submit]")
    table.wait_for_selector("#last-verdict.bad")
    assert "a takeback goes to entry 1 or to the verdict of a move" in table.locator(
        "#last-verdict").text_content()

    table.fill("#abandon-reason", "the pub closed")
    table.click("#abandon")
    table.click("#abandon-confirm")
    until(table, "document.getElementById('who').dataset.status === 'abandoned'")
    assert "abandoned" in table.locator("#who").text_content()
    assert table.locator("#play").is_hidden()
    table.wait_for_selector("#score-kind[data-abandoned='true']")
    assert "not final" in table.locator("#score-kind").text_content()
    assert table.locator("#clock li.waited-for").count() == 0, "an ended game waits for nobody"
    said = table.locator("#log li.move-accepted").last.text_content()
    assert said.startswith(f"{said.split()[0]} the game was abandoned: the pub closed"), said
    no_sideways_scroll(table)

    home = context.new_page()
    home.goto(web + "/")
    home.select_option("#filter-status", "abandoned")
    row = home.locator(f"#games tr[data-id='{game.id}']")
    row.wait_for()
    assert "abandoned" in row.text_content()


def test_a_clocked_game_shows_its_clock_and_offers_a_claim_once_a_seat_is_late(
        context, web, client):
    game = create(client, "coloretto", ["ann", "bob", "cid"], options={"turn_limit_s": 2})
    late = client.get(game.url()).json["to_act"][0]
    other = (late + 1) % 3
    waiting = open_as(context, web, game, seat(game, other))
    slow = open_as(context, web, game, seat(game, late))
    waiting.wait_for_selector(f"#clock li.waited-for[data-seat='{late}']")
    assert waiting.locator("#clock .thinking").count() == 3
    shown = waiting.locator(f"#clock li[data-seat='{late}'] .waiting")
    before = shown.text_content()
    waiting.wait_for_timeout(2100)  # two ticks, even on a loaded machine
    assert shown.text_content() != before, "the clock ticks"

    waiting.wait_for_selector("#claim-timeout:not([hidden])")
    waiting.wait_for_selector(f"#clock li.late[data-seat='{late}']")
    slow.wait_for_selector(f"#clock li.late[data-seat='{late}']")
    assert slow.locator("#claim-timeout").is_hidden(), "no seat claims its own timeout"
    waiting.set_viewport_size(SIZES["phone"])
    no_sideways_scroll(waiting)
    waiting.click("#claim-timeout")
    accepted(waiting)
    assert table_side(client, game)["conceded"] == [late]
    until(waiting, "document.getElementById('log').textContent"
                   ".includes('the turn clock of 2 seconds ran out')")
