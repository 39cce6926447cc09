"""JSON round trip of frozen dataclass states through engine.codec."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest

from engine import codec
from engine.frozen import frozen, replace
from engine.game import Table
from engine.games import GAMES
from engine.playout import play


@dataclass(frozen=True)
class Leaf:
    name: str
    events: tuple[int, ...]


@dataclass(frozen=True)
class Branch:
    leaves: tuple[Leaf, ...]
    pair: tuple[str, int]
    best: Leaf | None
    maybe: int | None
    nested: tuple[tuple[Leaf, ...], ...]
    flag: bool
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Root:
    table: Table
    branches: tuple[Branch, ...]
    owner: tuple[int | None, ...]


def sample() -> Root:
    a, b = Leaf("a", (1, 2)), Leaf("b", ())
    return Root(
        table=Table(3, {"deals": 2, "removed_color": None}, "seed", (("x", "y"),)),
        branches=(
            Branch((a, b), ("k", 3), a, None, ((a,), (), (b, a)), True, {"k": [1, {"z": None}]}),
            Branch((), ("", 0), None, 7, (), False),
        ),
        owner=(None, 2, 0),
    )


def test_nested_dataclasses_tuples_and_optionals_survive_a_json_round_trip():
    state = sample()
    text = json.dumps(codec.encode(state))
    back = codec.decode(Root, json.loads(text))
    assert back == state
    assert isinstance(back.branches[0].leaves, tuple)
    assert isinstance(back.branches[0].nested[2][1], Leaf)
    assert isinstance(back.table.decks[0], tuple)


def test_encoding_gives_plain_json_values():
    encoded = codec.encode(sample())
    assert encoded["owner"] == [None, 2, 0]
    assert encoded["branches"][0]["pair"] == ["k", 3]
    assert encoded["branches"][0]["best"] == {"name": "a", "events": [1, 2]}
    assert encoded["branches"][1]["best"] is None
    assert encoded["table"]["decks"] == [["x", "y"]]


def test_encode_handles_bare_values_lists_and_mappings():
    assert codec.encode((1, (2, 3))) == [1, [2, 3]]
    assert codec.encode({1: (Leaf("c", (4,)),)}) == {"1": [{"name": "c", "events": [4]}]}
    assert codec.encode("s") == "s"


def test_decode_of_an_optional_dataclass_keeps_none():
    assert codec.decode(Leaf | None, None) is None
    assert codec.decode(Leaf | None, {"name": "d", "events": [5]}) == Leaf("d", (5,))


@dataclass(frozen=True)
class Trick:
    card: str
    beaten: tuple[Trick, ...]
    last: Trick | None


def test_a_dataclass_holding_its_own_kind_survives_a_json_round_trip():
    low = Trick("Y3", (), None)
    high = Trick("R9", (low, Trick("G5", (low,), low)), low)
    encoded = codec.encode(high)
    assert encoded["beaten"][1] == {
        "card": "G5", "beaten": [{"card": "Y3", "beaten": [], "last": None}],
        "last": {"card": "Y3", "beaten": [], "last": None},
    }
    assert codec.decode(Trick, json.loads(json.dumps(encoded))) == high


def _written_out(value: Any) -> Any:
    """What the codec writes for a state, worked out by walking it: fields in order (a field
    added later only when it is not its default), tuples as lists, mapping keys as strings."""
    if dataclasses.is_dataclass(value):
        return {f.name: _written_out(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not (f.metadata.get("later") and getattr(value, f.name) == f.default)}
    if isinstance(value, tuple | list):
        return [_written_out(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _written_out(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_state_of_a_game_is_written_as_its_fields_in_order(name):
    game = GAMES[name]
    for seats in game.seat_counts:
        for state in play(game, seats, "codec", random.Random(seats), slips=0.1).states:
            # json.dumps keeps the order of the keys: the stored text itself is compared.
            assert json.dumps(codec.encode(state)) == json.dumps(_written_out(state))


@frozen
class _Grown:
    """A value that gained a field after values of its kind were stored."""

    name: str
    extra: tuple[int, ...] | None = dataclasses.field(default=None, metadata=codec.LATER)


def test_a_field_added_later_is_left_out_while_it_holds_its_default():
    assert codec.encode(_Grown("a")) == {"name": "a"}
    assert orjson.dumps(_Grown("a")) == b'{"name":"a"}'  # as the projections write states
    assert codec.decode(_Grown, {"name": "a"}) == _Grown("a")


def test_a_field_added_later_is_written_and_read_once_it_is_set():
    grown = replace(_Grown("a"), extra=(1, 2))
    assert codec.encode(grown) == {"name": "a", "extra": [1, 2]}
    assert orjson.dumps(grown) == b'{"name":"a","extra":[1,2]}'
    assert codec.decode(_Grown, codec.encode(grown)) == grown == _Grown("a", (1, 2))

