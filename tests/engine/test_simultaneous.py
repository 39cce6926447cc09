"""The generic simultaneous hidden choice: one card per seat, revealed when all have chosen."""

import pytest

from engine import visibility
from engine.simultaneous import Simultaneous
from tests.engine.refusals import refusal


def test_choices_wait_for_every_seat_asked_and_reveal_in_seat_order():
    round_ = Simultaneous("start", (0, 1, 2))
    round_, _ = round_.choose(2, "sea", 4)
    round_, _ = round_.choose(0, "bard", 6)
    assert round_.waiting == (1,) and not round_.complete
    round_, _ = round_.choose(1, "end", 8)
    assert round_.complete
    assert [(c.seat, c.card, c.seq) for c in round_.revealed()] == [
        (0, "bard", 6), (1, "end", 8), (2, "sea", 4)
    ]


def test_a_choice_is_private_to_its_seat_in_facts_and_views():
    round_, fact = Simultaneous("start", (0, 1)).choose(1, "sea", 4)
    assert visibility.redact(fact.to_json(), 0)["card"] is None
    assert visibility.redact(fact.to_json(), "spectator")["card"] is None
    assert visibility.redact(fact.to_json(), 1)["card"] == "sea"
    assert round_.public() == {"move": "start", "waiting": [0]}
    assert round_.private(1) == "sea" and round_.private(0) is None


def test_each_seat_chooses_once_and_only_seats_asked_choose():
    round_, _ = Simultaneous("start", (0, 1)).choose(0, "sea", 4)
    refusal(lambda: round_.choose(0, "bard", 6), "already-chosen", "waiting for seat 1")
    assert refusal(lambda: round_.choose(2, "bard", 6), "not-choosing") == (
        "seat 2 has no start choice to make this time"
    )


def test_a_second_choice_once_everyone_has_chosen_says_so():
    round_, _ = Simultaneous("start", (0,)).choose(0, "sea", 4)
    assert refusal(lambda: round_.choose(0, "bard", 6), "already-chosen") == (
        "each seat makes one start choice: yours is made; every seat has chosen"
    )


def test_revealing_before_everyone_has_chosen_is_refused_even_without_asserts():
    # A plain exception, not an `assert`: python -O must not turn the guard off.
    with pytest.raises(RuntimeError, match="only once every seat has chosen"):
        Simultaneous("start", (0, 1)).revealed()
