"""engine.frozen: `@frozen` makes the values `dataclass(frozen=True)` makes; `replace` the value
dataclasses.replace makes, unknown names refused."""

import dataclasses
import random

import pytest

from engine.frozen import frozen, replace
from engine.games import GAMES
from engine.playout import play


@pytest.mark.parametrize("name", sorted(GAMES))
def test_replace_makes_the_value_dataclasses_replace_makes(name):
    state = play(GAMES[name], GAMES[name].seat_counts[0], "frozen", random.Random(5)).states[3]
    field = dataclasses.fields(state)[1].name
    changed = replace(state, **{field: "changed"})
    assert changed == dataclasses.replace(state, **{field: "changed"})
    assert getattr(changed, field) == "changed" and getattr(state, field) != "changed"
    assert type(changed) is type(state)


def test_an_unknown_field_is_refused_by_name():
    state = play(GAMES["coloretto"], 3, "frozen", random.Random(6)).states[0].game
    with pytest.raises(TypeError, match="State has no field 'colour'"):
        replace(state, turn=1, colour="red")


@frozen
class _Seal:
    colour: str
    events: tuple[int, ...] = ()
    notes: dict[str, int] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True)
class _PlainSeal:
    colour: str
    events: tuple[int, ...] = ()
    notes: dict[str, int] = dataclasses.field(default_factory=dict)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [(("red",), {}), (("red", (3, 4)), {}), (("red",), {"notes": {"a": 1}}),
     ((), {"colour": "red", "events": (5,)})],
)
def test_frozen_makes_the_value_a_frozen_dataclass_makes(args, kwargs):
    made, plain = _Seal(*args, **kwargs), _PlainSeal(*args, **kwargs)
    assert dataclasses.asdict(made) == dataclasses.asdict(plain)
    assert repr(made) == repr(plain).replace("_PlainSeal", "_Seal")
    assert made == _Seal(*args, **kwargs) and made != _Seal("blue")
    assert [f.name for f in dataclasses.fields(made)] == ["colour", "events", "notes"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.colour = "blue"


def test_frozen_values_hash_alike_and_defaults_from_a_factory_are_not_shared():
    assert hash(_Seal("red", (1,), None)) == hash(_Seal("red", (1,), None))
    assert _Seal("red").notes is not _Seal("red").notes


def test_frozen_refuses_a_call_without_a_field_or_with_one_too_many():
    with pytest.raises(TypeError):
        _Seal()
    with pytest.raises(TypeError):
        _Seal("red", (), {}, "extra")


def test_frozen_refuses_a_class_its_init_would_not_make_the_same():
    with pytest.raises(TypeError, match="plain positional fields only"):
        @frozen
        class _Checked:
            colour: str

            def __post_init__(self) -> None:
                pass
