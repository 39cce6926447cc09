"""The table's page, the scorekeeper's: it shows every seat's hand of a seeded game and offers
every legal move the API gives the table token, each played for its seat by a click; a seeded
Hermit and Keltis card game are played to their end from it alone, at a desktop's size and a
phone's; and "undo the last entry" takes the game back to right before its last move."""

from __future__ import annotations

import json
import random
import time

import pytest

from engine.games import GAMES
from tests.api import create
from tests.browser.conftest import SHOTS, ready, until
from tests.browser.pages import check_table
from tests.browser.test_layout import SHORT, SIZES, no_sideways_scroll


def table_page(context, web, game, size: str = "desktop"):
    page = context.new_page()
    page.set_viewport_size(SIZES[size])
    page.goto(f"{web}/games/{game.id}#seat={game.created['table_token']}")
    return ready(page)


def key(choice: dict) -> str:
    return json.dumps({"seat": choice["seat"], "move": choice["move"]}, sort_keys=True)


def offered(page) -> list[str]:
    """Every move the page offers, once each: at a place on the table, in a title's own chooser,
    or listed."""
    placed = page.eval_on_selector_all(
        "#table [data-moves], #custom [data-moves]",
        "els => els.flatMap(e => JSON.parse(e.dataset.moves))")
    listed = page.eval_on_selector_all(
        "#moves button.move",
        "els => els.map(b => ({seat: +b.dataset.seat, move: JSON.parse(b.dataset.move)}))")
    return [key(c) for c in placed + listed]


def settled(page, client, game) -> dict:
    """The page stands at the log's head with the legal moves of that head; the API's. Asked
    while a move is still pending, the API answers the head before it, which the page leaves
    as soon as the verdict comes: the API is asked again until the two agree."""
    deadline = time.monotonic() + 10
    while True:
        legal = client.get(game.url("/legal-moves"), headers=game.table).json
        at = f"tablelog.version === {legal['version']} && " \
             f"document.getElementById('table').dataset.at === '{legal['version']}'"
        if page.evaluate(at) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    until(page, at)
    if legal["moves"]:
        until(page, f"tablelog.legalAt === {legal['version']}")
    return legal


def click_move(page, choice: dict, shot=None) -> None:
    """Play `choice` as the scorekeeper would: its card in its seat's hand (or its place on the
    table), then, if that place offers several moves, the one beside it. The page is kept as a
    picture at `shot` (for people to look at) just before the move is posted."""
    before = page.evaluate("tablelog.verdicts")
    wanted = key(choice)
    index = place_of(page, wanted)
    if index < 0:
        pick(page.locator("#moves button.move"), wanted)
    else:
        page.locator("#table [data-moves]").nth(index).click()
        chooser = page.locator("#hand-chooser button.move, #chooser button.move")
        if chooser.count():
            if shot:
                SHOTS.mkdir(exist_ok=True)
                page.screenshot(path=shot, full_page=True)
            pick(chooser, wanted)
    until(page, f"tablelog.verdicts > {before}")
    verdict = page.locator("#last-verdict")
    assert verdict.get_attribute("class") == "good", verdict.text_content()


def pick(buttons, wanted: str) -> None:
    """Click the button of `buttons` that posts the move `wanted`."""
    moves = buttons.evaluate_all(
        "bs => bs.map(b => ({seat: +b.dataset.seat, move: JSON.parse(b.dataset.move)}))")
    assert wanted in [key(m) for m in moves], f"{wanted} is offered nowhere"
    buttons.nth([key(m) for m in moves].index(wanted)).click()


def place_of(page, wanted: str) -> int:
    marks = page.eval_on_selector_all("#table [data-moves]", "els => els.map(e => e.dataset.moves)")
    for index, moves in enumerate(marks):
        if wanted in {key(c) for c in json.loads(moves)}:
            return index
    return -1


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("title", ["hermit", "keltis-card"])
def test_the_table_plays_a_seeded_game_to_its_end_from_its_page_alone(
        context, web, client, title, size):
    game = create(client, title, ["ann", "bob"], seed=f"scorekeeper-{title}")
    page = table_page(context, web, game, size)
    no_sideways_scroll(page)
    moves = 0
    while True:
        legal = settled(page, client, game)
        if not legal["moves"]:
            break
        if moves == 6:
            # Every hand is on the page, as the table's view has them, and nothing covers one.
            state = client.get(game.url("/state"), headers=game.table).json["state"]
            check_table(page, title, state)
            for seat, private in enumerate(state["private"]):
                shown = page.eval_on_selector_all(
                    f"#table .seat[data-seat='{seat}'] .hand [data-card]",
                    "els => els.map(e => e.dataset.card)")
                assert shown == private["hand"]
            uncovered(page)
        # The first move the API lists: a short game, the same one every run.
        click_move(page, legal["moves"][0],
                   SHOTS / f"scorekeeper-{title}-{size}-{moves}.png" if moves in (6, 7) else None)
        moves += 1
    finished_as_the_api_says(page, client, game)


def finished_as_the_api_says(page, client, game) -> None:
    """The game is finished, and the page shows it so: the final score, each seat's total and
    place the API's, and no move offered."""
    assert client.get(game.url()).json["status"] == "finished"
    until(page, "document.getElementById('who').dataset.status === 'finished'")
    score = client.get(game.url("/score"), headers=game.table).json
    page.wait_for_selector("#score .final")
    shown = page.eval_on_selector_all("#score ul.players > li", """ls => ls.map(l =>
        [+l.dataset.seat, l.querySelector('.player-total b').textContent,
         l.querySelector('.player-total .total').textContent])""")
    points = {p["seat"]: p["total"] for p in score["players"]}
    assert sorted(shown) == sorted(
        [p["seat"], f"{p['rank']}. {p['name']}",
         f"{p['total']} point{'' if abs(p['total']) == 1 else 's'}"] for p in score["players"]
    ), (shown, points)
    assert page.locator("#play").is_hidden()
    no_sideways_scroll(page)


def uncovered(page) -> None:
    """Each card of every hand is the topmost thing where it is drawn, once scrolled to."""
    for seat in page.eval_on_selector_all("#table .seat .hand", "els => els.map(e => "
                                          "e.closest('.seat').dataset.seat)"):
        hand = page.locator(f"#table .seat[data-seat='{seat}'] .hand")
        # Scrolled to and read in one evaluate: the page may redraw between two.
        covered = hand.evaluate("""h => {
            h.scrollIntoView({block: 'center'});
            return [...h.querySelectorAll('[data-card]')].map(c => {
                const r = c.getBoundingClientRect();
                const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
                const on = top && top.outerHTML.slice(0, 80);
                return top && c.contains(top) ? null : [c.dataset.card, on];
            }).filter(Boolean);
        }""")
        assert covered == [], f"seat {seat}'s cards covered: {covered}"


@pytest.mark.parametrize("title", sorted(GAMES))
def test_the_table_page_offers_exactly_the_apis_legal_moves_for_the_table(
        context, web, client, title):
    players, options = SHORT[title]
    game = create(client, title, players, options=options, seed=f"offers-{title}")
    game.play(random.Random(39), 9)
    page = table_page(context, web, game)
    legal = settled(page, client, game)
    until(page, "document.querySelectorAll('#table [data-moves], #moves button.move').length > 0")
    api = [key(c) for c in legal["moves"]]
    shown = offered(page)
    assert len(set(api)) == len(api)
    assert sorted(set(shown)) == sorted(api), (len(set(shown)), len(api))
    # The seats the table waits for are named in its panel and marked on the table.
    waiting = sorted({c["seat"] for c in legal["moves"]})
    named = page.locator("#to-act").text_content()
    assert all(players[s] in named for s in waiting), named
    to_act = client.get(game.url()).json["to_act"]
    acting = page.eval_on_selector_all("#table .seat.acting",
                                       "els => els.map(e => +e.dataset.seat)")
    assert acting == sorted(to_act)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_table_undoes_the_last_entry_in_one_tap_asked_once_more(context, web, client, size):
    game = create(client, "keltis-card", ["ann", "bob"], seed="scorekeeper-undo")
    verdicts = game.play(random.Random(7), 3)
    before = client.get(game.url(f"/state?at={verdicts[-2]}"), headers=game.table).json
    page = table_page(context, web, game, size)
    settled(page, client, game)
    page.click("#undo")
    question = page.locator("#undo .confirm").text_content()
    assert f"entry {verdicts[-1]}" in question and f"entry {verdicts[-2]}" in question, question
    assert client.get(game.url()).json["version"] == verdicts[-1], "nothing is sent before yes"
    no_sideways_scroll(page)
    page.click("#undo-confirm")
    until(page, f"document.getElementById('e{verdicts[-1]}')?.classList.contains('taken-back')")
    now = client.get(game.url("/state"), headers=game.table).json
    assert now["state"] == before["state"] and now["to_act"] == before["to_act"]
    events = client.get(game.url("/events"), headers=game.table).json["events"]
    assert events[-1]["effects"][-1]["type"] == "taken-back"
    assert events[-1]["effects"][-1]["to"] == verdicts[-2]
    # The next tap offers the move before it.
    until(page, f"document.getElementById('undo').dataset.to === '{verdicts[-3]}'")
    legal = settled(page, client, game)
    assert sorted(offered(page)) == sorted({key(c) for c in legal["moves"]})
    check_table(page, "keltis-card", now["state"])
