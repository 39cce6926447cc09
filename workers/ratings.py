"""A game that finished listed for the ratings (`store.ratings`, `engine.ratings`): by the
drain that judged its last move, or by its compaction should the drain not have."""

from __future__ import annotations

from typing import Any

from engine.game import Game
from store import Store
from store.stored import Status


def rated(store: Store, game_id: str, rules: Game, state: Any, version: int) -> None:
    """List `game_id`, whose log ends at `version` in `state`, if it finished by its rules
    (an abandoned game has no places to rate)."""
    if Status.of(rules, state) == Status.FINISHED:
        store.ratings.ended(game_id, rules.name, version, rules.score(state).ranks())
