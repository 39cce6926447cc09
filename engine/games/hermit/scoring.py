"""Scoring one hand of Hermit: personality cards, the Stagecoach, and the two variants.

Each personality card in a score pile is one component (its printed rank; Crowns 10 even when
annulled), with the log entries that played it and took it. Pleasant Company turns a complete
Moons or Suns set into one zero component; House Party moves a lone collector's points to the
others as one component each. Every point is in exactly one component.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from engine.frozen import frozen
from engine.games.hermit.cards import CARDS, COMPANIES, CROWN, PERSONALITIES
from engine.scoring import Component

# The rule of each component, as the spec declares it (`engine.spec.Spec.scoring`), and what the
# deal brings a component that cites it.
RULES = {
    "*": "Each personality card in a seat's score pile (or taken with the Stagecoach) scores its"
         " rank, a crown personality 10 even when annulled; other cards score nothing; the"
         " lowest total wins.",
    "pleasant company *": "Pleasant Company: the four personalities of Moons, or of Suns, taken"
                          " together score 0.",
    "house party": "House Party: when one seat alone took personality cards, it scores none of"
                   " them and the other seats share their points, rounded up.",
}
DEALT = "{label}: left over from the deal (the stagecoach with two players, the centre with five)"


@frozen
class Card:
    """A card on the table, in a pile or in the Stagecoach, with the log entries that moved it."""

    name: str
    events: tuple[int, ...]


@frozen
class HandScore:
    components: tuple[tuple[Component, ...], ...]
    stagecoach_to: int | None
    lone_collector: int | None  # House Party triggered by this seat

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(sum(c.points for c in cs) for cs in self.components)


def score_hand(
    piles: tuple[tuple[Card, ...], ...],
    stagecoach: tuple[Card, ...],
    hand: int,
    options: Mapping[str, Any],
    final: bool = True,
) -> HandScore:
    """The hand's components per seat. `final` False: the piles so far, nothing given out."""
    pleasant = bool(options.get("pleasant_company"))
    collectors = [s for s, pile in enumerate(piles) if _personalities(pile)]
    if final and options.get("house_party") and len(collectors) == 1:
        lone = collectors[0]
        return HandScore(_house_party(piles, lone, hand), None, lone)
    to = _stagecoach_taker(piles) if final and stagecoach else None
    components = tuple(
        tuple(
            _pile_components(
                [(c, False) for c in pile] + [(c, True) for c in stagecoach if seat == to],
                hand,
                pleasant,
            )
        )
        for seat, pile in enumerate(piles)
    )
    return HandScore(components, to, None)


def _personalities(cards) -> list[Card]:
    return [c for c in cards if c.name in PERSONALITIES]


def _stagecoach_taker(piles: tuple[tuple[Card, ...], ...]) -> int | None:
    """The seat that took fewer groups (pile size / 4); nobody on equal counts."""
    groups = [len(pile) // 4 for pile in piles]
    fewest = min(groups)
    takers = [s for s, g in enumerate(groups) if g == fewest]
    return takers[0] if len(takers) == 1 else None


@functools.cache
def _card_detail(name: str, from_stagecoach: bool) -> str:
    """A personality's component detail: made once per card and origin, not at every hand."""
    where = "from the stagecoach" if from_stagecoach else "in the score pile"
    if CARDS[name].rank == CROWN:
        value = "a crown personality scores 10, even when annulled"
    else:
        value = f"a personality scores its rank, {PERSONALITIES[name]}"
    return f"the {name} {where}: {value}: {PERSONALITIES[name]}"


def _pile_components(
    held: list[tuple[Card, bool]], hand: int, pleasant: bool
) -> list[Component]:
    names = {card.name for card, _ in held}
    out: list[Component] = []
    zeroed: set[str] = set()
    for suit, members in COMPANIES.items():
        if pleasant and set(members) <= names:
            worth = sum(PERSONALITIES[m] for m in members)
            out.append(
                Component(
                    label=f"pleasant company ({suit})",
                    detail=f"all four {suit} personalities ({', '.join(members)}) taken "
                    f"together score 0 instead of {worth} (Pleasant Company)",
                    points=0,
                    round=hand,
                    events=tuple(e for c, _ in held if c.name in members for e in c.events),
                )
            )
            zeroed |= set(members)
    for card, from_stagecoach in held:
        if card.name not in PERSONALITIES or card.name in zeroed:
            continue
        out.append(
            Component(
                label=card.name,
                detail=_card_detail(card.name, from_stagecoach),
                points=PERSONALITIES[card.name],
                round=hand,
                events=card.events,
            )
        )
    return out


def _house_party(piles: tuple[tuple[Card, ...], ...], lone: int, hand: int):
    """The lone collector scores none of his personalities; the others share them, rounded up.

    Pleasant Company does not apply here: the text says the Moons and Suns points are not
    zeroed in this case.
    """
    cards = _personalities(piles[lone])
    worth = sum(PERSONALITIES[c.name] for c in cards)
    events = tuple(e for c in cards for e in c.events)
    others = len(piles) - 1
    share = -(-worth // others)
    names = ", ".join(c.name for c in cards)
    out = []
    for seat in range(len(piles)):
        if seat == lone:
            detail = (f"only this seat took personality cards ({names}, worth {worth}): "
                      f"House Party gives their points to the other players: 0")
            out.append((Component("house party", detail, 0, hand, events),))
        else:
            split = f"divided among {others} players, rounded up: " if others > 1 else ""
            detail = (f"seat {lone} alone took personality cards worth {worth} "
                      f"(House Party): {split}{share}")
            out.append((Component("house party", detail, share, hand, events),))
    return tuple(out)
