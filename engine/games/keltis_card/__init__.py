"""Keltis – Das Kartenspiel, 2 to 4 players: see `engine.games.keltis_card.game`.

The package splits the game (`game`), its state and facts (`state`) and the scoring (`scoring`);
the colour rows and the draw cycle it shares with keltis-nwnz live in `engine.display` and
`engine.piles`.
"""

from engine.games.keltis_card.game import GAME, KeltisCard
from engine.games.keltis_card.scoring import row_points, score_tableau, stone_points
from engine.games.keltis_card.state import Row, State, Tableau

__all__ = [
    "GAME", "KeltisCard", "Row", "State", "Tableau", "row_points", "score_tableau", "stone_points",
]
