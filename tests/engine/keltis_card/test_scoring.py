"""Scoring with provenance: colour rows by length, the point row, wish stones; shared places."""

import random
from dataclasses import replace

import pytest

from engine import log
from engine.display import COLOUR_NAMES, COLOURS
from engine.games.keltis_card import GAME, Row, row_points, stone_points
from engine.playout import play as playout_of
from tests.engine.keltis_card.support import dealt, play, run, with_hand, with_rows


@pytest.mark.parametrize(
    ("cards", "points"),
    [(1, -4), (2, -3), (3, -2), (4, 1), (5, 2), (6, 3), (7, 6), (8, 7), (9, 10), (12, 10)],
)
def test_a_colour_row_scores_by_its_number_of_cards(cards, points):
    assert row_points(cards) == points


@pytest.mark.parametrize(
    ("stones", "points"), [(0, -4), (1, -1), (2, 0), (3, 4), (4, 6), (5, 10), (9, 10)]
)
def test_wish_stones_score_by_how_many_a_seat_holds(stones, points):
    assert stone_points(stones) == points


def seat_with(state, seat, point_row=(), stones=(), **rows):
    state = with_rows(state, seat, **rows)
    tableau = state.tableaux[seat]
    tableau = replace(
        tableau,
        point_row=Row(tuple(point_row), tuple(range(50, 50 + len(point_row)))),
        stones=Row(tuple(stones), tuple(range(70, 70 + len(stones)))),
    )
    return replace(state, tableaux=(*state.tableaux[:seat], tableau, *state.tableaux[seat + 1:]))


def test_example_4_rows_of_9_4_and_1_cards_2_point_cards_no_stones_score_5():
    """Digest example 4 (derived): 10 + 1 - 4 + 2 - 4 = 5."""
    state = seat_with(
        dealt(2), 0, point_row=("P1", "P2"),
        G=("G0", "G1", "G2", "G3", "G3", "G4", "G4", "P4", "GF"), R=("R9", "R8", "R8", "P8"),
        B=("B5",),
    )
    seat = GAME.score(state).seats[0]
    assert seat.total == 5
    assert [(c.label, c.points) for c in seat.components] == [
        ("red", 1), ("green", 10), ("blue", -4), ("point cards", 2), ("wish stones", -4)
    ]


def test_example_3_point_cards_in_any_order_score_1_each():
    """Digest example 3, the seed text's point row "3 - 5 - 2 - 8": 1 point each."""
    state = with_hand(dealt(3), 0, "P3", "P5", "P2", "P8", "R1", "R2", "R3", "R4")
    for k, card in enumerate(("P3", "P5", "P2", "P8")):
        state, _ = run(state, 0, play(card), {"type": "draw", "from": "deck"}, seq=10 + 10 * k)
        state = replace(state, turn=0)
    assert state.tableaux[0].point_row.cards == ("P3", "P5", "P2", "P8")
    points = next(c for c in GAME.score(state).seats[0].components if c.label == "point cards")
    assert points.points == 4 and points.events == (10, 20, 30, 40)
    assert points.detail == "4 cards in the point row, 1 each: 4"


def test_open_question_5_point_and_final_cards_count_in_a_row_s_length():
    state = seat_with(dealt(2), 0, Y=("Y3", "P3", "YF", "YF"))
    yellow = GAME.score(state).seats[0].components[0]
    assert yellow.label == "yellow" and yellow.points == 1
    assert yellow.detail == "4 cards in the row: 1"


def test_each_component_names_the_log_entries_that_laid_its_cards():
    state = with_hand(dealt(3), 0, "G5", "P5", "G6", "R1", "R2", "R3", "R4", "R5")
    state, _ = run(state, 0, play("G5"), {"type": "draw", "from": "deck"}, seq=4)
    state = replace(state, turn=0)
    state, _ = run(state, 0, play("P5", "G"), {"type": "draw", "from": "deck"}, seq=8)
    green = GAME.score(state).to_json()["players"][0]["components"][0]
    assert green == {"label": "green", "detail": "2 cards in the row: -3", "points": -3,
                     "round": 1, "events": [4, 8]}


def test_wish_stones_name_the_wish_moves_that_took_them():
    state = with_hand(dealt(3), 0, "G5", "P5", "G6", "R1", "R2", "R3", "R4", "R6")
    state, _ = run(state, 0, {"type": "wish", "cards": ["G5", "P5"]}, seq=6)
    stones = GAME.score(state).seats[0].components[-1]
    assert (stones.points, stones.events, stones.detail) == (-1, (6,), "1 wish stone: -1")


def test_a_colour_without_a_row_scores_nothing_and_rows_and_stones_score_apart():
    state = seat_with(dealt(3), 1, stones=("W1", "W2", "W3"), V=("V1", "V2"))
    seat = GAME.score(state).seats[1]
    assert [(c.label, c.points) for c in seat.components] == [("violet", -3), ("wish stones", 4)]


def test_ties_share_the_place():
    state = seat_with(dealt(3), 0, point_row=("P1",))
    state = seat_with(state, 1, point_row=("P2",))
    score = GAME.score(state)
    assert score.ranks() == (1, 1, 3) and not score.final
    assert [p["rank"] for p in score.to_json()["players"]] == [1, 1, 3]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_finished_game_s_components_name_exactly_the_moves_that_laid_their_cards(seats):
    """Every card a seat laid is in exactly one component, named by the entry that laid it."""
    playout = playout_of(GAME, seats, "provenance", random.Random(seats))
    moves = {e["seq"]: e for e in playout.entries if e["type"] == log.SUBMITTED}
    accepted = {e["of"]: e for e in playout.entries if e["type"] == log.ACCEPTED}
    score = GAME.score(playout.final).to_json()
    game_over = accepted[max(accepted)]["effects"][-1]
    assert score["final"] and game_over["type"] == "game-over"
    for player, tableau in zip(score["players"], playout.final.tableaux, strict=True):
        seat, components = player["seat"], player["components"]
        assert player["total"] == game_over["totals"][seat]
        laid = {c["label"]: c["events"] for c in components if c["label"] != "wish stones"}
        plays = {s for s in accepted if moves[s]["seat"] == seat
                 and moves[s]["move"]["type"] == "play"}
        assert sorted(x for events in laid.values() for x in events) == sorted(plays)
        stones = components[-1]
        assert stones["label"] == "wish stones"
        assert stones["events"] == sorted(
            s for s in accepted if moves[s]["seat"] == seat and moves[s]["move"]["type"] == "wish"
        )
        assert stones["points"] == stone_points(len(tableau.stones.cards))
        for colour, row in zip(COLOURS, tableau.rows, strict=True):
            assert len(laid.get(COLOUR_NAMES[colour], ())) == len(row.cards)
        assert len(laid.get("point cards", ())) == len(tableau.point_row.cards)
