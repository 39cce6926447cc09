"""Players' ratings per title: openskill's Plackett-Luce model (Weng-Lin), over every
finished game of every event and every rated game outside events, in the order the games ended.

A player is known by their handle: the name they play under at an event, the same from one
event to the next, or the handle a seat of a rated game outside events was created with. Each
title keeps its own rating: a handle starts at the model's default (mu 25, sigma 25/3) and
each finished game (an abandoned one is not rated) moves every player at its table at once, by
the ranks the game gave them (ties shared). The rating shown is the conservative `ordinal` (mu
- 3 sigma). Every change cites its game, its event and round, and the game's last entry and
signed head, as the standings do.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from openskill.models import PlackettLuce

from engine.events.entries import ABANDONED_GAME

MODEL = PlackettLuce()


def rating_json(mu: float, sigma: float) -> dict[str, float]:
    rating = MODEL.rating(mu=mu, sigma=sigma)
    return {"mu": mu, "sigma": sigma, "ordinal": rating.ordinal()}


def rated(games: Iterable[tuple[str | None, str, Mapping[str, Any]]]
          ) -> dict[str, dict[str, Any]]:
    """Every handle's ratings per title and their history, from `games`: (event id, or None
    for a rated game outside events, title, `result-recorded` entry whose `players` are the
    handles), rated in the order the games ended (ties by game id)."""
    current: dict[tuple[str, str], tuple[float, float]] = {}
    history: dict[str, list[dict[str, Any]]] = defaultdict(list)
    ordered = sorted(games, key=lambda g: (g[2]["ended_at"], g[2]["game"]))
    for event, title, result in ordered:
        if result["status"] == ABANDONED_GAME:
            continue
        players = result["players"]
        before = [current.get((title, p), (MODEL.mu, MODEL.sigma)) for p in players]
        teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
        after = MODEL.rate(teams, ranks=list(result["ranks"]))
        for index, player in enumerate(players):
            now = (after[index][0].mu, after[index][0].sigma)
            current[(title, player)] = now
            history[player].append({
                "title": title, "event": event, "round": result["round"],
                "game": result["game"], "rank": result["ranks"][index], "of": len(players),
                "before": rating_json(*before[index]), "after": rating_json(*now),
                "seq": result["final"]["seq"], "hash": result["final"]["hash"],
                "head": result["head"], "ended_at": result["ended_at"],
            })
    return {
        player: {
            "ratings": {title: {**rating_json(*rating), "games": sum(
                1 for h in history[player] if h["title"] == title)}
                for (title, p), rating in sorted(current.items()) if p == player},
            "history": history[player],
        }
        for player in history
    }
