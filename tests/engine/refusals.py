"""The one check that something is refused with a stable code and a sentence naming the rule."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.game import Game, IllegalMove


def refusal(call: Callable[[], Any], code: str, *words: str,
            error: type[Exception] = IllegalMove) -> str:
    """Assert `call()` raises `error` with `code` and a sentence holding each of `words`; the
    sentence, for the checks a test makes beyond that."""
    with pytest.raises(error) as caught:
        call()
    got = caught.value
    assert got.code == code, f"refused with {got.code!r} ({got.detail!r}), not {code!r}"
    assert got.detail.strip(), "a refusal says which rule it applies"
    for word in words:
        assert word in got.detail, f"{word!r} is not in {got.detail!r}"
    return got.detail


def refused(game: Game, state: Any, seat: int, move: Any, code: str, *words: str) -> str:
    """`game` refuses `move` by `seat` in `state` with `code` and a sentence (see `refusal`)."""
    return refusal(lambda: game.apply(state, seat, move, 99), code, *words)
