"""The log said as sentences (cli.sentences): facts that name a second seat name its player."""

from cli.sentences import fact
from engine.games import GAMES


def test_a_seal_taken_from_another_seat_names_both_players():
    spec = GAMES["sieben-siegel"].spec.to_json()
    taken = {"type": "seal-taken-from", "seat": 1, "seal": "blue", "from_seat": 0}
    assert fact(taken, ["ann", "bob", "cy"], spec) == "bob took a blue seal from ann"
