"""Colour rows shared by the Keltis games: direction, finals, point cards (engine/display.py)."""

import pytest

from engine import display
from engine.display import ASCENDING, DESCENDING, OPEN, check_follow, direction, may_follow
from tests.engine.refusals import refusal


def refused(row, colour, card, code, *words):
    return refusal(lambda: check_follow(tuple(row), colour, card), code, *words)


def test_card_codes_are_read_by_colour_and_value():
    assert display.colour_of("G7") == "G" and display.value_of("G7") == 7
    assert display.colour_of("R10") == "R" and display.value_of("R10") == 10
    assert display.colour_of("P3") is None and display.value_of("P3") == 3
    assert display.is_final("BF") and display.value_of("BF") is None
    assert display.is_point("P0") and not display.is_numbered("P0")


def test_an_empty_row_takes_any_numbered_card():
    assert all(may_follow((), "R", f"R{v}") for v in range(11))


@pytest.mark.parametrize(
    ("row", "way"),
    [((), OPEN), (("R5",), OPEN), (("R5", "R5"), OPEN), (("R5", "R5", "R7"), ASCENDING),
     (("R5", "R3"), DESCENDING), (("R0",), OPEN), (("R10", "R10"), OPEN)],
)
def test_direction_is_open_until_the_first_different_value(row, way):
    assert direction(row) == way


def test_an_open_row_accepts_any_value():
    assert may_follow(("R5", "R5"), "R", "R2") and may_follow(("R5", "R5"), "R", "R9")


def test_a_row_begun_with_0_can_only_rise_and_with_10_only_fall():
    assert all(may_follow(("R0",), "R", f"R{v}") for v in range(11))
    assert direction(("R0", "R0", "R1")) == ASCENDING
    assert direction(("R10", "R9")) == DESCENDING


def test_example_ascending_row_3_3_6_7_7_then_5_is_refused():
    row = ()
    for card in ("G3", "G3", "G6", "G7", "G7"):
        check_follow(row, "G", card)
        row = (*row, card)
    detail = refused(row, "G", "G5", "row-direction")
    assert detail == "the green row is ascending: 5 is below its highest card 7"


def test_example_descending_row_9_8_8_5_3_then_4_is_refused():
    row = ()
    for card in ("B9", "B8", "B8", "B5", "B3"):
        check_follow(row, "B", card)
        row = (*row, card)
    detail = refused(row, "B", "B4", "row-direction")
    assert detail == "the blue row is descending: 4 is above its lowest card 3"


def test_equal_values_are_always_allowed():
    assert may_follow(("R9", "R4"), "R", "R4") and may_follow(("R2", "R6"), "R", "R6")


def test_the_brief_example_message():
    assert refused(("R8", "R4"), "R", "R6", "row-direction") == (
        "the red row is descending: 6 is above its lowest card 4"
    )


def test_a_card_of_another_colour_is_refused():
    refused(("R3",), "R", "G4", "wrong-row", "own colour")


def test_removing_the_top_card_re_derives_the_direction():
    row = display.without_top(("Y4", "Y4", "Y2"))
    assert row == ("Y4", "Y4") and direction(row) == OPEN
    assert may_follow(row, "Y", "Y9")


def test_a_final_card_may_start_a_row_or_follow_any_cards():
    assert may_follow((), "V", "VF")
    assert may_follow(("V3", "V5", "P5"), "V", "VF")


def test_after_a_final_only_the_second_final_may_follow():
    assert may_follow(("V3", "VF"), "V", "VF")
    refused(("V3", "VF"), "V", "V4", "after-final", "second violet final")
    refused(("V3", "VF"), "V", "P3", "after-final")


def test_the_second_final_closes_the_row():
    assert display.is_closed(("VF", "VF"))
    refused(("V2", "VF", "VF"), "V", "VF", "row-closed", "closed")


def test_a_point_card_joins_a_row_only_on_a_numbered_card_of_its_value():
    assert may_follow(("G3", "G5"), "G", "P5")
    assert may_follow(("G3", "G5", "P5"), "G", "G5")
    refused(("G3", "G5"), "G", "P3", "point-card-value",
            "last numbered card of the green row is 5, not 3")
    refused((), "G", "P3", "point-card-value")


def test_point_cards_in_a_row_do_not_change_its_direction():
    assert direction(("G5", "P5")) == OPEN
    assert display.last_value(("G5", "G7", "P7")) == 7
