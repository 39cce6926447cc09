"""The log said as sentences (cli.sentences): facts that name a second seat name its player,
and the entries a takeback undid are known as such."""

from cli.sentences import fact, label, taken_back
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
    assert label({"type": "swap-hands"}, spec) == "swap hands"
    assert label({"type": "deal-again", "to": 5}, spec) == "deal again to 5"


def test_table_actions_read_by_the_templates_every_title_has():
    spec = GAMES["coloretto"].spec.to_json()
    assert label({"type": "claim-timeout"}, spec) == "claim a timeout"
    assert label({"type": "takeback", "to": 5}, spec) == "take the game back to entry 5"


def test_a_takeback_marks_the_submissions_it_undid_and_their_verdicts():
    log = [{"seq": 2, "type": "move-submitted"}, {"seq": 3, "type": "move-accepted", "of": 2},
           {"seq": 4, "type": "move-submitted"}, {"seq": 5, "type": "move-accepted", "of": 4},
           {"seq": 6, "type": "move-submitted"},
           {"seq": 7, "type": "move-accepted", "of": 6,
            "effects": [{"type": "taken-back", "to": 3, "undone": [4]}]}]
    assert taken_back(log) == {4, 5}
    assert taken_back(log[:5]) == set()


def test_a_move_naming_seats_names_their_players():
    spec = GAMES["sieben-siegel"].spec.to_json()
    predict = {"type": "predict", "seals": {"yellow": 2}, "from": {"yellow": [0, 2]}}
    assert label(predict, spec, ["ann", "bob", "cy"]) == (
        "predict 2 yellow (taking yellow from ann, cy)")
