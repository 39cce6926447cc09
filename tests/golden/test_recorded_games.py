"""The golden games recorded at a real table are there, for every title that takes recorded
deals, and hold what only a recorded game has: `test_golden.py` replays each byte for byte."""

from engine import log
from engine.games import GAMES as TITLES
from tests.golden.generate import load
from tests.golden.recorded_games import GAMES, REFUSED, path_of


def test_every_title_that_takes_recorded_deals_has_a_recorded_golden_game():
    missing = [name for name in GAMES if not path_of(name).exists()]
    assert not missing, "record them: .venv/bin/python -m tests.golden.recorded_games"
    recorded = {title for title, _, _ in GAMES.values()}
    assert recorded == {name for name, game in TITLES.items() if game.spec.recorded}


def test_a_recorded_golden_game_has_no_seed_and_names_its_setups_and_cards():
    for name, (title, _, _) in GAMES.items():
        golden = load(path_of(name))
        entries = golden["entries"]
        assert golden["seed"] == "" and entries[0]["deal"] == "recorded"
        assert "seed_commitment" not in entries[0]
        assert entries[-1] == {"type": log.FINISHED, "deal": "recorded", "seq": len(entries)}
        refused = {e["code"] for e in entries if e["type"] == log.REJECTED}
        assert REFUSED[title] <= refused
        setups = [e for e in entries if e["type"] == log.ACCEPTED and e["seat"] == "table"]
        assert len(setups) == golden["score"]["rounds"]  # one a deal, or a round


def test_a_recorded_golden_game_with_a_follow_rule_holds_what_its_plays_proved():
    # Die sieben Siegel's follow suit, Hermit's designer's rule (engine.recorded.Follows).
    for name in ("sieben-siegel-4p", "hermit-2p", "hermit-5p"):
        golden = load(path_of(name))
        facts = [f["type"] for e in golden["entries"] if e["type"] == log.ACCEPTED
                 for f in e["effects"]]
        assert "had-none" in facts and "revoke" not in facts  # a seeded game keeps the rule
