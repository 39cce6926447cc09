"""The registry of games by name: the one place a new game module is added."""

from engine.game import Game
from engine.games import coloretto

GAMES: dict[str, Game] = {g.name: g for g in (coloretto.GAME,)}


def get(name: str) -> Game:
    return GAMES[name]
