"""The registry of games: the one place a new game module, or a new version of its rules, is
added.

`GAMES` holds each title's current rules, which new games are played by. `RULES` holds every
version a stored game may name in its `game-created` entry, current or not: a game is always
replayed under the rules it was played by (`engine.log.rules`). Changing how a game plays
therefore means a new `rules_version` beside the old one, never an edit of the old one; the
golden replays under `tests/golden/` fail until that is done (docs/design.md, "Rules versions").
"""

from engine.game import Game
from engine.games import coloretto, hermit, keltis_card, keltis_nwnz, sieben_siegel

GAMES: dict[str, Game] = {
    g.name: g
    for g in (
        coloretto.GAME, keltis_card.GAME, hermit.GAME, keltis_nwnz.GAME, sieben_siegel.GAME
    )
}

# Versions no longer current go here, each still able to replay the games recorded under it.
_RETIRED: tuple[Game, ...] = ()

RULES: dict[str, Game] = {g.rules_version: g for g in (*GAMES.values(), *_RETIRED)}
