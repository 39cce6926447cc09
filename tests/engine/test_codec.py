"""JSON round trip of frozen dataclass states through engine.codec."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import codec
from engine.game import Table


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
