"""The 36 basic Decktet cards as Hermit uses them: names, ranks, suits and personalities.

Names and canonical order are those of docs/api.md (Titles, cards and moves). Ranks are
numeric for control: Ace 1, the numbered cards 2 to 9, Crown 10; an annulled Crown ranks 0
(below its Ace).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.frozen import frozen

SUITS = ("moons", "suns", "waves", "leaves", "wyrms", "knots")  # the Decktet's order
ACE = 1
CROWN = 10
_ANNULLED = 0


@frozen
class Decktet:
    name: str
    rank: int
    suits: tuple[str, ...]


def _cards() -> tuple[Decktet, ...]:
    aces = [Decktet(f"ace-{s}", ACE, (s,)) for s in SUITS]
    numbered = [
        ("author", 2, "moons knots"), ("desert", 2, "suns wyrms"), ("origin", 2, "waves leaves"),
        ("journey", 3, "moons waves"), ("painter", 3, "suns knots"),
        ("savage", 3, "leaves wyrms"),
        ("mountain", 4, "moons suns"), ("sailor", 4, "waves leaves"),
        ("battle", 4, "wyrms knots"),
        ("forest", 5, "moons leaves"), ("discovery", 5, "suns waves"),
        ("soldier", 5, "wyrms knots"),
        ("lunatic", 6, "moons waves"), ("penitent", 6, "suns wyrms"),
        ("market", 6, "leaves knots"),
        ("chance-meeting", 7, "moons leaves"), ("castle", 7, "suns knots"),
        ("cave", 7, "waves wyrms"),
        ("diplomat", 8, "moons suns"), ("mill", 8, "waves leaves"),
        ("betrayal", 8, "wyrms knots"),
        ("pact", 9, "moons suns"), ("merchant", 9, "leaves knots"),
        ("darkness", 9, "waves wyrms"),
    ]
    crowns = [("huntress", "moons"), ("bard", "suns"), ("sea", "waves"), ("end", "leaves"),
              ("calamity", "wyrms"), ("windfall", "knots")]
    return (
        *aces,
        *(Decktet(name, rank, tuple(suits.split())) for name, rank, suits in numbered),
        *(Decktet(name, CROWN, (suit,)) for name, suit in crowns),
    )


CARDS: dict[str, Decktet] = {c.name: c for c in _cards()}
CANONICAL: tuple[str, ...] = tuple(CARDS)

# Personality cards score their printed rank; the two Crowns score 10 even when annulled.
PERSONALITIES: dict[str, int] = {
    name: CARDS[name].rank
    for name in ("author", "painter", "savage", "sailor", "soldier", "lunatic", "penitent",
                 "diplomat", "merchant", "bard", "huntress")
}

# Pleasant Company: all four personalities of a suit, taken together, score nothing.
COMPANIES: dict[str, tuple[str, ...]] = {
    "moons": ("author", "lunatic", "diplomat", "huntress"),
    "suns": ("painter", "penitent", "diplomat", "bard"),
}


def _sharing(card: str) -> frozenset[str]:
    suits = set(CARDS[card].suits)
    return frozenset(name for name, other in CARDS.items() if suits & set(other.suits))


# For every card, the cards that share a suit with it: asked for every group at every play, so
# worked out once, and looked up without a call.
SHARING: dict[str, frozenset[str]] = {card: _sharing(card) for card in CARDS}


# Each Crown's Ace, which annuls it: asked of every card of a group at every play.
_ACE_OF_CROWN: dict[str, str] = {
    c.name: f"ace-{c.suits[0]}" for c in CARDS.values() if c.rank == CROWN
}


def rank_in(card: str, group: Sequence[str]) -> int:
    """`card`'s rank for control among the cards `group` (which holds it).

    A Crown is annulled when the Ace of its suit is in the same group, whichever came first.
    """
    ace = _ACE_OF_CROWN.get(card)
    if ace is not None and ace in group:
        return _ANNULLED
    return CARDS[card].rank


def describe(card: str) -> str:
    """'the bard (crown of suns)', 'the castle (7 of suns and knots)': for error sentences."""
    it = CARDS[card]
    rank = {ACE: "ace", CROWN: "crown"}.get(it.rank, str(it.rank))
    return f"the {card} ({rank} of {' and '.join(it.suits)})"
