"""A seeded game and the same game recorded at a real table (`engine.playout.transcribe`,
`record`) compared as a scorekeeper would: by their scores, whatever entry numbers differ."""

from __future__ import annotations

import random

import orjson

from engine import codec
from engine.game import Game
from engine.playout import play, record, transcribe


def brief(score: dict, ordered: bool = True, cited: bool = True) -> list:
    """A score without its entry numbers, which a recorded log's extra entries shift: totals,
    ranks, and every component's label, detail, points, deal and count of entries (unless not
    `cited`), in their order unless not `ordered` (Hermit's Stagecoach: known in the Decktet's
    order when never seen, in the order laid when dealt by the service).

    Not `cited`: a component adding up cards the table never saw go by (Hermit's Pleasant
    Company with a card from the Stagecoach) cites, in a recorded game, the setup and the hand's
    end for each of them, not the entry that laid it face down, which nobody saw: two such
    cards share entries a seeded game's tell apart."""
    return [(p["seat"], p["total"], p["rank"],
             (list if ordered else sorted)(
                 (c["label"], c["detail"], c["points"], c["round"],
                  len(c["events"]) if cited else None)
                 for c in p["components"])) for p in score["players"]]


def legal_throughout(game: Game, seats: int, seed: str) -> None:
    """Every move of a seeded game entered again at a real table is among the legal moves the
    recorded game lists when it is made."""
    seeded = play(game, seats, seed, random.Random(seed), {})
    submissions = list(transcribe(seeded))
    again = record(game, seats, {}, submissions)
    for state, (seat, move) in zip(again.states[1:], submissions[1:], strict=False):
        assert move in game.legal_moves(state, seat), move


def survives_the_codec(game: Game, seats: int, seed: str) -> None:
    """Every seventh state of a recorded game round-trips the codec; a seeded game's states
    carry no ledger."""
    seeded = play(game, seats, seed, random.Random(seed), {})
    again = record(game, seats, {}, list(transcribe(seeded)))
    for state in again.states[::7]:
        encoded = codec.encode(game.encode(state))
        assert orjson.loads(orjson.dumps(game.encode(state))) == encoded
        assert game.decode(encoded) == state
    assert all("ledger" not in orjson.dumps(game.encode(s)).decode() for s in seeded.states)
