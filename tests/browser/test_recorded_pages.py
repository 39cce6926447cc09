"""A game played with real cards, recorded from the pages alone: the home page's form creates it
("cards dealt at a real table"), the table's page names its setup in a form of card faces and
each card drawn in a picker of the faces still possible, and the game is played to its end by
tapping, at a desktop's size and a phone's."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.api import Game
from tests.browser.conftest import SHOTS, ready, until
from tests.browser.test_layout import SIZES, no_sideways_scroll
from tests.browser.test_pages import game_id
from tests.browser.test_scorekeeper import finished_as_the_api_says, key, place_of, settled

# Tapped first whenever it may be drawn: its three copies are all seen early, and the picker
# must then leave it out.
SOUGHT = "joker"


def created_at_a_real_table(context, web, client, size: str, deals: int):
    """The home page's form, "cards dealt at a real table" ticked: the game, and its table's page
    opened from the link the form gives."""
    page = context.new_page()
    page.set_viewport_size(SIZES[size])
    page.goto(web + "/")
    # Offered for the titles whose spec says they may be recorded, and for no other.
    for spec in client.get("/v1/titles").json["titles"]:
        page.select_option("#new-game", spec["name"])
        assert page.locator("#new-recorded").is_enabled() == spec["recorded"], spec["name"]
    page.select_option("#new-game", "coloretto")
    page.fill("#new-players", "ann, bob, cid")
    assert page.locator("#new-seed").is_visible()
    page.check("#new-recorded")
    assert page.locator("#new-seed").is_hidden(), "a recorded game has no seed"
    page.fill("#option-deals", str(deals))
    page.click("#create button[type=submit]")
    link = page.locator(".table-link a")
    link.wait_for()
    href = link.get_attribute("href")
    token = href.split("#table=")[1]
    summary = client.get(f"/v1/games/{game_id(href)}").json
    assert summary["deal"] == "recorded" and summary["seed_commitment"] is None
    assert summary["options"]["deals"] == deals
    page.goto(href)
    return page, Game(client, {"id": summary["id"], "table_token": token})


def offers(page, selector: str) -> list:
    """Each picker of `selector`: its field, its index and the values it offers, in one read."""
    return page.eval_on_selector_all(selector, """ps => ps.map(p => [
        p.dataset.field, p.dataset.index,
        [...p.querySelectorAll('button.pick:not([hidden])')].map(b => b.dataset.value)])""")


def accepted(page, before: int) -> None:
    """The move tapped since the page had `before` verdicts was posted and accepted."""
    until(page, f"tablelog.verdicts > {before}")
    verdict = page.locator("#last-verdict")
    assert verdict.get_attribute("class") == "good", verdict.text_content()


def name_the_setup(page, game, size: str, removed: str | None = None) -> tuple[str, list[str]]:
    """The setup form offers every colour, and each colour tapped is offered nowhere else; the
    colour left out and each seat's starting card, tapped; recorded with the table token. A
    later deal's keeps the colour left out (`removed`) and offers every other."""
    ready(page)
    page.wait_for_selector("#setup-form")
    assert "the table names the setup" in page.locator("#to-act").text_content()
    # Nobody but the table acts before the setup: no seat is marked as to act.
    assert page.locator("#table .seat.acting").count() == 0
    colours = game.http.get("/v1/titles").json
    colours = next(t for t in colours["titles"] if t["name"] == "coloretto")
    colours = colours["moves"]["setup"]["removed_color"]["choices"]
    shown = offers(page, "#setup-form .picker")
    if removed is None:
        assert shown == [["starting_cards", str(s), colours] for s in range(3)] + [
            ["removed_color", "", colours]]
        assert page.locator("#record-setup").is_disabled()
        removed = colours[3]
        page.click(f"#setup-form .picker[data-field=removed_color] button[data-value={removed}]")
    else:
        kept = [c for c in colours if c != removed]
        assert shown == [["starting_cards", str(s), kept] for s in range(3)]
        assert removed in page.locator("#setup-form .kept[data-field=removed_color]").text_content()
    starting = []
    for seat in range(3):
        picker = f"#setup-form .picker[data-field=starting_cards][data-index='{seat}']"
        left = offers(page, picker)[0][2]
        assert left == [c for c in colours if c != removed and c not in starting], (seat, left)
        starting.append(left[-1 - seat])
        page.click(f"{picker} button[data-value={left[-1 - seat]}]")
    no_sideways_scroll(page)
    SHOTS.mkdir(exist_ok=True)
    deal = game.http.get(game.url("/state"), headers=game.table).json["state"]["deal"]
    page.screenshot(path=SHOTS / f"recorded-{size}-setup-{deal}.png", full_page=True)
    before = page.evaluate("tablelog.verdicts")
    page.click("#record-setup")
    accepted(page, before)
    state = game.http.get(game.url("/state"), headers=game.table).json["state"]
    assert not state["setup_needed"] and state["removed_color"] == removed
    assert [list(c) for c in state["collected"]] == [[s] for s in starting]
    return removed, starting


def draw_from_the_picker(page, legal: dict, choice: dict, removed: str, size: str, shot: bool):
    """The deck, tapped, opens a picker of exactly the cards the API lets the seat draw, beside
    it and in sight, each face a tap wide; the face of `choice`'s card, tapped, posts it. The
    cards offered."""
    page.click("#table [data-target=deck]")
    page.wait_for_selector("#card-picker")
    allowed = [c["move"]["card"] for c in legal["moves"]
               if c["seat"] == choice["seat"] and "card" in c["move"]]
    read = page.evaluate("""() => {
        const picker = document.getElementById('card-picker');
        const box = picker.getBoundingClientRect();
        const faces = [...picker.querySelectorAll('button.pick')];
        return {cards: faces.map(b => b.dataset.card), seat: +picker.dataset.seat,
                inSight: box.top >= 0 && box.top < innerHeight,
                narrowest: Math.min(...faces.map(b => b.getBoundingClientRect().width)),
                after: picker.previousElementSibling.dataset.target};
    }""")
    assert read["cards"] == allowed and removed not in read["cards"]
    assert read["seat"] == choice["seat"] and read["after"] == "deck" and read["inSight"], read
    assert read["narrowest"] >= 40, read
    if shot:
        page.screenshot(path=SHOTS / f"recorded-{size}-picker.png", full_page=False)
    page.click(f"#card-picker button.pick[data-card='{choice['move']['card']}']")
    return read["cards"]


def undo_the_draw(page, game, card: str) -> None:
    """"undo the last entry", tapped and confirmed, takes the draw of `card` back: the card is
    one the deal may hold again."""
    state = game.http.get(game.url("/state"), headers=game.table).json
    left = state["state"]["unaccounted"].get(card, 0)
    page.click("#undo")
    assert f"drew {card}" in page.locator("#undo .confirm").text_content()
    page.click("#undo-confirm")
    until(page, f"document.getElementById('e{state['version']}')?.classList.contains('taken-back')")
    now = game.http.get(game.url("/state"), headers=game.table).json["state"]
    assert now["drawn"] is None and now["unaccounted"][card] == left + 1


# Two deals at a desktop's size (the second set up as the first ended), one on a phone: runtime.
@pytest.mark.parametrize(("size", "deals"), [("desktop", 2), ("phone", 1)])
def test_a_game_at_a_real_table_is_recorded_from_the_pages_alone_by_tapping(
        context, web, client, size, deals):
    page, game = created_at_a_real_table(context, web, client, size, deals)
    removed, starting = name_the_setup(page, game, size)
    setups = 1
    rnd = random.Random(f"recorded-{size}")
    seen = Counter(starting)
    gone_unoffered = 0
    taps = 0
    shot = undone = False
    while True:
        legal = settled(page, client, game)
        if not legal["moves"] and client.get(game.url()).json["status"] != "finished":
            # A deal ended: the table names the next one's setup, as the first.
            _, starting = name_the_setup(page, game, size, removed)
            seen = Counter(starting)
            setups += 1
            continue
        if not legal["moves"]:
            break
        players = ["ann", "bob", "cid"]
        assert players[legal["moves"][0]["seat"]] in page.locator("#to-act").text_content()
        sought = [c for c in legal["moves"] if c["move"].get("card") == SOUGHT]
        choice = sought[0] if sought else rnd.choice(legal["moves"])
        before = page.evaluate("tablelog.verdicts")
        if "card" in choice["move"]:
            cards = draw_from_the_picker(page, legal, choice, removed, size,
                                         shot=not shot and taps >= 20)
            shot = shot or taps >= 20
            # A card whose every copy was seen is offered no more.
            gone_unoffered += any(c not in cards for c in seen)
            seen[choice["move"]["card"]] += 1
            if not undone and taps >= 5:
                accepted(page, before)
                undo_the_draw(page, game, choice["move"]["card"])
                seen[choice["move"]["card"]] -= 1
                undone = True
                continue
        else:
            index = place_of(page, key(choice))
            assert index >= 0, f"{choice} is offered nowhere on the table"
            page.locator("#table [data-moves]").nth(index).click()
        accepted(page, before)
        taps += 1
        if taps == 21:
            no_sideways_scroll(page)
    assert setups == deals
    assert seen[SOUGHT] == 3 and gone_unoffered, "a card seen three times was offered again"
    finished_as_the_api_says(page, client, game)

