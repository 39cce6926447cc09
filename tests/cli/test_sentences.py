"""The log said as sentences (cli.sentences): facts that name a second seat name its player."""

from cli.sentences import fact, label
from engine.games import GAMES


def test_a_seal_taken_from_another_seat_names_both_players():
    spec = GAMES["sieben-siegel"].spec.to_json()
    taken = {"type": "seal-taken-from", "seat": 1, "seal": "blue", "from_seat": 0}
    assert fact(taken, ["ann", "bob", "cy"], spec) == "bob took a blue seal from ann"


def test_a_fact_no_template_says_reads_without_raw_flags_or_empty_fields():
    spec = GAMES["coloretto"].spec.to_json()
    later = {"type": "takeback-applied", "seat": "table", "to": 5, "undone": [6, 7],
             "agreed": True, "declined": False, "reason": None, "by_seat": 1}
    assert fact(later, ["ann", "bob", "cy"], spec) == (
        "the table takeback applied to 5, undone 6, 7, agreed, by seat bob")


def test_a_move_no_template_says_reads_as_words():
    spec = GAMES["coloretto"].spec.to_json()
    assert label({"type": "claim-timeout"}, spec) == "claim timeout"
    assert label({"type": "takeback", "to": 5}, spec) == "takeback to 5"


def test_a_move_naming_seats_names_their_players():
    spec = GAMES["sieben-siegel"].spec.to_json()
    predict = {"type": "predict", "seals": {"yellow": 2}, "from": {"yellow": [0, 2]}}
    assert label(predict, spec, ["ann", "bob", "cy"]) == (
        "predict 2 yellow (taking yellow from ann, cy)")
