"""Coloretto (Michael Schacht), 3 to 5 players: see `engine.games.coloretto.game`.

The package holds the game (`game`: rules, state, facts and scoring), its spec (`spec`) and its
table for the pages (`table.js`).
"""

from engine.games.coloretto.game import (
    COLOURS,
    GAME,
    JOKER,
    LAST_ROUND,
    PLUS_TWO,
    Card,
    Coloretto,
    DealEnded,
    DealStarted,
    Drew,
    LastRoundDrawn,
    Placed,
    RoundEnded,
    State,
    Took,
    best_assignment,
    collection_points,
    colour_points,
    score_collection,
)

__all__ = [
    "COLOURS", "GAME", "JOKER", "LAST_ROUND", "PLUS_TWO", "Card", "Coloretto", "DealEnded",
    "DealStarted", "Drew", "LastRoundDrawn", "Placed", "RoundEnded", "State", "Took",
    "best_assignment", "collection_points", "colour_points", "score_collection",
]
