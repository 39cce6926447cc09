"""An event's export checked offline: a whole event made here from seeded playouts verifies,
and each kind of tampering is named where it lies: the event's chain, a game, a result, a
round's seating, the seed, the standings."""

from __future__ import annotations

import copy
import random

import pytest

from engine.events import entries as kinds
from engine.events.evidence import FORMAT, MalformedExport, verify_event
from engine.events.seating import seat_round
from engine.events.standings import standings
from engine.games import GAMES
from engine.log import GENESIS, chain, seed_commitment
from engine.playout import play

SEED = "evidence"
PLAYERS = ["ann", "bob", "cid", "dan", "eve", "fay", "gus"]


def _chained(bodies):
    return chain(GENESIS, [{**b, "seq": n, "at": "2026-12-06T20:00:00.000Z"}
                           for n, b in enumerate(bodies, start=1)])


def _export():
    """A Swiss Hermit event of 7 players, 2 rounds at tables of 4 (4 + 3), every game a seeded
    playout, its replay as a finished game's."""
    game = GAMES["hermit"]
    bodies = [kinds.created("cup", "hermit", game.rules_version, PLAYERS, 2, "swiss", 4,
                            [3, 2, 1, 0], {}, SEED)]
    replays = {}
    for round_ in (1, 2):
        tables, byes = seat_round(_chained(bodies), round_, SEED)
        seated, results = [], []
        for n, players in enumerate(tables, start=1):
            seed, game_id = kinds.game_seed(SEED, round_, n), f"r{round_}t{n}"
            playout = play(game, len(players), seed, random.Random(seed))
            score = game.score(playout.final).to_json(players)
            # The playout's seats are named p0, p1, ...: named as the round seated them.
            entries = chain(GENESIS, [
                {**{k: v for k, v in e.items() if k != "hash"}, "players": players}
                if e["type"] == "game-created" else {k: v for k, v in e.items() if k != "hash"}
                for e in playout.entries])
            last = entries[-1]
            replays[game_id] = {
                "format": "tablelog-replay/1", "id": game_id, "game": "hermit",
                "players": players, "options": playout.table.options, "status": "finished",
                "seed_commitment": seed_commitment(seed), "seed": seed,
                "entries": entries, "score": score}
            seated.append({"table": n, "game": game_id, "players": players,
                           "seed_commitment": seed_commitment(seed)})
            results.append(kinds.result(round_, n, game_id, score, kinds.FINISHED_GAME,
                                        (last["seq"], last["hash"]), {}, last.get("at", "")))
        bodies += [kinds.seated(round_, seated, byes), *results]
    bodies.append(kinds.finished(SEED))
    entries = _chained(bodies)
    return {"format": FORMAT, "id": "ev", "entries": entries, "games": replays,
            "standings": standings(entries)}


@pytest.fixture(scope="module")
def export():
    return _export()


def _rechained(document, change):
    """The export with one entry's body changed and the log hashed again, as whoever forged it
    would: the chain holds, the lie is in what it says."""
    tampered = copy.deepcopy(document)
    change(tampered)
    tampered["entries"] = chain(GENESIS, [{k: v for k, v in e.items() if k != "hash"}
                                          for e in tampered["entries"]])
    return tampered


def test_a_whole_event_verifies(export):
    report = verify_event(export)
    assert report == {"ok": True, "difference": None, "seating_checked": True,
                      "games": dict.fromkeys(export["games"], True)}


def test_an_entry_edited_breaks_the_events_chain(export):
    tampered = copy.deepcopy(export)
    tampered["entries"][2]["byes"] = ["ann"]
    found = verify_event(tampered)["difference"]
    assert (found["what"], found["entry"]) == ("event-log", 3)


def test_a_game_edited_is_named_with_its_entry(export):
    tampered = copy.deepcopy(export)
    entry = tampered["games"]["r2t1"]["entries"][5]
    entry["seat"] = (entry["seat"] + 1) % 4
    found = verify_event(tampered)["difference"]
    assert (found["what"], found["game"], found["entry"]) == ("game", "r2t1", 6)


def test_a_result_that_is_not_the_games_score_is_named(export):
    def lie(document):
        result = next(e for e in document["entries"] if e["type"] == kinds.RESULT)
        result["totals"][0] -= 10
    found = verify_event(_rechained(export, lie))["difference"]
    assert found["what"] == "result" and found["game"] == "r1t1" and found["entry"] == 3


def test_a_round_seated_otherwise_than_the_seed_draws_it_is_named(export):
    """Two players of a table swapped everywhere, consistently: in the round's entry, the
    game's replay (hashed again: names are no rule, it re-judges) and its result. Only
    drawing the round again from the seed finds it."""
    def swap(document):
        seated = document["entries"][1]
        table = seated["tables"][0]
        swapped = [table["players"][1], table["players"][0], *table["players"][2:]]
        table["players"] = swapped
        replay = document["games"][table["game"]]
        replay["players"] = swapped
        bodies = [{k: v for k, v in e.items() if k != "hash"} for e in replay["entries"]]
        bodies[0] = {**bodies[0], "players": swapped}
        replay["entries"] = chain(GENESIS, bodies)
        for player in replay["score"]["players"]:
            player["name"] = swapped[player["seat"]]
        result = next(e for e in document["entries"]
                      if e["type"] == kinds.RESULT and e["game"] == table["game"])
        result.update(players=swapped, final={"seq": replay["entries"][-1]["seq"],
                                              "hash": replay["entries"][-1]["hash"]})
        document["standings"] = None
    found = verify_event(_rechained(export, swap))["difference"]
    assert (found["what"], found["round"], found["entry"]) == ("seating", 1, 2)


def test_a_result_naming_other_players_is_named(export):
    def rename(document):
        result = next(e for e in document["entries"] if e["type"] == kinds.RESULT)
        result["players"] = result["players"][::-1]
    found = verify_event(_rechained(export, rename))["difference"]
    assert found["what"] == "result" and "players" in found["detail"]


def test_a_seed_other_than_the_committed_one_is_named(export):
    def reveal(document):
        document["entries"][-1]["seed"] = "another"
    found = verify_event(_rechained(export, reveal))["difference"]
    assert found["what"] == "seed"


def test_standings_other_than_the_logs_are_named(export):
    tampered = copy.deepcopy(export)
    tampered["standings"][0]["points"] += 1
    found = verify_event(tampered)["difference"]
    assert (found["what"], found["player"], found["field"]) == (
        "standings", export["standings"][0]["player"], "points")


def test_a_document_that_is_no_export_is_refused():
    with pytest.raises(MalformedExport):
        verify_event({"format": "tablelog-replay/1"})
    with pytest.raises(MalformedExport):
        verify_event({"format": FORMAT, "entries": [{"type": "game-created"}]})
