"""What the browser tests read off a page, and what they compare it with in the API."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

# Per title, the values of a view that the table must draw (as JSON pointers into the view).
DRAWN = {
    "coloretto": [r"/rows/\d+/cards/\d+", r"/rows/\d+/taken_by", r"/collected/\d+/[^/]+",
                  r"/deck_size", r"/drawn", r"/deal", r"/last_round"],
    "keltis-card": [r"/seats/\d+/rows/[RYGBV]/\d+", r"/seats/\d+/(point_row|wish_stones)/\d+",
                    r"/discards/[RYGBVP]/\d+", r"/wish_stones/\d+", r"/deck_size",
                    r"/hand_sizes/\d+", r"/you/hand/\d+"],
    "sieben-siegel": [r"/seals/\d+/\w+", r"/supply/\w+", r"/trick/\d+/(card|seat)",
                      r"/tricks_won/\d+", r"/totals/\d+", r"/hand_sizes/\d+", r"/you/hand/\d+",
                      r"/round"],
    "hermit": [r"/groups/\d+/cards/\d+", r"/groups/\d+/controller", r"/piles/\d+/\d+",
               r"/totals/\d+", r"/hand_sizes/\d+", r"/you/hand/\d+", r"/stagecoach_size",
               r"/set_aside/\d+"],
    "keltis-nwnz": [r"/players/\d+/pawns/\w+", r"/players/\d+/rows/[RYGBV]/\d+",
                    r"/players/\d+/wish_stones/\d+", r"/players/\d+/hand_size",
                    r"/stacks/[RYGBV]/left", r"/discards/[RYGBV]/\d+", r"/deck_size",
                    r"/you/hand/\d+"],
}


def leaves(value: Any, path: str = ""):
    """Every (JSON pointer, value) of the scalars in `value`, nulls left out."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, f"{path}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, f"{path}/{index}")
    elif value is not None:
        yield path, value


def resolve(value: Any, pointer: str) -> Any:
    for part in pointer.split("/")[1:]:
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def drawn(page) -> dict[str, Any]:
    """What the table shows: pointer -> value, from the marks every drawn value carries."""
    marks = page.eval_on_selector_all(
        "#table [data-path]", "els => els.map(e => [e.dataset.path, e.dataset.value])"
    )
    return {path: json.loads(value) for path, value in marks}


def check_table(page, name: str, state: dict[str, Any]) -> int:
    """The table drawn on `page` is `state`: every drawn value is the state's own, and every
    value of the state that a table of `name` draws is drawn. How many values were compared."""
    shown = drawn(page)
    for path, value in shown.items():
        assert resolve(state, path) == value, (path, value)
    patterns = [re.compile(f"^{p}$") for p in DRAWN[name]]
    wanted = {path for path, _ in leaves(state) if any(p.match(path) for p in patterns)}
    assert wanted <= set(shown), sorted(wanted - set(shown))
    return len(shown)


def cards_on(page) -> Counter:
    return Counter(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))


def strings(value: Any) -> Counter:
    return Counter(v for _, v in leaves(value) if isinstance(v, str))
