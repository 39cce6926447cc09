"""Keltis "Neue Wege, neue Ziele": the game (`game.py`) and its board as data (`board.py`)."""

from engine.games.keltis_nwnz.game import GAME

__all__ = ["GAME"]
