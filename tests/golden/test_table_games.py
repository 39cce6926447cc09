"""The golden games of the table actions are recorded, and hold every kind of table action:
`test_golden.py` replays each of them byte for byte like every other golden game."""

from engine.table_actions import FACTS
from tests.golden.generate import load
from tests.golden.table_games import GAMES, path_of


def test_every_table_action_is_in_a_recorded_golden_game():
    missing = [name for name in GAMES if not path_of(name).exists()]
    assert not missing, f"record them: .venv/bin/python -m tests.golden.table_games {missing}"
    entries = [e for name in GAMES for e in load(path_of(name))["entries"]]
    facts = {f["type"] for e in entries for f in e.get("effects") or ()}
    assert set(FACTS) <= facts, set(FACTS) - facts
    assert any(e.get("conceded") for e in entries)  # turns the service played
    assert any(e.get("seat") == "table" for e in entries)  # the table acting for no seat
