"""Exact keltis-nwnz situations for the tests: stacked decks, pawns, rows and tiles by hand."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import partial

from engine.game import Table
from engine.games.keltis_nwnz.game import GAME
from engine.games.keltis_nwnz.state import PAWNS, PathTile, Pawn, State
from tests.engine.refusals import refused as refused_by

CANONICAL = GAME.canonical_deck(2, {})
refused = partial(refused_by, GAME)


def stacked(*hands: list[str], top: tuple[str, ...] = ()) -> tuple[str, ...]:
    """A full deck: the hands seat by seat, then `top` on the draw pile, then the rest."""
    used = [c for hand in hands for c in hand] + list(top)
    rest = Counter(CANONICAL) - Counter(used)
    assert not Counter(used) - Counter(CANONICAL), "more copies than the deck holds"
    tail = [c for c in CANONICAL if rest[c] and not rest.subtract([c])]
    return (*used, *tail)


def dealt(*hands: list[str], seats: int = 2, top: tuple[str, ...] = ()) -> State:
    filled = [list(h) for h in hands] + [[] for _ in range(seats - len(hands))]
    # Hands given shorter than 8 are topped up from the canonical rest, in order.
    deck = list(stacked(*filled, top=top))
    spare = deck[sum(map(len, filled)) + len(top) :]
    full = []
    for hand in filled:
        while len(hand) < 8:
            hand.append(spare.pop(0))
        full.append(hand)
    deck = stacked(*full, top=top)
    return GAME.deal(Table(seats, {}, "tests", decks=(deck,)))


def with_seat(state: State, seat: int, **changes) -> State:
    """Change seat's Player: `pawns={"s1": "c5"}`, `rows={"G": ("G2",)}`, `hand=(...)`, ..."""
    player = state.players[seat]
    if "pawns" in changes:
        where = changes.pop("pawns")
        changes["pawns"] = tuple(
            Pawn(p.name, where.get(p.name, p.cell), p.moves) for p in player.pawns
        )
    if "rows" in changes:
        rows = changes.pop("rows")
        changes["rows"] = tuple(
            tuple(rows.get(c, r)) for c, r in zip("RYGBV", player.rows, strict=True)
        )
    player = replace(player, **changes)
    return replace(state, players=(*state.players[:seat], player, *state.players[seat + 1 :]))


def with_tiles(state: State, tiles: dict[str, str]) -> State:
    """Exactly these tiles on the board (cell: tile), none elsewhere."""
    return replace(state, tiles=tuple(PathTile(c, t, None) for c, t in tiles.items()))


def play(state: State, seat: int, *moves: dict, seq: int = 10):
    """Apply moves in order from entry `seq` on; the final state and all facts."""
    facts = []
    for n, move in enumerate(moves):
        outcome = GAME.apply(state, seat, move, seq + n)
        state = outcome.state
        facts += [f.to_json() for f in outcome.facts]
    return state, facts


def pawn(state: State, seat: int, name: str) -> str:
    return state.players[seat].pawns[PAWNS.index(name)].cell


# -- one situation per phase of a turn (seat 0 to act) ------------------------------------

SITUATION_HAND = ["R3", "G2", "B10", "B3", "Y5", "V7", "G9", "R8"]


def at_play():
    return with_tiles(dealt(SITUATION_HAND), {"c1": "clover", "c3": "discard"})


def at_clover():
    return play(at_play(), 0, {"type": "move", "pawn": "s1", "to": "c1", "card": "R3"})[0]


def at_discard_tile():
    state = with_seat(at_play(), 0, rows={"R": ("R1", "R2")})
    return play(state, 0, {"type": "move", "pawn": "s1", "to": "c3", "card": "B3"})[0]


def at_draw():
    state = replace(at_play(), piles=at_play().piles.discard("R0").end_turn())
    return play(state, 0, {"type": "discard", "card": "G9"})[0]
