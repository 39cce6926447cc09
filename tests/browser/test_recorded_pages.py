"""A game played with real cards, recorded from the pages alone: the home page's form creates it
("cards dealt at a real table"), the table's page names its setup in a form of card faces and
each card drawn in a picker of the faces still possible, and the game is played to its end by
tapping, at a desktop's size and a phone's. Every other title too, from the table's page: hands
dealt face down drawn as backs, a card played from one picked by its face among the cards it
may still be, each game a seeded playout of the engine entered again, ending with its score."""

from __future__ import annotations

import json
import random
import time
from collections import Counter

import pytest

from engine.game import TABLE
from engine.games import GAMES
from engine.playout import play, transcribe
from engine.recorded import UNKNOWN
from tests.api import Game, create
from tests.browser.conftest import SHOTS, ready, until
from tests.browser.test_layout import SIZES, no_sideways_scroll
from tests.browser.test_pages import game_id
from tests.browser.test_scorekeeper import (
    finished_as_the_api_says,
    key,
    place_of,
    settled,
    table_page,
)
from tests.engine.transcribed import brief

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



# -- every other title, from the table's page alone --------------------------------------------

# Each title recorded at a real table: its players, its options, and the seed of the engine's
# own playout that the table enters again by tapping (one of a short game).
RECORDED = {
    "keltis-card": (["ann", "bob"], {}, "recorded-keltis-card-20"),
    "sieben-siegel": (["ann", "bob", "cid"], {"rounds": 1}, "recorded-sieben-siegel-7"),
    "hermit": (["ann", "bob", "cid"], {}, "recorded-hermit-2"),
    "keltis-nwnz": (["ann", "bob"], {}, "recorded-keltis-nwnz-22"),
}
# Hands dealt face down are checked, and pictures kept, every so many taps.
EVERY = 15


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("title", list(RECORDED))
def test_a_recorded_game_of_every_title_is_played_to_its_end_from_the_tables_page_by_tapping(
        context, web, client, title, size):
    """A seeded playout of the engine, entered again at the table's page as a scorekeeper would:
    each setup through the page's setup form, each move by tapping where it is made (a card
    of a hand not seen yet among the hand's face-down cards, then picked by its face from the
    cards still possible); the game ends with the playout's score, as the API says."""
    players, options, seed = RECORDED[title]
    seeded = play(GAMES[title], len(players), seed, random.Random(seed), options)
    game = create(client, title, players, deal="recorded", options=options)
    page = table_page(context, web, game, size)
    picked = 0
    for number, (who, move) in enumerate(transcribe(seeded)):
        # Each submission before this one wrote its entry and its verdict after game-created.
        legal = at_head(page, client, game, 1 + 2 * number)
        before = page.evaluate("tablelog.verdicts")
        if who == TABLE:
            record_the_setup(page, game, move)
        else:
            choice = {"seat": who, "move": move}
            assert key(choice) in {key(c) for c in legal["moves"]}, choice
            if number % EVERY == 1:
                face_down_where_unseen(page, client, game)
            picked += tap(page, client, game, choice, legal,
                          SHOTS / f"recorded-{title}-{size}-picker.png" if picked == 3 else None)
        accepted(page, before)
    assert picked, "no card was picked by its face"
    finished_as_the_api_says(page, client, game)
    want = seeded.game.score(seeded.final).to_json(players)
    assert brief(client.get(game.url("/score")).json, ordered=False) == brief(want, ordered=False)


def at_head(page, client, game, version: int) -> dict:
    """The log holds `version` entries at least (a move's verdict may come after its post's
    answer), and the page stands at its head with its legal moves: the API's."""
    deadline = time.monotonic() + 10
    while client.get(game.url()).json["version"] < version:
        assert time.monotonic() < deadline, f"the log never reached {version} entries"
        page.wait_for_timeout(50)
    return settled(page, client, game)


def record_the_setup(page, game, move: dict) -> None:
    """The table's setup, through the page's form: a deal of cards all face down is one button;
    keltis-nwnz's path tiles are tapped spot by spot, each tile offered while the box holds
    more of it than the form names."""
    page.wait_for_selector("#setup-form")
    assert "the table names the setup" in page.locator("#to-act").text_content()
    record = page.locator("#record-setup")
    tiles = move.get("tiles")
    if not tiles:
        assert move == {"type": "setup"}, move
        assert page.locator("#setup-form .picker").count() == 0 and record.is_enabled()
        assert page.locator("#setup-form button").count() == 1
    else:
        spots = game.http.get("/v1/boards/keltis-nwnz").json["tile_spots"]
        for spot, tile in enumerate(tiles):
            picker = f"#setup-form .picker[data-field=tiles][data-index='{spot}']"
            assert page.locator(f"{picker} > .label").text_content() == spots[spot]
            left = offers(page, picker)[0][2]
            assert left.count(tile) == 1, (spot, tile, left)
            page.click(f"{picker} button[data-value='{tile}']")
        # Every tile of the box is named: none is offered any more but where it was tapped.
        assert [len(o[2]) for o in offers(page, "#setup-form .picker")] == [1] * len(tiles)
    no_sideways_scroll(page)
    record.click()


def face_down_where_unseen(page, client, game) -> None:
    """Each seat's hand on the table's page holds as many cards as the API counts, those not
    seen yet face down, the others by their faces."""
    state = client.get(game.url("/state"), headers=game.table).json["state"]
    sizes = state.get("hand_sizes") or [p["hand_size"] for p in state["players"]]
    for seat, private in enumerate(state["private"]):
        shown = page.eval_on_selector_all(
            f"#table .seat[data-seat='{seat}'] .hand [data-card]",
            "els => els.map(e => [e.dataset.card, e.classList.contains('back')])")
        known = [c for c in private["hand"] if c != UNKNOWN]
        assert sorted(c for c, back in shown if not back) == sorted(known), (seat, shown)
        assert all(c == UNKNOWN for c, back in shown if back) and len(shown) == sizes[seat]


def tap(page, client, game, choice: dict, legal: dict, shot) -> bool:
    """Post `choice` by tapping: its place on the table (a card of its seat's hand, face down
    when not known; a cell, a pile, a seal), then, where that place offers several moves, the
    one wanted, or the face of its card in the picker of the cards still possible. A prediction
    is counted out in Die sieben Siegel's own chooser. Whether a card was picked by its face."""
    wanted = key(choice)
    before = page.evaluate("tablelog.verdicts")
    if choice["move"]["type"] == "predict":
        predict(page, choice, before)
        return False
    index = place_of(page, wanted)
    place = page.locator("#table [data-moves]").nth(index)
    # A face-down card of a hand offers the cards it is not known to hold, which are tapped
    # by their faces.
    face_down = index >= 0 and place.get_attribute("data-card") == UNKNOWN
    if index >= 0:
        place.click()
    elif choose_in(page.locator("#moves button"), wanted):
        return False
    for _ in range(3):
        until(page, f"tablelog.verdicts > {before} || document.querySelector("
                    "'#card-picker, #hand-chooser button, #chooser button') !== null")
        if page.locator("#card-picker").count():
            the_picker_offers_what_may_be(page, client, game, choice, legal, face_down, shot)
            page.click(f"#card-picker button.pick[data-card='{choice['move']['card']}']")
            return True
        if page.evaluate(f"tablelog.verdicts > {before}"):
            return False
        if choose_in(page.locator("#hand-chooser button, #chooser button"), wanted):
            return False
    raise AssertionError(f"{choice} was never posted")


def choose_in(buttons, wanted: str) -> bool:
    """Tap the button of `buttons` that posts `wanted` (True), else the one opening the card
    picker of the moves `wanted` is among."""
    read = buttons.evaluate_all("""bs => bs.map(b => b.dataset.move
        ? [{seat: +b.dataset.seat, move: JSON.parse(b.dataset.move)}]
        : JSON.parse(b.dataset.moves || '[]'))""")
    for index, moves in enumerate(read):
        if wanted in {key(m) for m in moves}:
            buttons.nth(index).click()
            return len(moves) == 1
    raise AssertionError(f"{wanted} is offered by none of {len(read)} buttons")


def the_picker_offers_what_may_be(page, client, game, choice, legal, face_down, shot) -> None:
    """The picker lists exactly the cards the API lets the seat name in that move (opened from
    a face-down card, but those the hand is known to hold), every one still unaccounted for
    (none another seat chose face down), right after the seat's hand."""
    read = page.evaluate("""() => {
        const picker = document.getElementById('card-picker');
        const before = picker.previousElementSibling;
        return {cards: [...picker.querySelectorAll('button.pick')].map(b => b.dataset.card),
                seat: +picker.dataset.seat,
                after: before.classList.contains('hand')
                    ? +before.closest('.seat').dataset.seat : null};
    }""")
    state = client.get(game.url("/state"), headers=game.table).json["state"]
    hand = state["private"][choice["seat"]]["hand"]
    alike = {k: v for k, v in choice["move"].items() if k != "card"}
    allowed = [c["move"]["card"] for c in legal["moves"] if c["seat"] == choice["seat"]
               and {k: v for k, v in c["move"].items() if k != "card"} == alike
               and not (face_down and c["move"]["card"] in hand)]
    assert read["cards"] == allowed and read["seat"] == read["after"] == choice["seat"], read
    assert all(state["unaccounted"].get(c) or c in hand for c in read["cards"]), read
    chosen = {p.get("choice") for s, p in enumerate(state["private"]) if s != choice["seat"]}
    assert not chosen & set(read["cards"]), chosen
    if shot:
        SHOTS.mkdir(exist_ok=True)
        no_sideways_scroll(page)
        page.screenshot(path=shot, full_page=False)


def predict(page, choice: dict, before: int) -> None:
    """Die sieben Siegel's prediction, counted out seal by seal in its chooser; where the seals
    missing from the supply may come from several seats, the one the table named."""
    seals = choice["move"]["seals"]
    for field in page.locator("#custom input[data-seal]").all():
        field.fill(str(seals.get(field.get_attribute("data-seal"), 0)))
    page.click("#predict")
    until(page, f"tablelog.verdicts > {before} || "
                "document.querySelector('#custom .predictions button') !== null")
    if page.locator("#custom .predictions button").count():
        choose_in(page.locator("#custom .predictions button"), key(choice))


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_five_player_hermit_setup_is_recorded_only_once_its_centre_card_is_named(
        context, web, client, size):
    """With five players a Hermit hand lays one card face up in the centre: the setup form asks
    for it, and records nothing until it is named (the move's shape leaves it optional, since
    fewer players lay none)."""
    game = create(client, "hermit", ["ann", "bob", "cid", "dee", "eve"], deal="recorded")
    page = table_page(context, web, game, size)
    page.wait_for_selector("#setup-form")
    centre = page.locator("#setup-form .picker[data-field=centre]")
    record = page.locator("#record-setup")
    assert centre.count() == 1 and record.is_disabled()
    card = centre.locator("button.pick").first
    named = card.get_attribute("data-value")
    card.click()
    assert record.is_enabled()
    no_sideways_scroll(page)
    record.click()

    def state() -> dict:
        return client.get(game.url("/state"), headers=game.table).json["state"]

    deadline = time.monotonic() + 10
    while state().get("setup_needed"):
        assert time.monotonic() < deadline, "the setup was not recorded"
        time.sleep(0.05)
    # The centre is the hand's one group, of the card the form named.
    groups = state()["groups"]
    assert len(groups) == 1 and named in json.dumps(groups), (named, groups)
