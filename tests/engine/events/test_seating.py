"""Seating a round: table sizes within the title's seats, byes only where no size fits, Swiss
leaders together, repeat meetings kept few, and all of it drawn again from the seed."""

from collections import Counter
from itertools import combinations

import pytest

from engine.events import entries as kinds
from engine.events.seating import seat_round, table_sizes
from engine.log import GENESIS, chain

PLAYERS = [f"p{n:02d}" for n in range(12)]


@pytest.mark.parametrize(("players", "fewest", "size", "sizes", "byes"), [
    (12, 3, 4, [4, 4, 4], 0),
    (10, 3, 4, [4, 3, 3], 0),
    (9, 2, 4, [3, 3, 3], 0),
    (5, 3, 4, [4], 1),
    (4, 3, 3, [3], 1),
    (2, 3, 4, [], 2),
])
def test_table_sizes_mix_before_anyone_sits_out(players, fewest, size, sizes, byes):
    assert table_sizes(players, fewest, size) == (sizes, byes)


def _event(fmt="swiss", players=PLAYERS, game="coloretto", size=4, points=(6, 4, 2, 0)):
    return [kinds.created("club night", game, f"{game}/1", players, 4, fmt, size, points, {},
                          "s33d")]


def _log(bodies):
    return chain(GENESIS, [{**b, "seq": n} for n, b in enumerate(bodies, start=1)])


def _seat(bodies, round_, seed="s33d"):
    tables, byes = seat_round(_log(bodies), round_, seed)
    return tables, byes, kinds.seated(round_, [
        {"table": n, "game": f"g{round_}-{n}", "players": t, "seed_commitment": ""}
        for n, t in enumerate(tables, start=1)], byes)


def _results(seated, winner_first=True):
    """Every table's result: seat order decides the ranks (seat 0 first)."""
    return [kinds.result(seated["round"], t["table"], t["game"], {"players": [
        {"seat": s, "name": p, "total": 10 - s, "rank": s + 1}
        for s, p in enumerate(t["players"])]}, kinds.FINISHED_GAME, (9, "h"), {}, "")
        for t in seated["tables"]]


def test_a_round_seats_everyone_once_deterministically_from_the_seed():
    first = _seat(_event(), 1)
    assert first[:2] == _seat(_event(), 1)[:2]
    assert sorted(p for t in first[0] for p in t) == PLAYERS
    assert _seat(_event(), 1, "another")[0] != first[0]


def test_swiss_seats_the_leaders_together():
    bodies = _event()
    _, _, seated = _seat(bodies, 1)
    bodies += [seated, *_results(seated)]
    tables, _, _ = _seat(bodies, 2)
    winners = {t["players"][0] for t in seated["tables"]}
    assert set(tables[0]) >= winners  # the three winners (6 points each) sit at table 1


def _repeats(fmt, seed):
    bodies = _event(fmt, players=PLAYERS[:9], size=3, points=(3, 1, 0))
    met = Counter()
    for round_ in range(1, 5):
        _, _, seated = _seat(bodies, round_, seed)
        bodies += [seated, *_results(seated)]
        met.update(frozenset(p) for t in seated["tables"] for p in combinations(t["players"], 2))
    return sum(n - 1 for n in met.values())


def test_round_robin_keeps_repeat_meetings_fewer_than_chance():
    seeds = [f"seed-{n}" for n in range(20)]
    greedy = [_repeats("round-robin", s) for s in seeds]
    drawn = [_repeats("open", s) for s in seeds]
    assert sum(greedy) < sum(drawn) / 2


def test_a_withdrawn_player_is_not_seated_and_byes_rotate():
    bodies = _event(players=PLAYERS[:6], size=4)
    bodies.append(kinds.withdrawn("p03", 0))
    tables, byes, seated = _seat(bodies, 1)
    assert "p03" not in {p for t in tables for p in t} | set(byes)
    assert [len(t) for t in tables] == [4] and len(byes) == 1  # 5 at tables of 3 or 4
    bodies += [seated, *_results(seated)]
    _, byes2, _ = _seat(bodies, 2)
    assert not set(byes) & set(byes2)
