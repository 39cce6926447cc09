"""What a player must see is seen, at a desktop's size and a phone's: nothing covers the hand,
"your move" shows all its buttons, nothing is cut, every number says what it counts, one step
is shown everywhere, and the log prints and shows in a screenshot of the whole page.

Judged as a player would, from where things are drawn (what `elementFromPoint` finds at a
card's centre, a box inside another) and, for the log, from the pixels of a screenshot.
"""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from tests.api import create
from tests.browser.conftest import ready, until

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def opened(context, web, game, size, fragment=""):
    page = context.new_page()
    page.set_viewport_size(SIZES[size])
    page.goto(f"{web}/games/{game.id}{fragment}")
    return page


def keltis_card_mid_game(client, seed):
    game = create(client, "keltis-card", ["ann", "bob"], seed=seed)
    game.play(random.Random(seed), 12)
    return game, client.get(game.url()).json


# Which of `selector`'s elements (their centres in the window) are hidden under something else;
# read in one task, so that no redraw of the table falls between a query and a measure.
COVERED = """(selector) => [...document.querySelectorAll(selector)].filter((e) => {
    const r = e.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (y < 0 || y > innerHeight || x < 0 || x > innerWidth) return false;
    return !e.contains(document.elementFromPoint(x, y));
}).map((e) => e.dataset.card || e.textContent)"""


@pytest.mark.parametrize("size", sorted(SIZES))
def test_nothing_covers_the_hand_and_your_move_shows_all_its_buttons(context, web, client, size):
    game, summary = keltis_card_mid_game(client, f"seen-hand-{size}")
    seat = summary["to_act"][0]
    page = opened(context, web, game, size, f"#seat={game.tokens[seat]}")
    ready(page, summary["version"])
    until(page, "!document.getElementById('play').hidden"
                " && document.querySelector('#moves button, #table .playable') !== null")
    hand = "#table .hand [data-card]"
    assert page.evaluate(COVERED, hand) == [], "on opening"
    # Scrolled to anywhere the hand is in sight, all of it is seen.
    for block in ("end", "center"):
        page.evaluate("b => document.querySelector('#table .hand').scrollIntoView({block: b})",
                      block)
        assert page.evaluate(COVERED, hand) == [], block
    # "Your move" is drawn whole, none of its buttons cut off inside it; each is seen once
    # scrolled to.
    play = page.evaluate("(p => [p.scrollHeight, p.clientHeight])(document.getElementById('play'))")
    assert play[0] <= play[1] + 1, play
    buttons = page.eval_on_selector_all(
        "#play button", "els => els.filter(e => e.offsetParent).map(e => e.textContent)")
    assert {"concede", "vote to abandon"} <= set(buttons), buttons
    for number, text in enumerate(buttons):
        page.evaluate("n => [...document.querySelectorAll('#play button')]"
                      ".filter(e => e.offsetParent)[n].scrollIntoView({block: 'nearest'})", number)
        hidden = page.evaluate(COVERED, "#play button")
        assert text not in hidden, (text, hidden)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_list_of_games_names_every_field(context, web, client, size):
    game, summary = keltis_card_mid_game(client, f"seen-list-{size}")
    page = context.new_page()
    page.set_viewport_size(SIZES[size])
    page.goto(web + "/")
    row = page.locator(f"#games tbody tr[data-id='{game.id}']")
    row.wait_for()
    cells = row.evaluate("""tr => [...tr.cells].map(td => {
        const r = td.getBoundingClientRect();
        const named = getComputedStyle(td, '::before').content;
        return {field: td.dataset.field, top: r.top, bottom: r.bottom, left: r.left,
                text: (named === 'none' ? '' : JSON.parse(named)) + td.innerText.trim()};
    })""")
    values = {"id": game.id, "game": "keltis-card", "players": "ann, bob",
              "status": "in-progress", "log entries": str(summary["version"])}
    assert [c["field"] for c in cells] == [*values, "created"]
    headings = page.eval_on_selector_all(
        "#games thead th", "els => els.filter(e => e.offsetParent).map(e => [e.textContent,"
        " e.getBoundingClientRect().left])")
    if size == "desktop":
        # A header row names the columns; each cell holds its value alone, under its heading.
        assert [h[0] for h in headings] == [c["field"] for c in cells]
        for cell, (_, left) in zip(cells, headings, strict=True):
            assert abs(cell["left"] - left) < 1
        for cell in cells[:-1]:
            assert cell["text"] == values[cell["field"]]
    else:
        # No room for a header row: each field is a line of its own that says its name.
        assert headings == []
        for above, below in zip(cells, cells[1:], strict=False):
            assert above["bottom"] <= below["top"] + 0.5, (above, below)
        assert cells[0]["text"] == game.id
        for cell in cells[1:-1]:
            assert cell["text"] == f"{cell['field']}: {values[cell['field']]}"
        assert cells[-1]["text"].startswith("created: 20")


@pytest.mark.parametrize("size", sorted(SIZES))
def test_hermit_says_rounds_and_points_and_shows_whole_card_names_and_personalities(
        context, web, client, size):
    game = create(client, "hermit", ["ann", "bob", "cid"], seed=f"seen-hermit-{size}")
    game.play_to_end(random.Random(size))
    spec = next(t for t in client.get("/v1/titles").json["titles"] if t["name"] == "hermit")
    score = client.get(game.url("/score")).json
    page = opened(context, web, game, size)
    ready(page, client.get(game.url()).json["version"])
    page.wait_for_selector("#score .final")
    # One word for a round: the table's count is the score panel's.
    rounds = score["rounds"]
    assert page.locator("#table .summary .count").first.inner_text() == f"round: {rounds}"
    assert f"over {rounds} rounds" in page.locator("#score-kind").inner_text()
    # Each seat's running total says it counts points.
    for s, total in enumerate(client.get(game.url("/state")).json["state"]["totals"]):
        said = page.locator(f"#table [data-path='/totals/{s}']").locator("xpath=..").inner_text()
        assert said == f"points from rounds scored: {total}"
    faces = page.evaluate("""[...document.querySelectorAll('#table [data-card]')].map(e => {
        const word = e.querySelector('.word'), c = e.getBoundingClientRect();
        const w = word.getBoundingClientRect();
        return {code: e.dataset.card, word: word.textContent, classes: [...e.classList],
                cut: word.scrollWidth > word.clientWidth || word.scrollHeight > word.clientHeight
                     || w.left < c.left || w.right > c.right || w.bottom > c.bottom,
                star: getComputedStyle(e, '::after').content};
    })""")
    assert any(len(f["word"]) >= 9 for f in faces), "some long name is drawn"
    for face in faces:
        card = spec["cards"][face["code"]]
        # The whole name, never cut: "chance meeting" on two lines if need be.
        assert face["word"] == ("ace" if card["rank"] == 1 else face["code"].replace("-", " "))
        assert not face["cut"], face
        # A personality, which scores in a score pile, is starred; no other card is.
        assert ("personality" in face["classes"]) == card["personality"], face
        assert (face["star"] == '"★"') == card["personality"], face
    assert "a personality" in page.locator("#table .legend").text_content()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_every_discard_pile_is_under_its_name_and_an_empty_one_says_so(
        context, web, client, size):
    game, summary = keltis_card_mid_game(client, f"seen-piles-{size}")
    page = opened(context, web, game, size)
    ready(page, summary["version"])
    piles = page.evaluate("""[...document.querySelectorAll('#table .pile[aria-label$=" discards"]')]
        .map(p => {
            const box = (e) => { const r = e.getBoundingClientRect();
                                 return [r.left, r.top, r.right, r.bottom]; };
            const content = p.querySelector('.card');
            return {name: p.getAttribute('aria-label').replace(' discards', ''),
                    label: p.querySelector('.label').textContent, pile: box(p),
                    labelBox: box(p.querySelector('.label')), content: box(content),
                    empty: content.classList.contains('empty') ? content.innerText : null,
                    cards: p.querySelectorAll('[data-card]').length};
        })""")
    discards = client.get(game.url("/state")).json["state"]["discards"]
    assert len(piles) == len(discards) == 6
    assert any(not cards for cards in discards.values()), "some pile is empty"
    for pile in piles:
        cards = discards[next(c for c, n in {"R": "red", "Y": "yellow", "G": "green",
            "B": "blue", "V": "violet", "P": "points"}.items() if n == pile["name"])]
        assert pile["label"] == pile["name"]
        assert pile["cards"] == len(cards)
        assert pile["empty"] == (None if cards else "empty"), pile
        # Its name above what it holds, both inside the pile's own box.
        left, top, right, bottom = pile["pile"]
        assert pile["labelBox"][3] <= pile["content"][1], pile
        for box in (pile["labelBox"], pile["content"]):
            assert left <= box[0] and box[2] <= right and top <= box[1] and box[3] <= bottom, pile
    # No pile's box overlaps another's.
    for a, one in enumerate(piles):
        for two in piles[a + 1:]:
            (l1, t1, r1, b1), (l2, t2, r2, b2) = one["pile"], two["pile"]
            assert r1 <= l2 or r2 <= l1 or b1 <= t2 or b2 <= t1, (one, two)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_clicked_score_component_marks_its_entries_and_one_step_is_shown_everywhere(
        context, web, client, size):
    game = create(client, "coloretto", seed=f"seen-component-{size}", options={"deals": 1})
    game.play_to_end(random.Random(size))
    version = client.get(game.url()).json["version"]
    page = opened(context, web, game, size)
    ready(page, version)
    score_is_the_table_s = ("document.getElementById('score').dataset.at"
                            " === document.getElementById('table').dataset.step")
    until(page, score_is_the_table_s)
    component = page.locator(".component[data-seat='0']").last
    # The lines the log shows: a move by its verdict's line (issue 38, point 4).
    events = [int(e) for e in component.get_attribute("data-lines").split(",")]
    selector = f".component[data-seat='0'][data-events='{component.get_attribute('data-events')}']"
    seats = page.eval_on_selector_all("#table .seat-score", "els => els.map(e => e.textContent)")
    assert all(seats)

    def one_step(at, kind):
        assert page.locator("#table").get_attribute("data-at") == str(at)
        assert page.evaluate(score_is_the_table_s)
        assert page.locator("#score-kind").inner_text().startswith(kind)

    for seen in events[:2]:
        page.locator(selector).click()
        until(page, f"document.querySelectorAll('#log li.marked').length === {len(events)}")
        # The table, the score panel and the seats' totals stay at the step shown...
        one_step(version, "final score")
        until(page, f"document.querySelector('#log li.seen')?.dataset.seq === '{seen}'")
        assert page.eval_on_selector_all(
            "#table .seat-score", "els => els.map(e => e.textContent)") == seats
        marked = page.eval_on_selector_all("#log li.marked", "els => els.map(e => +e.dataset.seq)")
        assert marked == events
        # ...and the log is taken to the entry: seen in the log's box and in the window.
        item, log = page.evaluate(f"""[document.getElementById('e{seen}'),
            document.getElementById('log')].map(e => e.getBoundingClientRect())
            .map(r => [r.top, r.bottom])""")
        assert log[0] - 1 <= item[0] and item[1] <= log[1] + 1, (seen, item, log)
        assert 0 <= item[0] and item[1] <= SIZES[size]["height"], (seen, item)
    # A marked line, clicked, takes every part of the page to its step, the score included.
    at = events[1]
    page.click(f"#e{at} > a")
    ready(page, at)
    until(page, score_is_the_table_s)
    one_step(at, "provisional score")
    assert page.locator("#log li.marked").count() == len(events)


def _blank_lines(page) -> list[int]:
    """The lines of the log with no dark pixel in a screenshot of the log (beyond the window
    too). Each line's place is measured within the log's own box, which a screenshot beyond the
    window lays out again at the same size even where the page above it moves."""
    boxes = page.eval_on_selector_all("#log li", """els => {
        const l = document.getElementById('log').getBoundingClientRect();
        return els.filter(e => e.offsetParent).map(e => { const r = e.getBoundingClientRect();
            return [+e.dataset.seq, [r.left - l.left, r.top - l.top, r.right - l.left,
                                     r.bottom - l.top]]; }); }""")
    shot = Image.open(io.BytesIO(page.locator("#log").screenshot())).convert("L")
    return [seq for seq, box in boxes
            if min(shot.crop(tuple(round(v) for v in box)).tobytes()) > 110]


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_log_shows_in_a_screenshot_of_the_whole_page_and_in_print(context, web, client, size):
    game, summary = keltis_card_mid_game(client, f"seen-log-{size}")
    page = opened(context, web, game, size, f"#seat={game.tokens[summary['to_act'][0]]}")
    ready(page, summary["version"])
    until(page, "!document.getElementById('play').hidden")
    # The score panel drawn too: the page's height is what it will be.
    drawn = f"document.getElementById('score').dataset.at === '{summary['version']}'"
    until(page, drawn)
    page.evaluate("window.scrollTo(0, 0)")
    # The log must end below the first screen, for lines off it to be what is checked: however
    # tall the panels above it are, the window is made shorter than the log's end.
    bottom = page.evaluate("document.getElementById('log').getBoundingClientRect().bottom")
    page.set_viewport_size({"width": SIZES[size]["width"],
                            "height": min(SIZES[size]["height"], int(bottom) - 200)})
    ready(page, summary["version"])
    until(page, drawn)
    assert page.evaluate("document.getElementById('log').getBoundingClientRect().bottom") > (
        page.viewport_size["height"]), "the log ends below the first screen"
    assert page.locator("#log li:not(.folded)").count() >= 12
    assert _blank_lines(page) == []
    # Printed, every line of the log is on paper: none scrolled away inside its panel.
    page.emulate_media(media="print")
    assert page.evaluate("(l => l.scrollHeight <= l.clientHeight)(document.getElementById('log'))")
    assert _blank_lines(page) == []
