"""A game recorded at a real table from the command line: `new --recorded`, `setup` (JSON or a
file), draws named with `play --card` or picked from `moves`, refusals said as rules, and a
whole game recorded to its end, its replay verified with no server."""

from __future__ import annotations

import json
import random
from collections import Counter

from engine.games import GAMES
from engine.games.keltis_nwnz.state import TILES
from engine.playout import play, transcribe
from tests.cli.test_table_actions import done, rejected

SETUP = '{"starting_cards": ["pink", "blue", "grey"], "removed_color": "green"}'


def recorded(tablelog, *options: str) -> str:
    created = tablelog.json("new", "coloretto", "ann", "bob", "cid", "--recorded", *options)
    assert created["deal"] == "recorded" and created["seed_commitment"] is None
    return created["id"]


def test_new_recorded_says_the_table_names_the_cards(tablelog):
    said = done(tablelog("new", "coloretto", "ann", "bob", "cid", "--recorded"))
    assert "recorded at the table" in said and "tablelog setup" in said
    assert "seed commitment" not in said


def test_the_setup_is_named_from_json_or_a_file_and_a_second_is_rejected(tablelog, tmp_path):
    game = recorded(tablelog)
    rejected(tablelog("play", game, '{"type": "draw"}', "--card", "pink"), "setup-first")
    said = done(tablelog("setup", game, SETUP))
    assert "deal 1 begins; starting cards: ann pink, bob blue, cid grey" in said
    kept = tmp_path / "setup.json"
    kept.write_text(SETUP)
    rejected(tablelog("setup", game, str(kept)), "setup-recorded")


def test_a_draw_names_its_card_with_card_or_from_the_numbered_moves(tablelog):
    game = recorded(tablelog)
    done(tablelog("setup", game, SETUP))
    rejected(tablelog("play", game, '{"type": "draw"}'), "card-required")
    rejected(tablelog("play", game, '{"type": "draw"}', "--card", "green"), "card-not-in-game")
    assert "ann drew joker" in done(tablelog("play", game, '{"type": "draw"}', "--card",
                                             "joker"))
    done(tablelog("play", game, '{"type": "place", "row": 0}'))
    listed = done(tablelog("moves", game))
    number = next(line.split(".")[0].strip() for line in listed.splitlines()
                  if '"card": "+2"' in line)
    assert "bob drew +2" in done(tablelog("play", game, number))


def test_a_whole_game_is_recorded_from_the_command_line_and_verifies(tablelog, tmp_path):
    seeded = play(GAMES["coloretto"], 3, "cli", random.Random("cli"), {"deals": 1})
    game = recorded(tablelog, "--option", "deals=1")
    for who, move in transcribe(seeded):
        if who == "table":
            done(tablelog("setup", game, json.dumps(move)))
        elif move["type"] == "draw":
            done(tablelog("play", game, '{"type": "draw"}', "--card", move["card"]))
        else:
            done(tablelog("play", game, json.dumps(move)))
    recorded_to_the_end(tablelog, game, seeded, ["ann", "bob", "cid"], tmp_path)


def recorded_to_the_end(tablelog, game: str, seeded, players: list[str], tmp_path) -> None:
    """`game`, recording the `seeded` playout, is finished with its totals, and its replay
    says it was recorded and verifies with no server."""
    assert tablelog.json("show", game)["status"] == "finished"
    want = seeded.game.score(seeded.final).to_json(players)
    totals = [p["total"] for p in tablelog.json("score", game)["players"]]
    assert totals == [p["total"] for p in want["players"]]
    document = tmp_path / "replay.json"
    done(tablelog("replay", game, "-o", str(document)))
    assert json.loads(document.read_text())["deal"] == "recorded"
    verified = tablelog("verify", str(document))
    assert verified.exit_code == 0, verified.output


def test_show_says_a_recorded_deal_waits_for_its_setup(tablelog):
    game = recorded(tablelog)
    assert "recorded: the table names the setup first" in done(tablelog("show", game))
    done(tablelog("setup", game, SETUP))
    shown = done(tablelog("show", game))
    assert "names the setup" not in shown and "deck 65" in shown


def test_a_keltis_card_game_is_dealt_by_the_tables_setup_and_its_cards_named_as_played(
        tablelog):
    created = tablelog.json("new", "keltis-card", "ann", "bob", "--recorded")
    game = created["id"]
    assert "the table deals (its setup) first" in done(tablelog("show", game))
    done(tablelog("setup", game, "{}"))
    assert "deck 55" in done(tablelog("show", game))
    assert "ann played G10" in done(tablelog("play", game, '{"type": "play", "card": "G10"}'))
    done(tablelog("play", game, '{"type": "draw", "from": "deck"}'))
    rejected(tablelog("play", game, '{"type": "play", "card": "G10"}'), "card-seen")


def test_a_keltis_nwnz_game_is_set_up_with_its_tiles_and_its_cards_named_as_played(tablelog):
    created = tablelog.json("new", "keltis-nwnz", "ann", "bob", "--recorded")
    game = created["id"]
    assert "the table lays the tiles and deals (its setup) first" in done(
        tablelog("show", game))
    tiles = ["discard", *(Counter(TILES) - Counter(["discard"])).elements()]
    rejected(tablelog("setup", game, json.dumps({"tiles": ["clover", *tiles[1:]]})), "tile-set")
    done(tablelog("setup", game, json.dumps({"tiles": tiles})))
    assert "deck 64" in done(tablelog("show", game))
    said = done(tablelog("play", game, '{"type": "move", "pawn": "s1", "to": "c1", "card": "R4"}'))
    assert "ann moved s1" in said and "R4" in said
    done(tablelog("play", game, '{"type": "draw", "from": "deck"}'))
    done(tablelog("play", game, '{"type": "discard", "card": "R4"}'))
    done(tablelog("play", game, '{"type": "draw", "from": "deck"}'))
    rejected(tablelog("play", game, '{"type": "discard", "card": "R4"}'), "card-seen")
