"""Final scoring with provenance: pawns by their cells, point tiles, wish stones."""

import pytest

from engine.game import Table
from engine.games.keltis_nwnz.board import stand_in
from engine.games.keltis_nwnz.game import GAME
from engine.games.keltis_nwnz.scoring import score_player, stone_points
from engine.games.keltis_nwnz.state import Award, Stone

from .tables import dealt, play, with_seat, with_tiles


def stones(*colours):
    return tuple(Stone(c, "c21", 10 + i) for i, c in enumerate(colours))


def components(player):
    return {c.label: c for c in score_player(stand_in(), player)}


@pytest.mark.parametrize(("colours", "points"), [(0, -4), (1, -3), (2, 2), (3, 3), (4, 6),
                                                 (5, 10)])
def test_wish_stones_score_by_the_number_of_colours(colours, points):
    assert stone_points(colours) == points


def test_example_2_four_colours_and_three_blue_stones_score_16():
    player = with_seat(dealt(), 0, stones=stones("B", "B", "B", "Y", "Y", "R", "G")).players[0]
    got = components(player)
    assert got["wish-stone colours"].points == 6
    assert got["wish-stone set B"].points == 10
    assert "wish-stone set Y" not in got  # the second yellow stone earns nothing more
    assert got["wish-stone colours"].points + got["wish-stone set B"].points == 16
    assert got["wish-stone set B"].events == (10, 11, 12)


def test_a_set_scores_10_once_per_colour_however_many_stones():
    player = with_seat(dealt(), 0, stones=stones(*"BBBBBB")).players[0]
    got = components(player)
    assert got["wish-stone set B"].points == 10
    assert got["wish-stone colours"].points == -3


def test_each_colour_of_three_or_more_stones_is_a_set_of_its_own():
    # Three blue, three red and a yellow: three colours 3, two sets 2 x 10.
    player = with_seat(dealt(), 0, stones=stones(*"BBBRRRY")).players[0]
    got = components(player)
    assert got["wish-stone set B"].points == 10 and got["wish-stone set R"].points == 10
    assert got["wish-stone set R"].events == (13, 14, 15)
    assert sum(c.points for label, c in got.items() if label.startswith("wish-stone")) == 23


def test_no_wish_stone_at_all_costs_4():
    assert components(dealt().players[0])["wish-stone colours"].points == -4


def test_pawns_score_their_cell_the_big_pawn_double_negatives_too():
    state = with_seat(dealt(), 0, pawns={"s1": "c1", "s2": "c57", "s3": "c38", "big": "c5"})
    got = components(state.players[0])
    assert got["pawn s1"].points == -4
    assert got["pawn s2"].points == 10
    assert got["pawn s3"].points == 8
    assert got["pawn s4"].points == 0 and "start stone" in got["pawn s4"].detail
    assert got["pawn big"].points == -6 and "doubled" in got["pawn big"].detail


def test_point_tiles_were_scored_during_play_and_count_once():
    player = with_seat(dealt(), 0, awards=(Award(2, "c1", 4), Award(3, "c9", 8))).players[0]
    got = components(player)
    assert got["point tiles"].points == 5 and got["point tiles"].events == (4, 8)


def test_every_point_names_the_log_entries_that_produced_it():
    state = with_tiles(dealt(["R3", "G2", "B10"]), {"c1": "points-3"})
    state, _ = play(state, 0, {"type": "move", "pawn": "big", "to": "c1", "card": "R3"},
                    seq=2)
    score = GAME.score(state).to_json()
    mine = {c["label"]: c for c in score["players"][0]["components"]}
    assert mine["pawn big"] == {"label": "pawn big", "detail": mine["pawn big"]["detail"],
                                "points": -8, "round": 1, "events": [2]}
    assert mine["point tiles"]["events"] == [2] and mine["point tiles"]["points"] == 3
    assert score["final"] is False


def test_open_question_4_a_wish_stone_tile_counts_for_colours_and_for_a_set():
    # Two blue stones from the stack, then the blue path tile itself makes three blue stones.
    state = with_tiles(dealt(["B10"]), {"c3": "wish-B"})
    state = with_seat(state, 0, stones=(Stone("B", "c21", 3), Stone("B", "c21", 5)))
    state, facts = play(state, 0, {"type": "move", "pawn": "s1", "to": "c3", "card": "B10"},
                        seq=8)
    assert {"type": "wish-stone-taken", "seat": 0, "cell": "c3", "colour": "B",
            "source": "tile"} in facts
    assert state.stacks == (5, 5, 5, 5, 5)  # the tile itself, no stone from a stack
    got = components(state.players[0])
    assert got["wish-stone colours"].points == -3
    assert got["wish-stone colours"].events == (3, 5, 8)
    assert got["wish-stone set B"].points == 10 and got["wish-stone set B"].events == (3, 5, 8)


def test_each_pawn_the_point_tiles_and_the_stone_colours_score_in_a_component_of_their_own():
    state = with_tiles(dealt(["R3", "B10"]), {"c1": "points-2"})
    state = with_seat(state, 0, stones=stones("B", "Y"), pawns={"s2": "c38", "big": "c57"})
    state, _ = play(state, 0, {"type": "move", "pawn": "s1", "to": "c1", "card": "R3"}, seq=4)
    seat = GAME.score(state).seats[0]
    by_label = {c.label: c.points for c in seat.components}
    # s1 on c1 -4, s2 on row 9 +8, big on a final 2 x 10, tile +2, two colours +2.
    assert by_label == {"pawn s1": -4, "pawn s2": 8, "pawn s3": 0, "pawn s4": 0,
                        "pawn big": 20, "point tiles": 2, "wish-stone colours": 2}


def test_highest_total_wins_and_ties_share_the_rank():
    state = GAME.deal(Table(3, {}, "r"))
    state = with_seat(state, 1, pawns={"s1": "c57"})
    assert GAME.score(state).ranks() == (2, 1, 2)
