"""What every command shares: tokens kept by `new`, the server's problems and its absence as one
sentence with exit code 2, and a busy server's Retry-After honoured a bounded number of times."""

from __future__ import annotations

import json
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from cli import tokens
from engine.games import GAMES


def test_new_keeps_the_tokens_for_the_user_alone(tablelog, tmp_path):
    created = tablelog.json("new", "coloretto", "ann", "bob", "cid", "--seed", "kept")
    kept = tokens.path(created["id"])
    assert kept.is_relative_to(tmp_path)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert tokens.token(created["id"]) == created["table_token"]
    assert tokens.token(created["id"], 1) == created["seats"][1]["token"]


def test_new_prints_each_seats_link_and_token(tablelog, web):
    result = tablelog("new", "hermit", "ann", "bob", "cid", "--option", "target=66")
    assert result.exit_code == 0, result.output
    assert f"{web}/games/" in result.output and "#seat=" in result.output
    assert "Tokens kept in" in result.output


@pytest.mark.parametrize("written", [json.dumps, " ".join])
def test_new_deals_an_explicit_deck(tablelog, tmp_path, written):
    game = GAMES["keltis-card"]
    deck = list(reversed(game.canonical_deck(2, game.options(2, {}))))
    path = tmp_path / "deck.txt"
    path.write_text(written(deck))
    created = tablelog.json("new", "keltis-card", "ann", "bob", "--deck", str(path))
    hand = tablelog.json("show", created["id"], "--seat", "0")["state"]["you"]["hand"]
    assert sorted(hand) == sorted(deck[:8])


def test_an_option_is_name_equals_value(tablelog):
    result = tablelog("new", "coloretto", "ann", "bob", "cid", "--option", "deals")
    assert result.exit_code == 2
    assert result.stderr == "An option is NAME=VALUE, not 'deals'.\n"


def test_games_lists_a_new_game_by_title_and_status(tablelog):
    created = tablelog.json("new", "keltis-card", "ann", "bob")
    listed = tablelog.json("games", "--game", "keltis-card", "--status", "in-progress")
    assert created["id"] in [game["id"] for game in listed["games"]]
    assert {game["game"] for game in listed["games"]} == {"keltis-card"}
    shown = tablelog("games", "--game", "keltis-card", "--limit", "1").stdout
    assert f"{created['id']} │ keltis-card │ ann, bob │ in-progress" in shown


def test_a_problem_is_one_sentence_with_exit_code_2(tablelog):
    result = tablelog("new", "coloretto", "ann", "--option", "deals=1")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output
    assert result.stderr.endswith(").\n")


def test_no_server_is_one_sentence_with_exit_code_2(offline):
    result = offline("games")
    assert result.exit_code == 2
    assert result.stderr == "No tablelog server answers at http://127.0.0.1:9.\n"


class _Busy(BaseHTTPRequestHandler):
    """Answers 429 with Retry-After 0 to its first `busy` requests, then `answer`."""

    def do_GET(self):
        self.server.seen += 1
        if self.server.seen <= self.server.busy:
            self.send_response(429)
            self.send_header("Retry-After", "0")
            self.send_header("Content-Type", "application/problem+json")
            body = b'{"status": 429, "code": "busy", "detail": "too many requests"}'
        else:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            body = self.server.answer
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@contextmanager
def _busy_server(busy: int, answer: bytes = b'{"games": [], "next": null}'
                 ) -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Busy)
    server.seen, server.busy, server.answer = 0, busy, answer
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def test_a_busy_server_is_asked_again_when_it_says(offline):
    with _busy_server(busy=2) as server:
        result = offline("games", "--url", f"http://127.0.0.1:{server.server_port}")
    assert result.exit_code == 0, result.output
    assert server.seen == 3


def test_a_server_that_stays_busy_is_given_up_on(offline):
    with _busy_server(busy=100) as server:
        result = offline("games", "--url", f"http://127.0.0.1:{server.server_port}")
    assert result.exit_code == 2
    assert result.stderr == "Too many requests (busy).\n"
    assert server.seen == 4


def test_a_server_that_is_no_tablelog_is_one_sentence(offline):
    with _busy_server(busy=0, answer=b"<html>a page</html>") as server:
        url = f"http://127.0.0.1:{server.server_port}"
        result = offline("games", "--url", url)
    assert result.exit_code == 2
    assert result.stderr == (f"The server at {url} answered something other than JSON: "
                             f"is it a tablelog server?\n")
