"""What a score says for itself on the page (issue 38): a component cites the lines the log
shows, each saying what it brought, and the rule that scores it; a replay whose stored score
alone was edited gets one verdict, saying whose total and both values. At a desk's size and a
phone's."""

from __future__ import annotations

import copy
import json
import random

import pytest

from tests.api import create
from tests.browser.conftest import SHOTS, ready, until
from tests.e2e.served import Http

SIZES = {"desk": (1280, 800), "phone": (390, 844)}


@pytest.fixture(scope="module")
def finished(web):
    """A finished one-deal game of Coloretto: each seat's starting card is dealt at entry 1."""
    game = create(Http(web), "coloretto", ["ann", "bob", "cid"], seed="provenance",
                  options={"deals": 1})
    game.play_to_end(random.Random("provenance"))
    return game


def opened(context, size, url):
    page = context.new_page()
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    page.goto(url)
    return page


@pytest.mark.parametrize("size", SIZES)
def test_a_component_marks_the_lines_the_log_shows_each_saying_what_it_brought(
        context, web, finished, size):
    score = finished.http.get(finished.url("/score")).json
    version = finished.http.get(finished.url()).json["version"]
    page = ready(opened(context, size, f"{web}/games/{finished.id}"), version)
    until(page, "document.querySelector('#score .component') !== null")
    ann = next(p for p in score["players"] if p["seat"] == 0)
    (started,) = [c for c in ann["components"] if 1 in c["events"]]
    component = page.locator(".component[data-seat='0'][data-events^='1,']")
    assert component.count() == 1
    assert component.get_attribute("data-rule") == started["rule"]
    lines = [int(n) for n in component.get_attribute("data-lines").split(",")]
    component.click()
    # The log is taken to the first line, the step shown staying the last (one step everywhere).
    until(page, f"document.querySelectorAll('#log li.marked').length === {len(lines)}")
    until(page, "document.getElementById('e1').classList.contains('seen')")
    assert page.evaluate("document.getElementById('table').dataset.at") == str(version)
    marked = page.eval_on_selector_all(
        "#log li.marked", "els => els.map(e => [+e.dataset.seq, e.className,"
        " getComputedStyle(e).display, e.querySelector('.said').textContent])")
    assert [seq for seq, *_ in marked] == lines and len(lines) == len(started["events"])
    for seq, kind, display, said in marked:
        # A line the log shows: a verdict, never a folded submission ("ann submitted: draw").
        assert "move-submitted" not in kind and display != "none", (seq, kind)
        assert seq == 1 or started["label"] in said or "joker" in said, (seq, said)
    brought = page.locator("#e1 .brought").text_content()
    assert brought == f" · ann's starting card: {started['label']}"
    page.locator("#e1").scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / f"provenance-lines-{size}.png")
    # The rule of each kind of component, once: Coloretto's scale and its three positive colours.
    rules = page.locator("#score-rules").text_content()
    assert "1/3/6/10/15/21" in rules and "the 3 colours worth most count positive" in rules
    assert rules.count(started["rule"]) == 1
    page.locator("#score-rules").scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / f"provenance-rules-{size}.png")


@pytest.mark.parametrize("size", SIZES)
def test_a_replay_with_only_its_stored_score_edited_has_one_verdict(context, web, finished, size):
    document = copy.deepcopy(finished.http.get(finished.url("/replay")).json)
    bob = document["score"]["players"][1]
    bob["total"] += 9
    page = opened(context, size, f"{web}/replay")
    page.set_input_files("#replay-file", files=[{
        "name": "replay.json", "mimeType": "application/json",
        "buffer": json.dumps(document).encode()}])
    page.wait_for_selector("#report-ok")
    ready(page)
    seq, was = len(document["entries"]), bob["total"] - 9
    said = f"stored score: bob's total is stored as {bob['total']}, recomputed {was}"
    until(page, "document.getElementById('message').textContent.includes('does not check out')")
    assert f"entry {seq} ({said})" in page.locator("#message").text_content()
    assert page.locator("#report-ok").get_attribute("data-ok") == "false"
    mismatch = page.locator(f".mismatch[data-seq='{seq}'][data-what='stored score']").first
    assert said.split(": ", 1)[1] in mismatch.text_content()
    # One page, one verdict: the browser's own check no longer says that nothing fails.
    until(page, "document.getElementById('checked-ok').dataset.ok === 'false'")
    checked = page.locator("#checked-ok")
    assert "nothing fails" not in checked.text_content()
    assert f"entry {seq} fails ({said})" in checked.text_content()
    assert page.locator(".overall.good").count() == 0
    page.screenshot(path=SHOTS / f"provenance-stored-score-{size}.png", full_page=True)
