"""Takebacks: from the table at once, from a seat once every other seat accepts; afterwards the
game is exactly as it was right after the entry taken back to."""

import random

import pytest

from engine import log
from engine.game import TABLE
from tests.engine.table_actions.sitting import Sitting


def _played(moves: int = 6, **kwargs) -> Sitting:
    table = Sitting(**kwargs)
    table.play(random.Random(7), moves)
    return table


def _same_as_after(table: Sitting, to: int) -> None:
    then, now = table.after[to], table.state
    game = table.game
    assert table.views(now) == table.views(then)
    assert game.score(now).to_json() == game.score(then).to_json()
    for seat in range(table.table.seats):
        assert game.legal_moves(now, seat) == game.legal_moves(then, seat)
    assert game.to_act(now) == game.to_act(then)


def test_the_table_takes_the_game_back_at_once_and_names_the_submissions_undone():
    table = _played()
    to = sorted(table.after)[2]
    undone = [e["of"] for e in table.entries if e["type"] == log.ACCEPTED and e["seq"] > to]
    verdict = table.post(TABLE, {"type": "takeback", "to": to})
    assert verdict["type"] == log.ACCEPTED
    assert verdict["effects"] == [{"type": "taken-back", "to": to, "undone": undone}]
    _same_as_after(table, to)
    assert log.canonical(table.game.encode(table.refolded())) == log.canonical(
        table.game.encode(table.state))


def test_a_takeback_to_the_deal_restores_the_deal():
    table = _played(4)
    table.post(TABLE, {"type": "takeback", "to": 1})
    _same_as_after(table, 1)


@pytest.mark.parametrize("to", ["rejected", "later", "undone", "submission"])
def test_a_takeback_goes_only_to_the_deal_or_a_verdict_still_in_play(to):
    table = _played()
    if to == "rejected":
        seat = table.game.to_act(table.state)[0]
        refused = table.post((seat + 1) % 3, {"type": "take", "row": 0})
        assert refused["type"] == log.REJECTED
        n = refused["seq"]
    elif to == "later":
        n = len(table.entries) + 1
    elif to == "undone":
        n = table.last_accepted()
        table.post(TABLE, {"type": "takeback", "to": sorted(table.after)[1]})
    else:
        n = table.last_accepted() - 1
    before = table.game.encode(table.state)
    verdict = table.post(TABLE, {"type": "takeback", "to": n})
    assert (verdict["type"], verdict["code"]) == (log.REJECTED, "takeback-bad-entry")
    assert table.game.encode(table.state) == before


def test_a_seats_takeback_waits_for_every_other_seat_then_applies():
    table = _played()
    to = sorted(table.after)[3]
    proposed = table.post(0, {"type": "takeback", "to": to})
    assert proposed["effects"] == [{"type": "takeback-proposed", "seat": 0, "to": to}]
    of = proposed["of"]
    assert table.post(1, {"type": "takeback-accept", "of": of})["effects"] == [
        {"type": "takeback-accepted", "seat": 1, "of": of}]
    last = table.post(2, {"type": "takeback-accept", "of": of})
    assert [e["type"] for e in last["effects"]] == ["takeback-accepted", "taken-back"]
    _same_as_after(table, to)


def test_a_decline_or_a_move_ends_a_proposal_and_its_proposer_may_withdraw_it():
    table = _played()
    to = sorted(table.after)[2]
    of = table.post(1, {"type": "takeback", "to": to})["of"]
    assert table.post(2, {"type": "takeback-decline", "of": of})["effects"][0]["type"] == (
        "takeback-declined")
    late = table.post(0, {"type": "takeback-accept", "of": of})
    assert late["code"] == "no-such-proposal"

    of = table.post(1, {"type": "takeback", "to": to})["of"]
    assert table.post(1, {"type": "takeback-decline", "of": of})["effects"][0]["type"] == (
        "takeback-withdrawn")

    of = table.post(1, {"type": "takeback", "to": to})["of"]
    before = table.state
    table.play(random.Random(3), 1)
    lapsed = [f for e in table.entries[-1:] for f in e["effects"]]
    assert {"type": "takeback-lapsed", "of": of} in lapsed
    assert table.state.side.proposal is None and table.state is not before


@pytest.mark.parametrize("refusal, code", [
    ("own", "own-proposal"), ("twice", "already-accepted"), ("other", "no-such-proposal"),
    ("pending", "takeback-pending")])
def test_what_a_proposal_refuses(refusal, code):
    table = _played()
    of = table.post(0, {"type": "takeback", "to": 1})["of"]
    table.post(1, {"type": "takeback-accept", "of": of})
    move = {
        "own": (0, {"type": "takeback-accept", "of": of}),
        "twice": (1, {"type": "takeback-accept", "of": of}),
        "other": (2, {"type": "takeback-accept", "of": of - 1}),
        "pending": (2, {"type": "takeback", "to": 1}),
    }[refusal]
    assert table.post(*move)["code"] == code


def test_no_takeback_once_the_game_is_over():
    table = Sitting("hermit", 2)
    table.play(random.Random(1), 10_000)
    assert table.game.is_over(table.state)
    assert table.post(TABLE, {"type": "takeback", "to": 1})["code"] == "game-finished"


@pytest.mark.parametrize("title, seats", [
    ("coloretto", 3), ("coloretto", 5), ("hermit", 3), ("keltis-card", 2), ("keltis-nwnz", 4),
    ("sieben-siegel", 3)])
def test_random_takebacks_leave_the_game_exactly_as_right_after_their_entry(title, seats):
    """Property: random games with random takebacks, each checked against the state right
    after its entry and against a fresh fold of the whole log; no view differs, so nothing
    hidden is shown."""
    rnd = random.Random(f"{title}-{seats}")
    table = Sitting(title, seats, seed=title)
    for _ in range(6):
        table.play(rnd, rnd.randint(1, 12))
        if table.game.is_over(table.state):
            break
        to = rnd.choice(sorted(table.after))
        if rnd.random() < 0.5:
            table.post(TABLE, {"type": "takeback", "to": to})
        else:
            of = table.post(0, {"type": "takeback", "to": to})["of"]
            for seat in range(1, seats):
                table.post(seat, {"type": "takeback-accept", "of": of})
        _same_as_after(table, to)
        assert log.canonical(table.game.encode(table.refolded())) == log.canonical(
            table.game.encode(table.state))
        cited = {e for p in table.game.score(table.state).to_json()["players"]
                 for c in p["components"] for e in c["events"]}
        undone = {s for e in table.entries if e["type"] == log.ACCEPTED
                  for f in e["effects"] if f["type"] == "taken-back" for s in f["undone"]}
        assert not cited & undone
