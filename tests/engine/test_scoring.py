"""Score breakdowns (docs/api.md): ranks with ties, lowest wins, the JSON shape."""

from engine.scoring import Component, Score, SeatScore, by_seat


def seat(n, *points, round=1):
    return SeatScore(n, tuple(Component(f"c{i}", f"{p} points", p, round, (i + 2,))
                              for i, p in enumerate(points)))


def test_a_seats_total_is_the_sum_of_its_components():
    assert seat(0, 21, 15, -3, 2).total == 35
    assert seat(0).total == 0


def test_tied_seats_share_a_rank_and_the_next_rank_is_skipped():
    score = Score(True, 1, (seat(0, 10), seat(1, 7), seat(2, 10), seat(3, 3)))
    assert score.ranks() == (1, 3, 1, 4)


def test_lowest_total_ranks_first_when_lowest_wins():
    score = Score(True, 1, (seat(0, 10), seat(1, 7), seat(2, 7)), lowest_wins=True)
    assert score.ranks() == (3, 1, 1)


def test_to_json_has_the_contract_shape_with_totals_and_ranks():
    score = Score(
        final=True,
        rounds=2,
        seats=(
            SeatScore(0, (Component("green", "6 cards, counted positive: 21", 21, 1, (9, 4, 4)),
                          Component("+2", "1 card worth 2 each: 2", 2, 2, (31,)))),
            seat(1, 5, 5),
        ),
    )
    out = score.to_json(["ann", "bob"])
    assert out == {
        "final": True,
        "rounds": 2,
        "players": [
            {"seat": 0, "name": "ann", "total": 23, "rank": 1, "components": [
                {"label": "green", "detail": "6 cards, counted positive: 21", "points": 21,
                 "round": 1, "events": [4, 9]},
                {"label": "+2", "detail": "1 card worth 2 each: 2", "points": 2, "round": 2,
                 "events": [31]},
            ]},
            {"seat": 1, "name": "bob", "total": 10, "rank": 2, "components": [
                {"label": "c0", "detail": "5 points", "points": 5, "round": 1, "events": [2]},
                {"label": "c1", "detail": "5 points", "points": 5, "round": 1, "events": [3]},
            ]},
        ],
    }


def test_to_json_without_names_leaves_the_name_out():
    out = Score(False, 1, (seat(0, 1),)).to_json()
    assert out["final"] is False
    assert list(out["players"][0]) == ["seat", "total", "rank", "components"]


def test_by_seat_groups_components_under_their_owners():
    a, b, c = (Component(x, x, 1, 1) for x in "abc")
    grouped = by_seat(3, [a, b, c], [2, 0, 2])
    assert grouped == (SeatScore(0, (b,)), SeatScore(1, ()), SeatScore(2, (a, c)))
