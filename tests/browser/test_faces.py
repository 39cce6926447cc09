"""Card faces say what the rules need, from the title's own data: a colour card its colour and
number, a Decktet card its rank and suits (GET /v1/titles, `cards`), a point card or a wish
stone what it is; legible on a phone; and the keltis-nwnz board labels what the moves name and
has a legend for every symbol on it.
"""

from __future__ import annotations

import json
import random
import re
from urllib.parse import unquote

import pytest

from engine.games import GAMES
from tests.api import create
from tests.browser.conftest import ready
from tests.browser.test_layout import SHORT, SIZES

COLOURS = {"R": "red", "Y": "yellow", "G": "green", "B": "blue", "V": "violet"}
RANKS = {1: "A", 10: "C"}


def faces(page):
    """Every card drawn on the table: its code, classes, rank, symbols and word."""
    return page.eval_on_selector_all("#table [data-card]", """els => els.map(e => ({
        code: e.dataset.card, classes: [...e.classList],
        rank: e.querySelector('.rank')?.textContent ?? '',
        marks: [...e.querySelectorAll('.marks svg')].map(s => s.getAttribute('aria-label')),
        word: e.querySelector('.word')?.textContent ?? ''}))""")


def expected(name, code, spec):
    """What the face of `code` must show, by the title's rules."""
    if name == "hermit":
        card = spec["cards"][code]
        return {"rank": RANKS.get(card["rank"], str(card["rank"])), "marks": card["suits"]}
    if name == "coloretto":
        special = {"+2": {"rank": "+2"}, "joker": {"word": "joker"}, "last-round": {"word": "last"}}
        return special.get(code, {"class": f"c-{code}", "word": code})
    colour, number = code[0], code[1:]
    if colour in COLOURS and number == "":
        return {"class": f"c-{COLOURS[colour]}", "word": "wish"}  # a keltis-nwnz wish stone
    if colour in COLOURS:
        return {"class": f"c-{COLOURS[colour]}", "rank": "F" if number == "F" else number}
    return {"rank": number, "word": {"P": "points", "W": "wish"}[colour]}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_card_face_shows_what_its_title_s_rules_need(context, web, client, name):
    players, options = SHORT[name]
    game = create(client, name, players, options=options, seed=f"faces-{name}")
    game.play(random.Random(name), 12)
    spec = next(t for t in client.get("/v1/titles").json["titles"] if t["name"] == name)
    page = context.new_page()
    page.set_viewport_size(SIZES["phone"])
    page.goto(f"{web}/games/{game.id}#seat={game.tokens[0]}")
    ready(page, client.get(game.url()).json["version"])
    drawn = faces(page)
    assert drawn
    for face in drawn:
        for part, value in expected(name, face["code"], spec).items():
            shown = face["classes"] if part == "class" else face[part]
            assert value == shown or (part == "class" and value in shown), (face, part, value)
    # Legible on a phone: a rank is at least 16 px high.
    # Read in one task: the page may draw its table again between a query and an evaluation
    # of its elements, which are then detached (no computed size).
    sizes = page.evaluate("[...document.querySelectorAll('#table .card .rank')].map(e => "
                          "parseFloat(getComputedStyle(e).fontSize))")
    assert min(sizes) >= 16
    # Each title names its symbols in a legend.
    assert page.locator("#table .legend dd").count() >= 3


def test_the_keltis_nwnz_board_labels_what_the_moves_name_and_explains_its_symbols(
        context, web, client):
    game = create(client, "keltis-nwnz", ["ann", "bob"], seed="faces-board")
    game.play(random.Random(1), 12)
    board = client.get("/v1/boards/keltis-nwnz").json
    page = context.new_page()
    page.goto(f"{web}/games/{game.id}#seat={game.tokens[0]}")
    ready(page, client.get(game.url()).json["version"])
    # Every cell is labelled with its id, the word a move uses ("move s1 to c7").
    picture = unquote(page.locator("svg.board image").get_attribute("href"))
    labels = set(re.findall(r">(c\d+)</text>", picture))
    assert labels == {c["id"] for c in board["cells"]}
    # Each pawn is labelled 1 to 4 (s1 to s4) or B (the big pawn), as the legend says.
    pawns = page.eval_on_selector_all(
        "svg.board .pawn",
        "els => els.map(e => [e.dataset.pawn, e.querySelector('text').textContent])")
    assert pawns and all(label == ("B" if pawn == "big" else pawn[1:]) for pawn, label in pawns)
    legend = page.locator("#table .legend").text_content()
    for said in ("pawns s1 to s4", "big pawn", "clover", "discard", "+2, +3", "WR", "stack",
                 "grey cell", "as the moves say it"):
        assert said in legend, said
    # Every tile on the board is one the legend names.
    tiles = page.eval_on_selector_all("svg.board .tile text", "els => els.map(e => e.textContent)")
    assert tiles and set(tiles) <= {"♣", "×", "+2", "+3", "WR", "WY", "WG", "WB", "WV"}


def test_a_keltis_nwnz_move_points_at_the_pawn_and_cell_its_words_name(context, web, client):
    game = create(client, "keltis-nwnz", ["ann", "bob"], seed="faces-chooser")
    legal = client.get(game.url("/legal-moves"), headers=game.seat(0)).json["moves"]
    by_cell: dict[str, int] = {}
    for choice in legal:
        if choice["move"]["type"] == "move":
            by_cell[choice["move"]["to"]] = by_cell.get(choice["move"]["to"], 0) + 1
    cell = next(c for c, n in by_cell.items() if n > 1)
    page = context.new_page()
    page.goto(f"{web}/games/{game.id}#seat={game.tokens[0]}")
    ready(page)
    page.click(f"svg.board .cell.playable[data-cell='{cell}']")
    offered = page.locator("#chooser button").first
    move = json.loads(offered.get_attribute("data-move"))
    offered.hover()
    pawn = f"svg.board .pawn[data-seat='0'][data-pawn='{move['pawn']}']"
    assert "pointed" in page.locator(pawn).get_attribute("class")
    assert "pointed" in page.locator(f"svg.board .cell[data-cell='{cell}']").get_attribute("class")
    page.mouse.move(0, 0)
    assert "pointed" not in page.locator(pawn).get_attribute("class")
