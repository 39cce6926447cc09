"""Die sieben Siegel, 3 to 5 players: see `engine.games.sieben_siegel.game`.

The package splits the game (`game`), its state and facts (`state`), taking and returning seals
(`seals`) and the scoring of a round (`scoring`).
"""

from engine.games.sieben_siegel.game import GAME, SiebenSiegel
from engine.games.sieben_siegel.state import State

__all__ = ["GAME", "SiebenSiegel", "State"]
