"""Standings from an event's log: points by place, the tie-breaks in their order, each number
with the game it came from."""

from engine.events import entries as kinds
from engine.events.standings import bye_points, place_points, standings
from engine.log import GENESIS, chain


def _log(bodies):
    return chain(GENESIS, [{**b, "seq": n} for n, b in enumerate(bodies, start=1)])


def _result(round_, table, game, rows, status=kinds.FINISHED_GAME):
    return kinds.result(round_, table, game, {"players": [
        {"seat": s, "name": name, "total": total, "rank": rank}
        for s, (name, total, rank) in enumerate(rows)]}, status, (40, f"hash-{game}"),
        {"game": game, "seq": 40}, f"2026-12-0{round_}T20:00:00.000Z")


def _event(game="coloretto", points=(6, 4, 2, 0), players=("ann", "bob", "cid", "dan", "eve")):
    return [kinds.created("cup", game, f"{game}/1", players, 2, "swiss", len(points), points,
                          {}, "seed")]


def test_places_score_their_points_and_the_last_place_the_last_value():
    assert [place_points((6, 4, 2, 0), 4, r) for r in (1, 2, 3, 4)] == [6, 4, 2, 0]
    assert [place_points((6, 4, 2, 0), 3, r) for r in (1, 2, 3)] == [6, 4, 0]
    assert place_points((6, 4, 2, 0), 4, 1) == 6 and bye_points((6, 4, 2, 0)) == 4
    assert bye_points((3, 1, 0)) == 1


def test_ties_are_broken_by_opponents_points_then_own_scores_then_games_won_between_them():
    bodies = _event()
    bodies.append(kinds.seated(1, [{"table": 1, "game": "g1", "players": ["ann", "bob"],
                                    "seed_commitment": ""},
                                   {"table": 2, "game": "g2", "players": ["cid", "dan"],
                                    "seed_commitment": ""}], ["eve"]))
    bodies += [_result(1, 1, "g1", [("ann", 30, 1), ("bob", 20, 2)]),
               _result(1, 2, "g2", [("cid", 30, 1), ("dan", 10, 2)])]
    rows = standings(_log(bodies))
    by = {r["player"]: r for r in rows}
    # ann and cid both won (6): Buchholz bob 0 / dan 0 ties, own scores 30 / 30 tie, they met
    # in no game: one rank, listed by name.
    assert [(r["player"], r["rank"], r["points"]) for r in rows][:3] == [
        ("ann", 1, 6), ("cid", 1, 6), ("eve", 3, 4)]
    assert by["eve"]["games"] == [{"round": 1, "bye": True, "points": 4}]
    assert by["bob"]["rank"] == 4 and by["dan"]["rank"] == 5  # own scores 20 over 10
    assert by["ann"]["games"][0]["seq"] == 40 and by["ann"]["games"][0]["head"]["game"] == "g1"
    assert by["bob"]["tie_breaks"][0] == {"name": "opponents-points", "value": 6, "from": [
        {"game": "g1", "opponent": "ann", "points": 6}]}


def test_won_against_tied_counts_the_games_between_players_still_level():
    bodies = _event(points=(2, 1, 0), players=("ann", "bob", "cid"))
    bodies.append(kinds.seated(1, [{"table": 1, "game": "g1", "players": ["ann", "bob", "cid"],
                                    "seed_commitment": ""}], []))
    bodies.append(_result(1, 1, "g1", [("ann", 5, 1), ("bob", 5, 1), ("cid", 1, 3)]))
    rows = standings(_log(bodies))
    assert [(r["player"], r["rank"]) for r in rows] == [("ann", 1), ("bob", 1), ("cid", 3)]
    assert rows[0]["tie_breaks"][2]["value"] == 0  # a shared rank wins nothing


def test_a_lowest_wins_title_counts_own_scores_negated_and_after_round_looks_back():
    bodies = _event(game="hermit", points=(3, 1, 0), players=("ann", "bob", "cid"))
    for round_ in (1, 2):
        bodies.append(kinds.seated(round_, [{"table": 1, "game": f"g{round_}",
                                             "players": ["ann", "bob", "cid"],
                                             "seed_commitment": ""}], []))
        bodies.append(_result(round_, 1, f"g{round_}",
                              [("ann", 10 * round_, 1), ("bob", 20, 2), ("cid", 70, 3)]))
    rows = standings(_log(bodies), after_round=1)
    assert [(r["player"], r["points"]) for r in rows] == [("ann", 3), ("bob", 1), ("cid", 0)]
    assert rows[0]["tie_breaks"][1]["value"] == -10
    assert standings(_log(bodies))[0]["points"] == 6


def test_an_abandoned_game_scores_nothing():
    bodies = _event(points=(2, 1, 0), players=("ann", "bob", "cid"))
    bodies.append(kinds.seated(1, [{"table": 1, "game": "g1", "players": ["ann", "bob", "cid"],
                                    "seed_commitment": ""}], []))
    bodies.append(_result(1, 1, "g1", [("ann", 5, 1), ("bob", 3, 2), ("cid", 1, 3)],
                          kinds.ABANDONED_GAME))
    rows = standings(_log(bodies))
    assert {r["points"] for r in rows} == {0} and all(r["rank"] == 1 for r in rows)
