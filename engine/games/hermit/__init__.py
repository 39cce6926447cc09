"""Hermit (P.D. Magnus), a Decktet game for 2 to 5 players: see `engine.games.hermit.game`.

The package splits the game (`game`), the Decktet cards as Hermit ranks them (`cards`) and the
scoring of a hand with its variants (`scoring`).
"""

from engine.games.hermit.game import GAME, Hermit, State

__all__ = ["GAME", "Hermit", "State"]
