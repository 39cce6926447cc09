"""Every page at a desktop's size and a phone's: nothing scrolls sideways, "your move" sits by
the table, each seat's total is the score panel's, the ranking says which way it runs; and the
screenshots the README shows are taken here, of every title as a seat mid-game, as a spectator,
and finished with its score. They are written into docs/screenshots/ only by
`make screenshots` (TABLELOG_SCREENSHOTS=1): a test run leaves the working tree as it was.
"""

from __future__ import annotations

import io
import os
import random
import tempfile
from pathlib import Path

import pytest
from PIL import Image

from engine.games import GAMES
from tests.api import create
from tests.browser.conftest import ready, until
from tests.conftest import ROOT

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
SHOWN = ROOT / "docs" / "screenshots"  # the README's
SHOTS = SHOWN if os.environ.get("TABLELOG_SCREENSHOTS") else (
    Path(tempfile.gettempdir()) / "tablelog-screenshots")
# Short games, so that playing one to its end stays quick.
SHORT = {
    "coloretto": (["ann", "bob", "cid"], {"deals": 1}),
    "hermit": (["ann", "bob", "cid"], {}),
    "keltis-card": (["ann", "bob"], {}),
    "keltis-nwnz": (["ann", "bob"], {}),
    "sieben-siegel": (["ann", "bob", "cid"], {"rounds": 1}),
}
MID_GAME = 12


def no_sideways_scroll(page) -> None:
    wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide[0] <= wide[1], f"{page.url} is {wide[0]} px wide in a {wide[1]} px window"


def shoot(page, name: str, seen: str | None = None) -> None:
    """Both sizes of `page`: measured for sideways scrolling, and kept as a screenshot (on a
    phone scrolled to `seen`, when given: what the picture is of)."""
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.evaluate("window.scrollTo(0, 0)")
        no_sideways_scroll(page)
        if seen and size == "phone":
            page.locator(seen).scroll_into_view_if_needed()
        SHOTS.mkdir(parents=True, exist_ok=True)
        taken = Image.open(io.BytesIO(page.screenshot(animations="disabled"))).convert("RGB")
        # 256 colours keep a page legible in a third of the bytes: the README's pictures stay small.
        taken.quantize(256, method=Image.Quantize.MEDIANCUT).save(
            SHOTS / f"{name}-{size}.png", optimize=True)


def seat_totals_agree_with_the_score(page) -> None:
    until(page, "document.querySelector('#table .seat-score').textContent !== ''")
    panels = page.eval_on_selector_all(
        "#table .seat-score", "els => els.map(e => [+e.dataset.seat, e.textContent])")
    listed = dict(page.eval_on_selector_all(
        "#score li[data-seat]", "els => els.map(e => [+e.dataset.seat,"
        " e.querySelector('.total').textContent])"))
    for seat, said in panels:
        assert said.startswith(f" · {listed[seat]},"), (seat, said, listed[seat])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_title_fits_a_phone_and_is_shot_at_both_sizes(context, web, client, name):
    players, options = SHORT[name]
    game = create(client, name, players, options=options, seed=f"screens-{name}")
    rnd = random.Random(name)
    game.play(rnd, MID_GAME)
    version = client.get(game.url()).json["version"]
    to_act = client.get(game.url()).json["to_act"][0]

    seat = context.new_page()
    seat.goto(f"{web}/games/{game.id}#seat={game.tokens[to_act]}")
    ready(seat, version)
    until(seat, "!document.getElementById('play').hidden"
                " && document.querySelector('#moves button, #table .playable, #predict') !== null")
    seat_totals_agree_with_the_score(seat)
    seat.set_viewport_size(SIZES["phone"])
    # On a phone "your move" follows the player's own hand, before the other seats' panels,
    # over nothing (tests/browser/test_seen.py: kept in sight over the table, it hid the hand).
    tops = seat.evaluate("""[document.getElementById('play').getBoundingClientRect().top,
        document.querySelector('#table .seats').getBoundingClientRect().top,
        document.querySelector('#table .hand')?.getBoundingClientRect().bottom ?? 0]""")
    assert tops[2] <= tops[0] < tops[1], tops
    seat.set_viewport_size(SIZES["desktop"])
    # At a desktop's size it stands beside the table, at the top.
    beside = seat.evaluate("""[document.getElementById('play').getBoundingClientRect().left,
        document.getElementById('table').getBoundingClientRect().right,
        document.getElementById('play').getBoundingClientRect().top]""")
    assert beside[0] > beside[1] and beside[2] < 300
    shoot(seat, f"{name}-seat")

    spectator = context.new_page()
    spectator.goto(f"{web}/games/{game.id}")
    ready(spectator, version)
    assert spectator.locator("#play").is_hidden()
    shoot(spectator, f"{name}-spectator")

    game.play_to_end(rnd)
    finished = context.new_page()
    finished.goto(f"{web}/games/{game.id}")
    ready(finished, client.get(game.url()).json["version"])
    finished.wait_for_selector("#score .final")
    seat_totals_agree_with_the_score(finished)
    ranking = finished.locator("#ranking")
    lowest = GAMES[name].lowest_wins
    assert ranking.get_attribute("data-lowest-wins") == str(lowest).lower()
    said = "the lowest total wins" if lowest else "the highest total wins"
    assert said in ranking.text_content()
    shoot(finished, f"{name}-finished", seen="#score")


def test_the_home_and_replay_pages_fit_a_phone(context, web, client):
    create(client, "hermit", ["ann", "bob", "cid"], seed="x" * 64)
    for path in ("/", "/replay"):
        page = context.new_page()
        page.set_viewport_size(SIZES["phone"])
        page.goto(web + path)
        page.wait_for_load_state("networkidle")
        no_sideways_scroll(page)
    home = context.pages[0]
    home.wait_for_selector("#games tbody tr[data-id]")
    # The new-game form comes first, and every listed game shows its id.
    form_top = home.evaluate("document.getElementById('create').getBoundingClientRect().top")
    list_top = home.evaluate("document.getElementById('games').getBoundingClientRect().top")
    assert form_top < list_top
    ids = home.eval_on_selector_all(
        "#games tbody tr[data-id]",
        "els => els.map(e => [e.dataset.id, e.querySelector('.game-id').textContent])")
    assert ids and all(row_id == shown for row_id, shown in ids)
    shoot(home, "home")


def test_the_readme_shows_every_screenshot_and_each_is_small():
    views = ("seat", "spectator", "finished")
    wanted = {f"{name}-{view}-{size}.png" for name in GAMES for view in views for size in SIZES}
    wanted |= {f"home-{size}.png" for size in SIZES}
    readme = (ROOT / "README.md").read_text()
    for shot in wanted:
        assert f"(docs/screenshots/{shot})" in readme, shot
        assert (SHOWN / shot).stat().st_size < 150_000, shot
