"""The table, the log, the score, the audit and the live follow of a game on the command line,
checked against what the API itself answers."""

from __future__ import annotations

import json
import random
import threading

import pytest

from cli.tables import COLOURS
from engine.games import GAMES
from tests.api import create
from tests.e2e.served import Http


@pytest.fixture(scope="module")
def http(web):
    return Http(web)


def played(http, title: str, moves: int, seed: str):
    """A game of `title` after `moves` random legal moves, posted through the API."""
    game = create(http, title, [f"p{s}" for s in range(min(GAMES[title].seat_counts))],
                  seed=seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        choice = rnd.choice(http.get(game.url("/legal-moves"), headers=game.table).json["moves"])
        assert game.move(choice["seat"], choice["move"]).status_code == 201
    return game


@pytest.fixture(scope="module")
def finished(http):
    """A finished one-round game of Die sieben Siegel."""
    game = create(http, "sieben-siegel", ["ann", "bob", "cid"], seed="finished",
                  options={"rounds": 1})
    game.play_to_end(random.Random("finished"))
    return game


@pytest.mark.parametrize("title", sorted(GAMES))
def test_show_at_an_early_entry_is_the_apis_state_there(tablelog, http, title):
    game = played(http, title, 4, f"show-{title}")
    token = game.tokens[0]
    state = http.get(game.url("/state?at=3"), headers=game.seat(0)).json
    assert tablelog.json("show", game.id, "--at", "3", "--token", token) == state
    drawn = tablelog("show", game.id, "--at", "3", "--token", token)
    assert drawn.exit_code == 0, drawn.output
    assert "after entry 3 · in-progress" in drawn.stdout
    assert all(f"{seat} p{seat}" in drawn.stdout for seat in range(len(game.tokens)))
    hand = state["state"]["you"].get("hand")
    if hand:
        assert f"your hand: {' '.join(hand)}" in drawn.stdout


def test_show_names_each_pawns_cell_on_the_board(tablelog, http):
    game = played(http, "keltis-nwnz", 12, "board")
    cells = {c["id"]: c for c in http.get("/v1/boards/keltis-nwnz").json["cells"]}
    state = http.get(game.url("/state")).json["state"]
    shown = tablelog("show", game.id).stdout
    placed = [(pawn, cells[cell]) for held in state["players"]
              for pawn, cell in held["pawns"].items() if cell in cells]
    assert placed
    for pawn, cell in placed:
        colour = COLOURS.get(cell['colour'], cell['colour'])
        assert f"{pawn} {cell['id']} ({colour} {cell['value']:+d})" in shown


def test_show_as_a_spectator_hides_what_it_may_not_see(tablelog, http):
    game = played(http, "keltis-card", 2, "spectator")
    spectated = tablelog.json("show", game.id)
    assert spectated == http.get(game.url("/state")).json
    assert "you" not in spectated["state"] or not spectated["state"]["you"]


def test_names_are_printed_as_they_are_written(tablelog, http):
    game = create(http, "coloretto", ["[red]ann", "bob", "[bold]cid[/]"], seed="markup")
    shown = tablelog("show", game.id, "--token", game.created["table_token"]).stdout
    assert "0 [red]ann" in shown and "2 [bold]cid[/]" in shown
    said = tablelog("log", game.id).stdout
    assert "coloretto was set up for [red]ann, bob, [bold]cid[/]" in said


def test_log_says_every_entry_as_a_sentence(tablelog, finished):
    events = finished.http.get(finished.url("/events?limit=1000")).json["events"]
    said = tablelog("log", finished.id).stdout.splitlines()
    # A game record: each judged submission is said on its verdict's line, by the verdict's
    # entry number.
    verdicts = {e["of"] for e in events if "of" in e}
    assert [int(line.split()[0]) for line in said] == [
        e["seq"] for e in events if e["seq"] not in verdicts]
    assert said[0].split(None, 2)[2] == "sieben-siegel was set up for ann, bob, cid"
    assert said[-1].endswith(f"the game is over; the seed is revealed: {'finished'}")
    later = tablelog.json("log", finished.id, "--after", "5")
    assert [e["seq"] for e in later] == [e["seq"] for e in events[5:]]


def test_score_cites_the_lines_the_log_shows_and_names_each_rule(tablelog, finished):
    score = finished.http.get(finished.url("/score")).json
    assert tablelog.json("score", finished.id) == score
    shown = tablelog("score", finished.id).stdout
    wins = "lowest" if GAMES[finished.created["game"]].lowest_wins else "highest"
    assert shown.startswith(f"Final score over 1 round(s); the {wins} total wins:")
    # Each cited line is one `tablelog log` prints (a verdict's, never a submission's), with
    # what it brought: the line as the log says it.
    logged = {int(line.split()[0]): line.split(None, 2)[2]
              for line in tablelog("log", finished.id).stdout.splitlines()}
    verdicts = {e["of"]: e["seq"] for e in finished.http.get(
        finished.url("/events?limit=1000")).json["events"] if e["type"] == "move-accepted"}
    for player in score["players"]:
        assert f"{player['seat']} {player['name']}: {player['total']} points" in shown
        for component in player["components"]:
            for event in component["events"]:
                line = verdicts[event]
                assert f"{line} {logged[line]}" in shown
    # The rule of each kind of component, once, below the tables.
    rules = shown[shown.index("How each component scores:"):]
    for component in (c for p in score["players"] for c in p["components"]):
        assert component["rule"] and f"{component['label']}" in rules
        assert component["rule"] in " ".join(rules.split())
    early = tablelog.json("score", finished.id, "--at", "10")
    assert early == finished.http.get(finished.url("/score?at=10")).json


def test_audit_explains_a_claim(tablelog, finished):
    total = finished.http.get(finished.url("/score")).json["players"][0]["total"]
    right = tablelog("audit", finished.id, "--claim", f"0={total}")
    assert right.exit_code == 0, right.output
    assert f"seat 0 claims {total}, recomputed {total}: as recomputed" in right.stdout
    assert right.stdout.endswith("It verifies.\n")
    # Its components cite the lines `tablelog log` and `score` show (a verdict's line, not
    # the submission's entry): one numbering to argue a score in.
    assert "log lines" in right.stdout and "entries" not in right.stdout
    verdicts = {e["of"]: e["seq"] for e in finished.http.get(
        finished.url("/events?limit=1000")).json["events"] if e["type"] == "move-accepted"}
    seat = next(p for p in finished.http.get(finished.url("/score")).json["players"]
                if p["seat"] == 0)
    cited = [", ".join(str(verdicts[e]) for e in c["events"]) for c in seat["components"]
             if c["events"]]
    assert cited and all(lines in right.stdout for lines in cited)
    wrong = tablelog("audit", finished.id, "--claim", f"0={total + 3}", "--claim", "1=0")
    assert wrong.exit_code == 1
    assert f"seat 0 claims {total + 3}, recomputed {total}: 3 more than recomputed" in wrong.stdout
    # A wrong claim is a failure the report ends on, never "It verifies." above exit code 1.
    assert "It verifies." not in wrong.stdout
    last = wrong.stdout.splitlines()[-1]
    assert last.startswith("The log verifies, but a claim is not the recomputed total: ")
    assert f"seat 0 claims {total + 3}, not {total}" in last


def test_a_claim_that_cannot_be_read_is_bad_usage(tablelog, finished):
    result = tablelog("audit", finished.id, "--claim", "ann=3")
    assert result.exit_code == 2
    assert result.stderr == "A claim is SEAT=TOTAL, such as 0=41, not 'ann=3'.\n"


def test_watch_follows_a_game_live_to_its_end(tablelog, http):
    game = create(http, "sieben-siegel", ["ann", "bob", "cid"], seed="watched",
                  options={"rounds": 1})
    player = threading.Thread(target=game.play_to_end, args=(random.Random("watched"),))
    player.start()
    try:
        followed = tablelog("watch", game.id, "--after", "0", "--json")
    finally:
        player.join(60)
    assert followed.exit_code == 0, followed.output
    # Every entry once, in order; the stream redacted hidden predictions while the game ran.
    events = http.get(game.url("/events?limit=1000")).json["events"]
    followed = [json.loads(line) for line in followed.stdout.splitlines()]
    assert [(e["seq"], e["hash"]) for e in followed] == [(e["seq"], e["hash"]) for e in events]
    assert followed[-1]["type"] == "game-finished"


def test_watch_draws_the_table_and_says_the_entries(tablelog, finished):
    shown = tablelog("watch", finished.id, "--after", "40").stdout
    assert "after entry" in shown and "the game is over; the seed is revealed" in shown


def test_watch_says_a_move_on_its_verdicts_line_as_log_does(tablelog, finished):
    watched = tablelog("watch", finished.id, "--after", "1").stdout
    logged = tablelog("log", finished.id).stdout
    said = [line.split(None, 1) for line in logged.splitlines()][1:]  # watched after entry 1
    for seq, sentence in said:
        # log prints each line's time after its seq; watch does not.
        assert f"{seq:>5}  {sentence.split(None, 1)[1]}" in watched
    assert "submitted" not in watched


def test_watching_a_finished_game_ends_at_once(tablelog, finished):
    result = tablelog("watch", finished.id, "--json")
    assert result.exit_code == 0 and result.stdout == ""


def test_an_unknown_game_is_one_sentence_with_exit_code_2(tablelog):
    result = tablelog("show", "no-such-game")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "(game-not-found)" in result.stderr


def test_score_says_what_the_setup_brought_a_coloretto_colour(tablelog, http):
    game = create(http, "coloretto", ["ann", "bob", "cid"], seed="started", options={"deals": 1})
    game.play_to_end(random.Random("started"))
    score = http.get(game.url("/score")).json
    shown = tablelog("score", game.id).stdout
    submitted = {e["seq"] for e in http.get(game.url("/events?limit=1000")).json["events"]
                 if e["type"] == "move-submitted"}
    for player in score["players"]:
        first = [c for c in player["components"] if 1 in c["events"]]
        assert len(first) == 1  # each seat's starting card, dealt at entry 1
        assert f"  {first[0]['label']}: 1 {player['name']}'s starting card: {first[0]['label']}" \
            in shown
    cited = [int(n) for line in shown.splitlines() if line.count("│") == 5
             for n in line.split("│")[4].replace(",", " ").split() if n.isdigit()]
    assert cited and not set(cited) & submitted  # no line `tablelog log` never prints
    assert "the 3 colours worth most count positive" in shown and "1/3/6/10/15/21" in shown
