"""engine.frozen.replace: the value dataclasses.replace makes, unknown names refused."""

import dataclasses
import random

import pytest

from engine.frozen import replace
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
    state = play(GAMES["coloretto"], 3, "frozen", random.Random(6)).states[0]
    with pytest.raises(TypeError, match="State has no field 'colour'"):
        replace(state, turn=1, colour="red")
