"""Score breakdowns (docs/api.md): ranks with ties, lowest wins, the JSON shape."""

from pathlib import Path

import pytest

from engine.games import GAMES
from engine.scoring import Component, Score, SeatScore, by_seat, explained
from engine.sentences import cited, folded, sentence
from engine.spec import rule_of
from tests.golden.generate import load


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


# -- what a breakdown explains: the rule of each component, the lines it cites (issue 38) -------

GOLDEN = sorted((Path(__file__).parents[1] / "golden").rglob("*.json.gz"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.name if p.parent.name == "table"
                                              else f"{p.parts[-3]}-{p.name}" for p in GOLDEN])
def test_every_component_of_a_golden_game_names_the_rule_its_spec_declares(path):
    golden = load(path)
    game = GAMES[golden["entries"][0]["game"]]
    said = explained(golden["score"], game.spec)
    assert any(p["components"] for p in said["players"]), path
    for player, was in zip(said["players"], golden["score"]["players"], strict=True):
        for component, plain in zip(player["components"], was["components"], strict=True):
            assert component == {**plain, "rule": component["rule"]}
            assert component["rule"] and component["rule"] in game.spec.scoring.values(), (
                f"{game.name} declares no rule for {component['label']!r}")


def test_coloretto_says_which_colours_count_positive_and_its_scale():
    rule = rule_of(GAMES["coloretto"].spec.scoring, "green")
    assert "1/3/6/10/15/21" in rule and "3 colours worth most count positive" in rule
    assert rule_of(GAMES["coloretto"].spec.scoring, "+2") == "Each +2 card scores 2."
    nwnz = GAMES["keltis-nwnz"].spec.scoring
    assert rule_of(nwnz, "wish-stone set G") == nwnz["wish-stone set *"]
    assert rule_of(nwnz, "pawn big") == nwnz["pawn *"]
    assert rule_of({}, "green") == ""


def test_a_component_cites_the_lines_the_log_shows_each_saying_what_it_brought():
    golden = load(next(p for p in GOLDEN if p.parts[-3:] == ("coloretto", "1", "3p.json.gz")))
    entries, players = golden["entries"], golden["entries"][0]["players"]
    spec, by_seq = GAMES["coloretto"].spec.to_json(), {e["seq"]: e for e in golden["entries"]}
    shown = {e["seq"] for e in entries} - folded(entries)  # the lines `tablelog log` prints
    starting = 0
    for player in golden["score"]["players"]:
        for component in player["components"]:
            lines = cited(component, player["seat"], by_seq, players, spec)
            assert len(lines) == len(component["events"])
            for line, said in lines:
                assert line in shown and by_seq[line]["type"] != "move-submitted"
                if line == 1:
                    starting += 1
                    name = players[player["seat"]]
                    assert said == f"{name}'s starting card: {component['label']}"
                else:
                    assert said == sentence(by_seq[line], players, by_seq, spec)
                    # The card drawn, placed or taken (a joker counted in the colour's detail).
                    assert component["label"] in said or "joker" in said
    assert starting == 3  # one starting card a seat
