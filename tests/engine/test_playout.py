"""Random playouts write the log the service would: chained, judged in batches, slips refused."""

import random

from engine import codec, log
from engine.games import GAMES
from engine.playout import play

GAME = GAMES["coloretto"]


def test_a_playout_is_a_chained_log_from_creation_to_the_revealed_seed():
    run = play(GAME, 3, "chained", random.Random(1), {"deals": 1})
    assert log.broken_links(run.entries) == []
    assert run.entries[0] == {**log.created(GAME, ["p0", "p1", "p2"], run.table.options,
                                            "chained", []), "seq": 1,
                              "hash": run.entries[0]["hash"]}
    assert run.entries[-1]["type"] == log.FINISHED and run.entries[-1]["seed"] == "chained"
    kinds = [e["type"] for e in run.entries[1:-1]]
    assert kinds == [log.SUBMITTED, log.ACCEPTED] * (len(kinds) // 2)
    assert len(run.states) == len(kinds) // 2 + 1 and GAME.is_over(run.final)


def test_slips_are_refused_with_their_rule_and_batches_are_judged_ahead_of_their_verdicts():
    run = play(GAME, 4, "slips", random.Random(2), {"deals": 1}, slips=0.2, batch=3)
    rejected = [e for e in run.entries if e["type"] == log.REJECTED]
    assert rejected and all(e["code"] and e["detail"] for e in rejected)
    kinds = [e["type"] for e in run.entries]
    assert "move-submitted,move-submitted" in ",".join(kinds)
    verdicts = [e["of"] for e in run.entries if "of" in e]
    submissions = [e["seq"] for e in run.entries if e["type"] == log.SUBMITTED]
    assert verdicts == submissions  # every submission judged once, in order
    folded = log.state_at(GAME, run.table, run.entries)
    assert codec.encode(folded) == codec.encode(run.final)


def test_the_same_seeds_play_the_same_game():
    first = play(GAME, 5, "same", random.Random(3), slips=0.1, batch=2)
    again = play(GAME, 5, "same", random.Random(3), slips=0.1, batch=2)
    assert first.entries == again.entries
