"""The log said as sentences (cli.sentences): facts that name a second seat name its player."""

from cli.sentences import fact


def test_a_seal_taken_from_another_seat_names_both_players():
    taken = {"type": "seal-taken-from", "seat": 1, "seal": "blue", "from_seat": 0}
    assert fact(taken, ["ann", "bob", "cy"]) == "bob took a blue seal from ann"
