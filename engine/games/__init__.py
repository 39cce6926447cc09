"""The registry of games by name: the one place a new game module is added."""

from engine.game import Game
from engine.games import coloretto, hermit, keltis_card, keltis_nwnz, sieben_siegel

GAMES: dict[str, Game] = {
    g.name: g
    for g in (
        coloretto.GAME, keltis_card.GAME, hermit.GAME, keltis_nwnz.GAME, sieben_siegel.GAME
    )
}


def get(name: str) -> Game:
    return GAMES[name]
