"""The pages read a game as a record and say what an audit or a replay comes to, at desktop and
phone size: a move and its verdict on one line of the log, a running game's replay shown with
the server's own reason and its table, a wrong claim never under a green "checks out", and a
clicked score component that stays in the panel."""

from __future__ import annotations

import random

import pytest

from tests.api import create
from tests.browser.conftest import ready, until
from tests.browser.pages import check_table
from tests.browser.test_pages import upload

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def opened(context, web, game, size, tail=""):
    page = context.new_page()
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    page.goto(f"{web}/games/{game.id}{tail}")
    return ready(page)


def played(client, moves, seed, title="coloretto", **body):
    game = create(client, title, seed=seed, **body)
    rnd = random.Random(seed)
    for _ in range(moves):
        legal = client.get(game.url("/legal-moves"), headers=game.table).json["moves"]
        choice = rnd.choice(legal)
        assert game.move(choice["seat"], choice["move"]).status_code == 201
    return game


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_move_and_its_verdict_are_one_line_of_the_log(context, web, client, size):
    game = played(client, 5, f"record-{size}")
    events = client.get(game.url("/events?limit=100")).json["events"]
    page = opened(context, web, game, size)
    judged = {e["of"]: e["seq"] for e in events if "of" in e}
    shown = page.eval_on_selector_all(
        "#log li", "els => els.filter(e => e.offsetParent).map(e => +e.dataset.seq)")
    assert shown == [e["seq"] for e in events if e["seq"] not in judged]
    assert "submitted" not in " ".join(page.locator("#log li.move-accepted").all_text_contents()
                                       ).replace("submitted at", "")
    # The submission stays reachable: linked from its verdict, shown where the log stands on it.
    submission, verdict = next(iter(judged.items()))
    link = page.locator(f"#e{verdict} a.submission")
    assert link.text_content() == f"submitted at {submission}"
    assert "submitted: draw" in link.get_attribute("title")
    link.click()
    ready(page, submission)
    assert page.locator(f"#e{submission}").is_visible()
    # Kept secret until judged, the move is told once its verdict is.
    assert page.locator(f"#e{submission}").text_content() == f"{submission} ann submitted: draw"


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_running_games_replay_says_why_it_cannot_be_checked_yet_and_draws_its_table(
        context, web, client, size):
    game = played(client, 6, f"running-{size}", title="keltis-card")
    document = client.get(game.url("/replay"), headers=game.seat(0)).json
    assert document["seed"] is None
    page = upload(context, web, document)
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    message = page.locator("#message p")
    assert message.get_attribute("class") == "warning"
    said = message.text_content()
    assert "does not check out" not in said
    assert "(replay-not-rebuildable)" in said and f"copy of game {game.id}" in said
    assert page.locator("#report-ok").get_attribute("data-overall") == "unknown"
    version = len(document["entries"])
    ready(page, version)
    check_table(page, "keltis-card", client.get(game.url("/state")).json["state"])


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_wrong_claim_is_never_under_a_green_report(context, web, client, size):
    game = played(client, 6, f"claim-{size}")
    total = client.get(game.url("/score")).json["players"][0]["total"]
    page = opened(context, web, game, size)
    page.fill("#claims input[data-seat='0']", str(total + 37))
    page.click("#run-audit")
    page.locator(".claim[data-seat='0'] .difference").wait_for()
    overall = page.locator("#report-ok")
    assert overall.get_attribute("data-overall") == "bad"
    assert overall.text_content() == (
        "✘ the log checks out, but a claim is not the recomputed total")
    page.fill("#claims input[data-seat='0']", str(total))
    page.click("#run-audit")
    until(page, "document.getElementById('report-ok')?.dataset.overall === 'good'")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_clicked_score_component_stays_in_the_panel(context, web, client, size):
    game = create(client, "coloretto", seed=f"component-{size}", options={"deals": 1})
    game.play_to_end(random.Random(size))
    page = opened(context, web, game, size)
    component = page.locator(".component[data-seat='0']").last
    component.wait_for()
    events = component.get_attribute("data-events")
    selector = f".component[data-seat='0'][data-events='{events}']"
    first, second = (int(seq) for seq in events.split(",")[:2])
    # Clicked, it takes the log to its first entry, then to the next, the table staying where
    # it is (tests/browser/test_seen.py): the component is there to be clicked again.
    component.click()
    until(page, f"document.querySelector('#log li.seen')?.dataset.seq === '{first}'")
    assert page.locator(selector).count() == 1
    page.locator(selector).click()
    until(page, f"document.querySelector('#log li.seen')?.dataset.seq === '{second}'")
    assert page.locator(selector).count() == 1
