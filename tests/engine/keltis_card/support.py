"""Building exact keltis-card situations for the tests."""

from dataclasses import replace
from functools import partial

from engine.game import Table
from engine.games.keltis_card import GAME, Row
from tests.engine.refusals import refused as refused_by

CANONICAL = GAME.canonical_deck(2, {})
COLOURS = ("R", "Y", "G", "B", "V")


def stack(*top):
    """A full deck with `top` on top (seat 0's hand first), the rest in canonical order."""
    rest = list(CANONICAL)
    for card in top:
        rest.remove(card)
    return (*top, *rest)


def dealt(seats=3, deck=None, seed="keltis"):
    return GAME.deal(Table(seats, GAME.options(seats, {}), seed, (deck,) if deck else ()))


def with_hand(state, seat, *cards):
    return replace(state, hands=(*state.hands[:seat], tuple(cards), *state.hands[seat + 1 :]))


def with_rows(state, seat, events=None, **rows):
    """Seat `seat`'s colour rows set, e.g. G=("G3", "G5"); each card laid at entry 0."""
    tableau = state.tableaux[seat]
    laid = list(tableau.rows)
    for colour, cards in rows.items():
        laid[COLOURS.index(colour)] = Row(tuple(cards), events or (0,) * len(cards))
    tableau = replace(tableau, rows=tuple(laid))
    return replace(state, tableaux=(*state.tableaux[:seat], tableau, *state.tableaux[seat + 1 :]))


def with_deck(state, *cards):
    return replace(state, piles=replace(state.piles, deck=tuple(cards)))


def run(state, seat, *moves, seq=10):
    """Apply `moves` in order as entries seq, seq+1, ...; the last state and all facts."""
    facts = []
    for k, move in enumerate(moves):
        outcome = GAME.apply(state, seat, move, seq + k)
        state = outcome.state
        facts += outcome.facts
    return state, facts


refused = partial(refused_by, GAME)


def play(card, row=None):
    return {"type": "play", "card": card} if row is None else {"type": "play", "card": card,
                                                                "row": row}


def draw(source="deck"):
    return {"type": "draw", "from": source}


def row_cards(state, seat, colour):
    return state.tableaux[seat].rows[COLOURS.index(colour)].cards


def replace_turn(state, seat=0):
    """`state` handed to `seat` at the start of a turn (no draws owed)."""
    return replace(state, turn=seat, to_draw=0, piles=state.piles.end_turn())
