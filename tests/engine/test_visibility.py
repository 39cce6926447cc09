"""Redaction of log entries: hidden fields are for their seat alone while the game runs."""

from engine.game import SPECTATOR, TABLE
from engine.visibility import is_redacted, redact, shown_to

ENTRY = {
    "seq": 5,
    "type": "move-accepted",
    "seat": 1,
    "effects": [
        {"type": "drew", "seat": 1, "card": "G7", "hidden": ["card"]},
        {"type": "played", "seat": 2, "card": "R3"},
        {"type": "dealt", "seat": 2, "hand": ["B1", "B2"], "hidden": ["hand"]},
    ],
}


def test_other_seats_get_hidden_fields_as_null():
    seen = redact(ENTRY, 0)
    assert seen["effects"][0] == {"type": "drew", "seat": 1, "card": None, "hidden": ["card"]}
    assert seen["effects"][2]["hand"] is None


def test_spectators_get_hidden_fields_as_null():
    seen = redact(ENTRY, SPECTATOR)
    assert seen["effects"][0]["card"] is None
    assert seen["effects"][2]["hand"] is None


def test_the_owner_sees_its_own_hidden_fields_but_not_another_seats():
    seen = redact(ENTRY, 1)
    assert seen["effects"][0]["card"] == "G7"
    assert seen["effects"][2]["hand"] is None
    assert redact(ENTRY, 2)["effects"][2]["hand"] == ["B1", "B2"]


def test_fields_not_marked_hidden_are_left_alone():
    seen = redact(ENTRY, SPECTATOR)
    assert seen["effects"][1] == ENTRY["effects"][1]
    assert {k: v for k, v in seen.items() if k != "effects"} == {
        k: v for k, v in ENTRY.items() if k != "effects"
    }


def test_the_table_sees_everything():
    assert redact(ENTRY, TABLE) == ENTRY
    assert shown_to(TABLE, finished=False) == TABLE


def test_everybody_sees_everything_once_the_game_is_finished():
    assert redact(ENTRY, SPECTATOR, finished=True) == ENTRY
    assert redact(ENTRY, 0, finished=True) == ENTRY
    assert shown_to(0, finished=True) == shown_to(SPECTATOR, finished=True) == TABLE
    assert shown_to(SPECTATOR, finished=False) == SPECTATOR


def test_a_whole_entry_can_be_hidden_from_other_seats():
    rejected = {"type": "move-rejected", "seat": 0, "code": "row-full", "detail": "d",
                "hidden": ["code", "detail"]}
    assert redact(rejected, 1)["code"] is None and redact(rejected, 1)["detail"] is None
    assert redact(rejected, 0) == rejected


def test_redaction_does_not_change_the_entry_it_is_given():
    before = repr(ENTRY)
    redact(ENTRY, SPECTATOR)
    assert repr(ENTRY) == before


def test_an_entry_knows_whether_something_was_withheld_from_its_viewer():
    assert not is_redacted(ENTRY)
    assert is_redacted(redact(ENTRY, SPECTATOR))
    assert is_redacted(redact(ENTRY, 1))  # seat 2's hand is withheld from seat 1
    assert not is_redacted(redact(ENTRY, TABLE))
    assert not is_redacted(redact({**ENTRY, "effects": ENTRY["effects"][:2]}, 1))
