"""A Hermit game recorded at a real table from the command line: `new --recorded`, `setup`
(the centre card with five players, nothing else named), each card named with `play --card`,
what not following proves and the revoke a later card shows, and a whole game recorded to its
end, its replay verified with no server."""

from __future__ import annotations

import json
import random

from engine.games import GAMES
from engine.playout import play, transcribe
from tests.cli.test_recording import recorded_to_the_end
from tests.cli.test_table_actions import done, rejected

PLAYERS = ("ann", "bob", "cid")


def recorded(tablelog, *players: str) -> str:
    created = tablelog.json("new", "hermit", *(players or PLAYERS), "--recorded")
    assert created["deal"] == "recorded" and created["seed_commitment"] is None
    return created["id"]


def test_the_setup_and_each_card_as_seen_and_a_revoke_said_as_a_rule(tablelog):
    game = recorded(tablelog)
    assert "recorded: the table names the setup first" in done(tablelog("show", game))
    rejected(tablelog("setup", game, '{"centre": "bard"}'), "no-centre")
    assert "round 1 is dealt, 12 cards each" in done(tablelog("setup", game, "{}"))
    for seat, card in enumerate(("ace-moons", "ace-suns", "ace-waves")):
        done(tablelog("play", game, '{"type": "start"}', "--card", card, "--seat", str(seat)))
    rejected(tablelog("play", game, '{"type": "play", "group": 0}', "--card", "ace-moons"),
             "card-seen")
    said = done(tablelog("play", game, '{"type": "play"}', "--card", "ace-leaves"))
    assert "ann had no moons, suns, waves" in said
    assert "had none: ann moons (entry" in done(tablelog("show", game))
    done(tablelog("play", game, '{"type": "play", "group": 2}', "--card", "origin"))
    done(tablelog("play", game, '{"type": "play", "group": 2}', "--card", "sailor"))
    said = done(tablelog("play", game, '{"type": "play", "group": 0}', "--card", "lunatic"))
    assert "revoke: ann did not follow moons, waves at entry" in said
    assert "while holding lunatic (must_follow)" in said


def test_a_whole_game_is_recorded_from_the_command_line_and_verifies(tablelog, tmp_path):
    players = ["ann", "bob", "cid", "dan", "eve"]
    seeded = play(GAMES["hermit"], 5, "cli", random.Random("cli"), {})
    game = recorded(tablelog, *players)
    for who, move in transcribe(seeded):
        if who == "table":
            done(tablelog("setup", game, json.dumps({k: v for k, v in move.items()
                                                     if k != "type"})))
        else:
            card = move.pop("card")
            done(tablelog("play", game, json.dumps(move), "--card", card, "--seat", str(who)))
    recorded_to_the_end(tablelog, game, seeded, players, tmp_path)
