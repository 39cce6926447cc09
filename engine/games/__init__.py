"""The registry of games: the one place a game package, or a new version of its rules, is
found.

Every package under `engine/games/` that exposes a `GAME` is a title, found by walking the
packages, so a new game is one new package (and its tests) and no list anywhere names it.
`GAMES` holds each title's current rules, which new games are played by, at a table
(`engine.table_actions.AtTable`: the title's rules with the table actions every title
shares). `RULES` holds every version a stored game may name in its `game-created` entry,
current or not: a game is always replayed under the rules it was played by
(`engine.log.rules`). Changing how a game plays
therefore means a new `rules_version` beside the old one, never an edit of the old one; the
golden replays under `tests/golden/` fail until that is done (docs/design.md, "Rules versions").
A package keeps a retired version in `RETIRED`, a tuple of games, beside its `GAME`.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from types import ModuleType

from engine.game import Game
from engine.table_actions import AtTable


def _packages() -> list[ModuleType]:
    found = (importlib.import_module(f"{__name__}.{m.name}")
             for m in pkgutil.iter_modules(__path__) if m.ispkg)
    return [p for p in found if isinstance(getattr(p, "GAME", None), Game)]


_PACKAGES = _packages()

GAMES: dict[str, Game] = {
    p.GAME.name: AtTable(p.GAME) for p in sorted(_PACKAGES, key=lambda p: p.GAME.name)}

# Versions no longer current, each still able to replay the games recorded under it.
_RETIRED: tuple[Game, ...] = tuple(
    AtTable(g) for p in _PACKAGES for g in getattr(p, "RETIRED", ()))

RULES: dict[str, Game] = {g.rules_version: g for g in (*GAMES.values(), *_RETIRED)}

# Each title's folder: where its table for the pages (`table.js`) lives.
FOLDERS: dict[str, Path] = {p.GAME.name: Path(p.__path__[0]) for p in _PACKAGES}
