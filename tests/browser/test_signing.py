"""Signing and verifying in the browser: a seat registers a key made by WebCrypto on its page
and every move it posts there is signed (checked in Python, engine.signatures); the page keeps
every receipt it gets, and a replay rewritten after one is flagged naming its seq; /replay
checks a good replay and flags a tampered one with the network cut off; the browser's
canonical JSON is Python's, byte for byte, on every golden replay."""

from __future__ import annotations

import json
import random

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine import log
from engine.audit import verify_replay
from engine.signatures import b64, move_payload, receipt_problem, sign_move, verified
from tests.api import create
from tests.browser.conftest import ready, until
from tests.browser.test_layout import SIZES, no_sideways_scroll
from tests.browser.test_pages import click_a_move
from tests.golden.generate import HERE, load

OFFLINE = ("ERR_INTERNET_DISCONNECTED",)  # the server's verification asked for, and not reached


def rechained(entries: list[dict]) -> list[dict]:
    """`entries` with every hash made again, as whoever rewrites a log would."""
    previous = log.GENESIS
    for entry in entries:
        entry["hash"] = previous = log.chain_hash(previous, entry)
    return entries


def checked(page, document: dict):
    """Open `document` on /replay (`page`, loaded already) and wait for the browser's check."""
    page.evaluate("document.getElementById('checked').replaceChildren()")
    text = json.dumps(document).encode()
    page.set_input_files("#replay-file", files=[
        {"name": "replay.json", "mimeType": "application/json", "buffer": text}])
    page.wait_for_selector("#checked-ok")
    return page.locator("#checked")


def flagged(section) -> list[tuple[int, str]]:
    return [(int(seq), what) for seq, what in section.locator(".mismatch").evaluate_all(
        "els => els.map(e => [e.dataset.seq, e.dataset.what])")]


def test_a_seat_signs_its_moves_from_its_page_and_its_receipts_expose_a_rewrite(browser, context,
                                                                                web, client):
    game = create(client, "coloretto", ["ann", "bob", "cid"], options={"deals": 1})
    page = context.new_page()
    page.goto(f"{web}/games/{game.id}#seat={game.tokens[0]}")
    ready(page)
    page.click("#sign-my-moves")
    page.wait_for_selector("#signing-state[data-signs='true']")
    # The private key stays in this browser's IndexedDB, and cannot be taken out of it.
    held = page.evaluate("""(name) => new Promise((resolve) => {
        indexedDB.open("tablelog").onsuccess = (opened) => {
            const keys = opened.target.result.transaction("seat-keys").objectStore("seat-keys");
            const got = keys.get(name);
            got.onsuccess = () => resolve([got.result.privateKey.type,
                                           got.result.privateKey.extractable, got.result.public]);
        };
    })""", f"{game.id}/0")
    assert held[:2] == ["private", False]
    # Another browser opening the seat's link does not hold the key: it says where moves are made.
    elsewhere = browser.new_context()
    try:
        other = elsewhere.new_page()
        other.goto(f"{web}/games/{game.id}#seat={game.tokens[0]}")
        other.wait_for_selector("#signing-state[data-signs='elsewhere']")
        assert "must be signed where that key is" in other.locator("#signing").text_content()
    finally:
        elsewhere.close()

    # ann plays from her page, the others through the API, until she made three moves.
    rnd, clicked = random.Random(30), 0
    while clicked < 3:
        summary = client.get(game.url()).json
        seat = summary["to_act"][0]
        if seat == 0:
            until(page, f"tablelog.version >= {summary['version']}")
            click_a_move(page)
            clicked += 1
            continue
        legal = client.get(game.url("/legal-moves"), headers=game.seat(seat)).json["moves"]
        choice = rnd.choice(legal)
        assert game.move(seat, choice["move"]).status_code == 201
    # A table action is signed like a move: ann votes to abandon (the others have not).
    until(page, f"tablelog.version >= {client.get(game.url()).json['version']}")
    page.click("#abandon")
    page.click("#abandon-confirm")
    page.wait_for_selector("#last-verdict.good")

    entries = client.get(game.url("/events?limit=5000"), headers=game.table).json["events"]
    (registered,) = [e for e in entries if e["type"] == "seat-key-registered"]
    assert registered["seat"] == 0 and registered["public_key"] == held[2]
    mine = [e for e in entries if e["type"] == "move-submitted" and e["seat"] == 0]
    assert len(mine) == 4 and mine[-1]["move"] == {"type": "abandon"}
    for entry in mine:
        payload = move_payload(game.id, 0, entry["expected_version"], entry["move"])
        assert verified(registered["public_key"], entry["signature"], payload), entry
    keys = client.get("/v1/keys").json["keys"]
    replay = client.get(game.url("/replay"), headers=game.table).json
    report = verify_replay(replay, keys)
    assert report["signatures_ok"] and report["head_ok"], report["mismatches"]

    # Every receipt the page got is kept (the key's, each move's), and is the server's word.
    kept = page.evaluate(f"JSON.parse(localStorage.getItem('tablelog:receipts:{game.id}'))")
    assert len(kept) == 5 and kept[0]["seq"] == registered["seq"]
    for receipt in kept:
        assert receipt_problem(receipt, keys) is None
        assert entries[receipt["seq"] - 1]["hash"] == receipt["hash"]

    # The page checks its own game in the browser and says what it checked.
    page.click("#verify-here")
    page.wait_for_selector("#checked-ok")
    assert page.locator("#checked-ok").get_attribute("data-ok") == "true"
    said = page.locator("#checked").text_content()
    assert "4 checked, each made with its seat's key (seats 0)" in said
    assert f"signed by the server's key {keys[0]['kid']}" in said
    assert "5 kept, each extended" in said
    page.set_viewport_size(SIZES["phone"])
    no_sideways_scroll(page)

    # A log rewritten before ann's last receipt, every hash made again: the receipts name where.
    bobs = next(e for e in replay["entries"] if e["type"] == "move-accepted" and e["seat"] == 1)
    bobs["effects"] = []
    rechained(replay["entries"])
    opened = context.new_page()
    opened.goto(f"{web}/replay")
    section = checked(opened, replay)
    first = min(r["seq"] for r in kept if r["seq"] >= bobs["seq"])
    assert opened.locator("#checked-ok").get_attribute("data-first") == str(first)
    assert (first, "receipt") in flagged(section)
    said = section.text_content()
    assert "hash chain: holds" in said
    assert f"the replay differs from what the server signed at entry {first}" in said


def test_a_seat_keyed_meanwhile_elsewhere_is_told_where_its_moves_are_signed(context, web, client):
    game = create(client, "coloretto", ["ann", "bob", "cid"], options={"deals": 1})
    # The page is not told of new entries live: it learns of the key from the 409 alone.
    context.route("**/events?follow=*", lambda route: route.abort())
    context.expected_errors = ("ERR_FAILED",)
    page = context.new_page()
    page.goto(f"{web}/games/{game.id}#seat={game.tokens[0]}")
    ready(page)
    page.wait_for_selector("#sign-my-moves")
    public = b64(Ed25519PrivateKey.generate().public_key().public_bytes_raw())
    put = client.put(game.url("/seats/0/key"), json={"public_key": public}, headers=game.seat(0))
    assert put.status_code == 201
    page.click("#sign-my-moves")
    page.wait_for_selector("#signing-state[data-signs='elsewhere']")
    entries = client.get(game.url("/events"), headers=game.table).json["events"]
    assert [e["type"] for e in entries] == ["game-created", "seat-key-registered"]


def test_the_replay_page_checks_with_the_network_cut_off(context, web, client):
    private = Ed25519PrivateKey.generate()
    game = create(client, "coloretto", ["ann", "bob", "cid"], options={"deals": 1},
                  public_keys={"0": b64(private.public_key().public_bytes_raw())})
    rnd = random.Random(30)
    while legal := client.get(game.url("/legal-moves"), headers=game.table).json["moves"]:
        choice = rnd.choice(legal)
        seat, move = choice["seat"], choice["move"]
        version = client.get(game.url()).json["version"]
        if seat == 0:
            signature = sign_move(private, game.id, 0, version, move)
            answer = game.move(0, move, expected_version=version, signature=signature)
        else:
            answer = game.move(seat, move)
        assert answer.status_code == 201, answer.json
    document = client.get(game.url("/replay")).json
    signed = sum(1 for e in document["entries"] if e["type"] == "move-submitted" and e["seat"] == 0)
    kid = document["head"]["kid"]

    page = context.new_page()
    page.goto(f"{web}/replay")
    until(page, "tablelog.keysKept")
    context.expected_errors = OFFLINE
    context.set_offline(True)

    good = checked(page, document)
    assert page.locator("#checked-ok").get_attribute("data-ok") == "true"
    said = good.text_content()
    assert f"holds over all {len(document['entries'])} entries" in said
    assert f"{signed} checked, each made with its seat's key (seats 0)" in said
    assert f"entry {len(document['entries'])} signed by the server's key {kid}" in said
    until(page, "document.getElementById('message').textContent.includes('cannot be reached')")
    page.set_viewport_size(SIZES["phone"])
    no_sideways_scroll(page)
    page.set_viewport_size(SIZES["desktop"])

    # ann's move altered and every hash made again: her signature no longer holds there.
    altered = json.loads(json.dumps(document))
    move = next(e for e in altered["entries"] if e["type"] == "move-submitted" and e["seat"] == 0
                and e["move"]["type"] == "draw")
    move["move"] = {"type": "take", "row": 0}
    rechained(altered["entries"])
    section = checked(page, altered)
    assert page.locator("#checked-ok").get_attribute("data-first") == str(move["seq"])
    assert flagged(section)[0] == (move["seq"], "signature")
    assert "hash chain: holds" in section.text_content()
    no_sideways_scroll(page)

    # A hash altered: the chain breaks at that entry.
    broken = json.loads(json.dumps(document))
    entry = broken["entries"][9]
    entry["hash"] = "0" * 64
    section = checked(page, broken)
    assert page.locator("#checked-ok").get_attribute("data-first") == "10"
    assert flagged(section)[0] == (10, "hash")
    assert "breaks at entry 10" in section.text_content()


def test_the_browsers_canonical_json_is_pythons_on_every_golden_replay(context, web):
    page = context.new_page()
    page.goto(f"{web}/replay")
    assert page.evaluate("import('/static/js/canonical.js')"
                         ".then((m) => { window.canonicalJs = m; return true; })")
    # What the golden replays may not hold: escapes, non-ASCII, a key past U+FFFF (sorted by code
    # point, not by UTF-16 unit), the largest integer a browser holds exactly.
    awkward = [{"é": "ü\u2028\x1f\"\\/\t", "\U0001f600": 1,
                "\uffef": [True, False, None, -0, 2**53 - 1]}]
    python = [log.canonical(v).decode() for v in awkward]
    assert page.evaluate("(text) => JSON.parse(text).map(window.canonicalJs.canonical)",
                         json.dumps(awkward)) == python
    golden = sorted(HERE.rglob("*.json.gz"))
    assert len(golden) >= 20
    for path in golden:
        recorded = load(path)
        entries = recorded["entries"]
        text = json.dumps(entries, ensure_ascii=False)
        made = page.evaluate("""async (text) => {
            const { canonical, sha256 } = window.canonicalJs;
            const written = JSON.parse(text).map(canonical);
            let previous = "0".repeat(64);
            for (const entry of written) previous = await sha256(previous + entry);
            return { written, head: previous };
        }""", text)
        assert made["written"] == [log.canonical(e).decode() for e in entries], path
        assert made["head"] == recorded["head"], path
