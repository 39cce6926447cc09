"""Turn clocks: a timeout is claimed from the log's own times, so its verdict never changes."""

import random

import pytest
from freezegun import freeze_time

from engine import log
from engine.clock import millis
from engine.game import TABLE
from tests.engine.table_actions.sitting import Sitting


def _clocked(limit_s: int = 60) -> Sitting:
    return Sitting("coloretto", 3, {"turn_limit_s": limit_s})


def test_a_claim_before_the_limit_is_refused_and_after_it_concedes_the_late_seat():
    table = _clocked()
    late = table.game.to_act(table.state)[0]
    claimant = (late + 1) % 3
    table.wait(59.9)
    early = table.post(claimant, {"type": "claim-timeout"})
    assert early["code"] == "claim-too-early" and "0.1 s" in early["detail"]
    table.wait(0.1)
    claimed = table.post(claimant, {"type": "claim-timeout"})
    assert claimed["effects"] == [{"type": "timed-out", "seats": [late], "limit_s": 60},
                                  {"type": "conceded", "seat": late}]
    assert late in table.state.side.conceded


@pytest.mark.parametrize("who, code", [("late", "claim-own-timeout"), ("none", "no-turn-clock")])
def test_what_a_claim_refuses(who, code):
    table = _clocked() if who == "late" else Sitting("coloretto", 3)
    table.wait(3600)
    late = table.game.to_act(table.state)[0]
    assert table.post(late, {"type": "claim-timeout"})["code"] == code


def test_the_table_may_claim_and_the_clock_restarts_with_each_turn():
    table = _clocked(30)
    table.wait(20)
    table.play(random.Random(1), 1)
    table.wait(20)  # the next seat has had 20 s, not 40
    assert table.post(TABLE, {"type": "claim-timeout"})["code"] == "claim-too-early"
    table.wait(10)
    assert table.post(TABLE, {"type": "claim-timeout"})["type"] == log.ACCEPTED


def test_thinking_time_is_in_the_scores_extras_and_a_refold_a_year_later_agrees():
    table = _clocked(600)
    rnd = random.Random(2)
    for pause in (5, 12, 7, 30):
        table.wait(pause)
        table.play(rnd, 1)
    players = table.game.score(table.state).to_json()["players"]
    thinking = [p["extras"]["thinking_ms"] for p in players]
    assert sum(thinking) == (5 + 12 + 7 + 30) * 1000
    with freeze_time("2027-11-27"):
        again = log.state_at(table.game, table.table, table.entries)
        verdicts = [s.recomputed for s in log.fold(table.game, table.table, table.entries)
                    if s.recomputed is not None]
    assert again == table.state
    assert verdicts == [{k: v for k, v in e.items() if k not in ("seq", "at")}
                        for e in table.entries if e["type"] in (log.ACCEPTED, log.REJECTED)]


def test_a_game_without_the_option_records_its_options_as_before():
    table = Sitting("coloretto", 3)
    assert "turn_limit_s" not in table.entries[0]["options"]
    assert _clocked().entries[0]["options"]["turn_limit_s"] == 60


@pytest.mark.parametrize("at, ms", [
    ("1970-01-01T00:00:00.000Z", 0), ("2000-02-29T23:59:59.999Z", 951_868_799_999),
    ("2026-11-27T10:47:33.123Z", 1_795_776_453_123), ("2024-03-01T00:00:00Z", 1_709_251_200_000)])
def test_an_entrys_time_is_read_as_milliseconds_since_the_epoch(at, ms):
    assert millis(at) == ms
