"""A whole short game of every title played on the command line with `new`, `moves` and
`play`, and what `play` says when a move is refused or cannot be read."""

from __future__ import annotations

import json
import random

import pytest

from cli import tokens
from engine.games import GAMES

# The shortest games the options allow: one deal, one round.
SHORT = {"coloretto": ["--option", "deals=1"], "sieben-siegel": ["--option", "rounds=1"]}


def new_game(tablelog, title: str, seats: int, seed: str) -> dict:
    players = [f"p{seat}" for seat in range(seats)]
    return tablelog.json("new", title, *players, *SHORT.get(title, []), "--seed", seed)


def play_to_end(tablelog, game: str, rnd: random.Random, most: int = 2000) -> int:
    """Random legal moves listed by `moves`, posted with `play` (as JSON, with their seat: by
    number, `play` would ask for the list again)."""
    for played in range(most):
        listed = tablelog.json("moves", game)["moves"]
        if not listed:
            return played
        chosen = rnd.choice(listed)
        answer = tablelog.json("play", game, json.dumps(chosen["move"]),
                               "--seat", str(chosen["seat"]))
        assert answer["status"] == "accepted"
    raise AssertionError(f"{game} did not end in {most} moves")


@pytest.mark.parametrize("title", sorted(GAMES))
def test_a_whole_short_game_on_the_command_line(tablelog, title):
    seats = min(GAMES[title].seat_counts)
    created = new_game(tablelog, title, seats, f"cli-{title}")
    played = play_to_end(tablelog, created["id"], random.Random(title))
    assert played > seats
    summary = tablelog.json("games", "--game", title, "--status", "finished")["games"]
    assert created["id"] in [game["id"] for game in summary]
    drawn = tablelog("show", created["id"])
    assert drawn.exit_code == 0, drawn.output
    assert "· finished · round" in drawn.stdout and "* to act: nobody" in drawn.stdout


def test_a_move_written_as_json_prints_its_verdict_and_effects(tablelog):
    game = new_game(tablelog, "coloretto", 3, "json-move")["id"]
    result = tablelog("play", game, '{"type": "draw"}')
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Accepted (entry 2")
    assert "p0 drew " in result.stdout


def test_a_rejected_move_names_the_rule_and_exits_1(tablelog):
    game = new_game(tablelog, "coloretto", 3, "rejected")["id"]
    result = tablelog("play", game, '{"type": "take", "row": 0}', "--seat", "1")
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("Rejected: ") and "(not-your-turn)." in result.stderr
    assert "Traceback" not in result.output


def test_a_seats_own_token_plays_for_it(tablelog):
    game = new_game(tablelog, "coloretto", 3, "seat-token")["id"]
    listed = tablelog.json("moves", game, "--seat", "0")["moves"]
    assert {m["seat"] for m in listed} == {0}
    assert tablelog.json("moves", game, "--seat", "1")["moves"] == []
    result = tablelog("play", game, "1", "--seat", "0")
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(("move", "said"), [
    ("7", "There is no move 7: `tablelog moves {game}` lists 1.\n"),
    ("take", "A move is a number from `tablelog moves` or JSON, not 'take'.\n"),
])
def test_a_move_that_cannot_be_read_is_bad_usage(tablelog, move, said):
    game = new_game(tablelog, "coloretto", 3, "unreadable")["id"]
    result = tablelog("play", game, move)
    assert result.exit_code == 2
    assert result.stderr == said.format(game=game)


def test_a_seat_the_game_does_not_have_is_bad_usage(tablelog):
    game = new_game(tablelog, "keltis-card", 2, "no-seat-7")["id"]
    result = tablelog("show", game, "--seat", "7")
    assert result.exit_code == 2
    assert result.stderr == f"Game {game} has no seat 7: its seats are 0 to 1.\n"


@pytest.mark.parametrize("command", ["show", "log", "moves", "score"])
@pytest.mark.parametrize("whose", ["table", "seat"])
def test_a_seat_the_game_does_not_have_is_bad_usage_whatever_the_token(
        tablelog, monkeypatch, command, whose):
    created = new_game(tablelog, "coloretto", 4, f"no-seat-7-{command}-{whose}")
    game = created["id"]
    tokens.path(game).unlink()  # the token is given, not kept
    token = created["table_token"] if whose == "table" else created["seats"][1]["token"]
    monkeypatch.setenv("TABLELOG_TOKEN", token)
    result = tablelog(command, game, "--seat", "7")
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == f"Game {game} has no seat 7: its seats are 0 to 3.\n"
    assert tablelog(command, game, "--seat", "3").exit_code == 0


def test_moves_without_a_token_says_a_spectator_has_none(tablelog):
    game = new_game(tablelog, "coloretto", 3, "no-token")["id"]
    tokens.path(game).unlink()  # as on another machine than the one that created it
    result = tablelog("moves", game)
    assert result.exit_code == 2
    assert "No legal move" not in result.output
    assert result.stderr == (f"No token of game {game} is kept here or given (--token or"
                             " TABLELOG_TOKEN): a spectator has no moves.\n")


def test_a_move_on_a_finished_game_is_rejected_saying_so(tablelog):
    game = new_game(tablelog, "sieben-siegel", 3, "over")["id"]
    play_to_end(tablelog, game, random.Random("over"))
    for seat in ([], ["--seat", "1"]):
        result = tablelog("play", game, '{"type": "play", "card": "R1"}', *seat)
        assert result.exit_code == 1, result.output
        assert result.stderr == f"Rejected: game {game} is finished; it takes no more moves.\n"


def test_a_seat_with_nothing_to_do_is_told_so_not_sent_to_another_seats_list(tablelog):
    game = new_game(tablelog, "coloretto", 3, "idle-seat")["id"]
    result = tablelog("play", game, "1", "--seat", "1")
    assert result.exit_code == 1
    assert result.stderr == (f"There is no legal move for seat 1 now: `tablelog show {game}`"
                             " says whose turn it is.\n")
    beyond = tablelog("play", game, "9", "--seat", "0")
    assert beyond.exit_code == 2
    assert f"`tablelog moves {game} --seat 0` lists 1." in beyond.stderr
