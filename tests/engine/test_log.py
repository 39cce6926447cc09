"""The log as data: the hash chain (docs/api.md, The log), verdicts, and folding into states."""

import hashlib
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import log
from engine.game import Table
from engine.games import GAMES
from engine.games.coloretto import GAME
from engine.playout import play
from tests.engine.refusals import refusal
from tests.engine.vectors import vector

CHAIN = vector("hash-chain.json")["entries"]


def bodies(entries):
    return [{k: v for k, v in e.items() if k != "hash"} for e in entries]


def test_chain_reproduces_the_published_hash_chain_vector():
    assert log.chain(log.GENESIS, bodies(CHAIN)) == CHAIN


def test_chain_hash_is_sha256_of_previous_hash_then_canonical_json():
    first = bodies(CHAIN)[0]
    text = '{"at":"2026-11-22T12:00:00Z","game":"coloretto","seq":1,"type":"game-created"}'
    assert log.canonical(first) == text.encode()
    want = hashlib.sha256(("0" * 64 + text).encode()).hexdigest()
    assert log.chain_hash(log.GENESIS, first) == want == CHAIN[0]["hash"]
    assert log.chain_hash(CHAIN[0]["hash"], CHAIN[1]) == CHAIN[1]["hash"]


def test_canonical_json_keeps_non_ascii_as_utf8():
    assert log.canonical({"b": 1, "a": "è"}) == '{"a":"è","b":1}'.encode()


# What a log may hold: everything JSON has but fractions (engine.log.canonical). Integers of any
# size, and keys that are integers, which orjson leaves to json.
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(), inner, max_size=4)
    | st.dictionaries(st.integers(0, 99), inner, max_size=3),
    max_leaves=20,
)


def _dumps(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


@settings(max_examples=500, deadline=None)
@given(_JSON)
def test_canonical_json_is_what_json_dumps_writes_with_the_contracts_options(value):
    assert log.canonical(value) == _dumps(value)


@pytest.mark.parametrize("value", [
    {"big": 2**64, "small": -(2**63) - 1}, {2: "b", 10: "a"}, "\x00\x1f\x7f\u2028\ud7ff\U0001f600",
    {"\U0001f600": 1, "\uffff": 2, "é": 3, "z": 4},
])
def test_canonical_json_of_what_orjson_writes_otherwise_or_not_at_all_is_json_dumps(value):
    assert log.canonical(value) == _dumps(value)


@pytest.mark.parametrize("title", sorted(GAMES))
def test_every_entry_of_a_played_game_is_written_as_json_dumps_writes_it(title):
    rules = GAMES[title]
    entries = play(rules, rules.seat_counts[-1], title, random.Random(7), slips=0.2).entries
    assert all(log.canonical(e) == _dumps(e) for e in entries)


def test_chain_continues_from_a_given_previous_hash():
    whole = log.chain(log.GENESIS, bodies(CHAIN))
    assert log.chain(whole[0]["hash"], bodies(CHAIN)[1:]) == whole[1:]


def _log(n=4):
    notes = [{"seq": s, "type": "note", "n": s * 10} for s in range(1, n + 1)]
    return log.chain(log.GENESIS, notes)


def test_an_intact_chain_has_no_broken_links():
    assert log.broken_links(CHAIN) == []
    assert log.broken_links(_log()) == []


def test_a_tampered_entry_breaks_its_own_link():
    entries = _log()
    entries[1] = {**entries[1], "n": 999}
    assert log.broken_links(entries) == [2]


def test_a_tampered_entry_rehashed_breaks_the_next_link():
    entries = _log()
    forged = {**entries[1], "n": 999}
    entries[1] = {**forged, "hash": log.chain_hash(entries[0]["hash"], forged)}
    assert log.broken_links(entries) == [3]


def test_a_gap_in_seq_is_reported_even_when_hashes_are_consistent():
    rechained = log.chain(
        log.GENESIS, [{"seq": s, "type": "note"} for s in (1, 2, 4)]
    )
    assert log.broken_links(rechained) == [3]


def test_a_missing_entry_breaks_the_chain():
    entries = _log()
    del entries[2]
    assert log.broken_links(entries) == [3]


def test_reordered_entries_are_reported():
    entries = _log()
    entries[1], entries[2] = entries[2], entries[1]
    assert log.broken_links(entries) == [2, 3, 4]


def test_seed_commitment_is_sha256_hex_of_the_utf8_seed():
    assert log.seed_commitment("abc") == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
    assert log.seed_commitment("è") == hashlib.sha256("è".encode()).hexdigest()


def test_decks_commitment_is_none_without_explicit_decks():
    assert log.decks_commitment([]) is None
    digest = hashlib.sha256(b'{"decks":[["a","b"]]}').hexdigest()
    assert log.decks_commitment([["a", "b"]]) == digest


# -- verdicts and folding, with Coloretto as the game ---------------------------------------

TABLE = Table(4, GAME.options(4, {}), "fold")
CREATED = {"seq": 1, **log.created(GAME, ["a", "b", "c", "d"], TABLE.options, "fold", [])}


def submitted(seq, seat, move):
    return {"seq": seq, "type": log.SUBMITTED, "seat": seat, "move": move}


def test_verdict_accepts_a_legal_move_with_its_effects():
    state = GAME.deal(TABLE)
    after, judged = log.verdict(GAME, state, submitted(2, 0, {"type": "draw"}))
    assert judged == {
        "type": log.ACCEPTED, "of": 2, "seat": 0, "move": {"type": "draw"},
        "effects": [{"type": "drew", "seat": 0, "card": state.deck[0]}],
    }
    assert after.drawn.name == state.deck[0]


def test_verdict_rejects_an_illegal_move_with_a_hidden_reason_and_keeps_the_state():
    state = GAME.deal(TABLE)
    after, judged = log.verdict(GAME, state, submitted(2, 1, {"type": "draw"}))
    assert after is state
    assert judged["type"] == log.REJECTED and judged["of"] == 2 and judged["seat"] == 1
    assert judged["code"] == "not-your-turn"
    assert judged["hidden"] == ["code", "detail"]


def test_verdict_rejects_any_move_once_the_game_is_over():
    from dataclasses import replace

    over = replace(GAME.deal(TABLE), over=True)
    _, judged = log.verdict(GAME, over, submitted(9, 0, {"type": "draw"}))
    assert judged["code"] == "game-finished"


def test_fold_moves_the_state_only_at_the_acceptance_entry():
    dealt = GAME.deal(TABLE)
    drawn = GAME.apply(dealt, 0, {"type": "draw"}, 2).state
    entries = [
        CREATED,
        submitted(2, 0, {"type": "draw"}),
        {"seq": 3, "type": log.ACCEPTED, "of": 2, "seat": 0, "effects": []},
    ]
    steps = list(log.fold(GAME, TABLE, entries))
    assert [s.state for s in steps] == [dealt, dealt, drawn]
    assert steps[1].recomputed["type"] == log.ACCEPTED
    assert steps[0].recomputed is None and steps[2].recomputed is None
    assert log.state_at(GAME, TABLE, entries[:2]) == dealt
    assert log.state_at(GAME, TABLE, entries) == drawn


def test_fold_judges_later_submissions_against_pending_ones():
    # Two submissions before either verdict: the second is judged as if the first were in.
    entries = [
        CREATED,
        submitted(2, 0, {"type": "draw"}),
        submitted(3, 0, {"type": "place", "row": 0}),
        {"seq": 4, "type": log.ACCEPTED, "of": 2, "seat": 0, "effects": []},
        {"seq": 5, "type": log.ACCEPTED, "of": 3, "seat": 0, "effects": []},
    ]
    steps = list(log.fold(GAME, TABLE, entries))
    assert steps[2].recomputed["type"] == log.ACCEPTED
    assert steps[2].state == GAME.deal(TABLE)
    assert steps[3].state.drawn is not None
    assert steps[4].state.rows[0] and steps[4].state.turn == 1


def test_fold_leaves_the_state_alone_for_a_rejected_submission():
    entries = [
        CREATED,
        submitted(2, 2, {"type": "draw"}),
        {"seq": 3, "type": log.REJECTED, "of": 2, "seat": 2, "code": "not-your-turn"},
    ]
    steps = list(log.fold(GAME, TABLE, entries))
    assert steps[1].recomputed["code"] == "not-your-turn"
    assert all(s.state == GAME.deal(TABLE) for s in steps)


def test_table_of_rebuilds_the_table_from_the_created_entry():
    table = log.table_of(CREATED, "fold", [["x", "y"]])
    assert table == Table(4, TABLE.options, "fold", (("x", "y"),))


# -- rules versions ----------------------------------------------------------------------------


def test_a_log_is_folded_under_the_rules_its_created_entry_names():
    assert CREATED["rules_version"] == GAME.rules_version == "coloretto/1"
    assert log.rules(CREATED) is GAMES["coloretto"] and log.rules(CREATED).title is GAME


@pytest.mark.parametrize("version", ["coloretto/99", "hermit/1", None])
def test_rules_this_engine_does_not_hold_for_the_game_are_an_error_not_a_replay(version):
    unknown = {**CREATED, "rules_version": version}
    detail = refusal(lambda: log.rules(unknown), "unknown-rules-version", error=log.UnknownRules)
    assert detail == (
        f"this coloretto game was played under rules {version!r}, which this server does not"
        " hold (it holds coloretto/1)"
    )


def test_fold_refuses_a_log_under_rules_other_than_those_it_names():
    hermit = log.rules({"game": "hermit", "rules_version": "hermit/1"})
    with pytest.raises(ValueError, match="a log of coloretto/1 folded under hermit/1"):
        list(log.fold(hermit, Table(4, hermit.options(4, {}), "fold"), [CREATED]))
