"""The draw pile and the face-up discard piles of the Keltis games, and the draw cycle.

Rule shared by both Keltis games (the card game and the board game): after using cards a
player draws one card per card used, each from the top of the deck or from the top of a colour
discard pile, never a card he discarded in this same turn.

`Piles` is a frozen value (codec-ready: tuples of str/int only):
- `deck`: the draw pile, top card first (hidden: keep it out of public views);
- `names`: the discard piles, e.g. `("R", "Y", "G", "B", "V", "P")`; a card goes on the pile
  named by its first letter (colour letter, or `P` for the card game's point cards);
- `drawable`: the piles that may be drawn from (the card game: the five colours, not `P`);
- `discards`: per name, that pile's cards bottom first (public; the last one is the top);
- `fresh`: per name, how many cards on top of it were discarded this turn (blocked).

The deal both games share: `deal_hands(deck, seats)`.
API: `Piles.start(deck, names=COLOURS, drawable=None)`; `discard(card)`; `draw(source)` ->
`(piles, card)` where `source` is `DECK` or a pile name; `check_draw(source)` (IllegalMove);
`sources()` the legal draw sources now; `can_draw`; `end_turn()` (clears `fresh`); `top(name)`;
`deck_empty` (True once the last card of the deck is drawn: the exhaustion signal);
`public()` the JSON-ready part everybody sees.
IllegalMove codes: `no-such-pile`, `pile-not-drawable`, `pile-empty`, `discarded-this-turn`,
`deck-empty`.
"""

from __future__ import annotations

from typing import Any

from engine.display import COLOUR_NAMES, COLOURS, POINT
from engine.frozen import frozen, replace, with_item
from engine.game import IllegalMove

DECK = "deck"
HAND = 8
_SET_ASIDE_TWO_PLAYERS = 30
_PILE_NAMES = {**COLOUR_NAMES, POINT: "point-card"}


def deal_hands(
    deck: tuple[str, ...], seats: int
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...]]:
    """The Keltis deal: 8 cards a seat from the top, seat 0 first; with two players the bottom
    30 of what is left go back in the box unseen. (hands, draw pile, set aside)."""
    hands = tuple(tuple(deck[s * HAND : (s + 1) * HAND]) for s in range(seats))
    rest = tuple(deck[seats * HAND :])
    aside = _SET_ASIDE_TWO_PLAYERS if seats == 2 else 0
    return hands, rest[: len(rest) - aside], rest[len(rest) - aside :]


@frozen
class Piles:
    deck: tuple[str, ...]
    names: tuple[str, ...]
    drawable: tuple[str, ...]
    discards: tuple[tuple[str, ...], ...]
    fresh: tuple[int, ...]

    @classmethod
    def start(
        cls,
        deck: tuple[str, ...],
        names: tuple[str, ...] = COLOURS,
        drawable: tuple[str, ...] | None = None,
    ) -> Piles:
        return cls(
            deck=tuple(deck),
            names=tuple(names),
            drawable=tuple(names if drawable is None else drawable),
            discards=((),) * len(names),
            fresh=(0,) * len(names),
        )

    @property
    def deck_empty(self) -> bool:
        return not self.deck

    def top(self, name: str) -> str | None:
        pile = self.discards[self.names.index(name)]
        return pile[-1] if pile else None

    def discard(self, card: str) -> Piles:
        """`card` face up on the pile named by its first letter, marked as discarded now."""
        i = self.names.index(card[0])
        return replace(
            self,
            discards=with_item(self.discards, i, (*self.discards[i], card)),
            fresh=with_item(self.fresh, i, self.fresh[i] + 1),
        )

    def check_draw(self, source: Any) -> None:
        if source == DECK:
            if self.deck_empty:
                raise IllegalMove("deck-empty", "the draw pile is empty: no card can be drawn")
            return
        if source not in self.names:
            raise IllegalMove(
                "no-such-pile",
                f"a draw takes the top card of the deck or of a discard pile"
                f" ({', '.join(self.drawable)}): {source!r} is neither",
            )
        if source not in self.drawable:
            raise IllegalMove(
                "pile-not-drawable",
                f"the {_PILE_NAMES.get(source, source)} discard pile cannot be drawn from:"
                f" only the deck and the piles {', '.join(self.drawable)}",
            )
        i = self.names.index(source)
        if not self.discards[i]:
            raise IllegalMove(
                "pile-empty",
                f"the {_PILE_NAMES.get(source, source)} discard pile is empty: there is no top"
                " card to draw",
            )
        if self.fresh[i]:
            raise IllegalMove(
                "discarded-this-turn",
                f"{self.discards[i][-1]} was discarded this turn: a card discarded in the same"
                " turn cannot be drawn",
            )

    def draw(self, source: Any) -> tuple[Piles, str]:
        """The piles after drawing from `source`, and the card drawn (IllegalMove if not)."""
        if source == DECK and self.deck:  # the usual draw, which no rule refuses
            return replace(self, deck=self.deck[1:]), self.deck[0]
        self.check_draw(source)
        i = self.names.index(source)
        card = self.discards[i][-1]
        return replace(self, discards=with_item(self.discards, i, self.discards[i][:-1])), card

    def sources(self) -> tuple[str, ...]:
        """Every source a draw may come from now, the deck first."""
        out = [DECK] if self.deck else []
        for name in self.drawable:
            i = self.names.index(name)
            if self.discards[i] and not self.fresh[i]:
                out.append(name)
        return tuple(out)

    @property
    def can_draw(self) -> bool:
        """Whether `sources()` offers anything, asked after every turn's action: the deck
        alone almost always answers it."""
        return bool(self.deck) or bool(self.sources())

    def end_turn(self) -> Piles:
        if not any(self.fresh):
            return self  # nothing was discarded this turn (the usual draw from the deck)
        return replace(self, fresh=(0,) * len(self.names))

    def public(self) -> dict[str, Any]:
        return {
            "deck_size": len(self.deck),
            "discards": {n: list(p) for n, p in zip(self.names, self.discards, strict=True)},
        }
