"""Recorded deals: a game played with real cards, each card entering the record when it is seen.

A game created with `"deal": "recorded"` is dealt by nobody here. The table names what its
setup lays face up in one `setup` entry (posted with the table token, before the first move),
and every move that brings a card into everyone's view names it (`"card"`). What a title needs
for that is here, once, for every title:

- `Ledger`: the cards of one deal, the title's whole set for its player count, with every card
  named so far and the entry that named it, and how many cards went where nobody saw them
  (`unknown`: a hand dealt face down, a set-aside pile). A card named must be one still
  unaccounted for; else the refusal names the entries where its copies were seen, or the rule
  that leaves it out of the game. Unknown cards are counted, never named, so every count (hand
  sizes, the pile) stays honest; one named later (a card played from a hand) is `revealed`.
- Unknown cards in a hand (`UNKNOWN`, `unseen_hand`, `taken_from`, `faces`): a hand dealt face
  down holds that many faceless cards; a card the table names as played from it is taken in
  place of one of them, so the hand's size stays the rules' own.
- The setup entry's refusals, the same for every title (`waits_for_setup`, `setup_first`,
  `check_setup`).
- `engine.follow`: follow obligations that cannot be checked while hands are unknown, what not
  following proves, and the `revoke` a later entry shows.
- `engine.playout.transcribe`: a finished seeded game entered again as a scorekeeper at a real
  table would (the setup named, each card named when it comes into view): what the property
  tests and the golden recorded games are made of.

A title that takes recorded deals says so in its spec (`recorded`) and lists its `setup` move
there; it keeps its `Ledger` in its state and answers `recorded_setup` and `recorded_moves`
(`engine.game.Game`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.frozen import frozen, replace
from engine.game import TABLE, IllegalMove

RECORDED = "recorded"
SEEDED = "seeded"
SETUP = "setup"  # the table's entry naming what a deal's setup lays face up
# A card in a hand that nobody at the table has seen: it is counted, and has no face. No title
# has a card of this name (a card's code is a word or a colour and a number).
UNKNOWN = "?"


def is_recorded(created: Mapping[str, Any]) -> bool:
    """Whether a game (its `game-created` entry, or its meta) was dealt at a real table."""
    return created.get("deal") == RECORDED


@frozen
class Ledger:
    """The cards of one recorded deal, and what became of them so far.

    `cards` is every card of the deal (the title's set for the player count, in its canonical
    order); `named` each card the table named, with the entry that named it, in that order;
    `unknown` how many cards went out of the pile unseen. `opened` is the setup's entry.
    """

    cards: tuple[str, ...]
    named: tuple[tuple[str, int], ...] = ()
    unknown: int = 0
    opened: int = 0

    @property
    def unaccounted(self) -> int:
        """Cards neither named nor gone unseen: those still in the pile (or the box)."""
        return len(self.cards) - len(self.named) - self.unknown

    def left(self, card: str) -> int:
        """Copies of `card` not named yet (some may be among the unknown cards)."""
        return self.cards.count(card) - sum(1 for c, _ in self.named if c == card)

    def possible(self) -> dict[str, int]:
        """Each card that may still be named, with its copies left, in canonical order: what
        a card picker offers."""
        left = Counter(self.cards)
        left.subtract(c for c, _ in self.named)
        return {c: n for c, n in left.items() if n > 0}

    def seen_at(self, card: str) -> tuple[int, ...]:
        return tuple(seq for c, seq in self.named if c == card)

    def name(self, card: Any, seq: int, out: Mapping[str, str] | None = None) -> Ledger:
        """The ledger with `card` named at entry `seq`; IllegalMove when the deal has no such
        card left. `out` maps cards this player count leaves out of the game to the rule that
        does ("pink was taken out of this three-player game at setup")."""
        if out and card in out:
            raise IllegalMove("card-not-in-game", out[card])
        if not isinstance(card, str) or card not in self.cards:
            raise IllegalMove("no-such-card", f"{card!r} is no card of this game")
        if not self.left(card):
            copies = self.cards.count(card)
            where = ", ".join(map(str, self.seen_at(card)))
            said = f"the {card} card" if copies == 1 else f"all {copies} {card} cards"
            raise IllegalMove(
                "card-seen", f"{said} of this deal {'is' if copies == 1 else 'are'} accounted"
                f" for already: seen at entr{'y' if copies == 1 else 'ies'} {where}")
        if self.unaccounted <= 0:
            raise IllegalMove("pile-empty", "every card of this deal is accounted for")
        return replace(self, named=(*self.named, (card, seq)))

    def named_all(self, cards: tuple[Any, ...], seq: int,
                  out: Mapping[str, str] | None = None) -> Ledger:
        ledger = self
        for card in cards:
            ledger = ledger.name(card, seq, out)
        return ledger

    def unseen(self, count: int) -> Ledger:
        """`count` cards gone out of the pile face down: counted, with no face."""
        if count > self.unaccounted:
            raise IllegalMove("pile-empty", f"only {self.unaccounted} cards of this deal are"
                              f" left unaccounted for, not {count}")
        return replace(self, unknown=self.unknown + count)

    def revealed(self, card: Any, seq: int, out: Mapping[str, str] | None = None) -> Ledger:
        """An unknown card turned face up (played from a hand): named, and one unknown fewer."""
        if not self.unknown:
            raise IllegalMove("no-unknown-card", "no card of this deal went unseen")
        return replace(self, unknown=self.unknown - 1).name(card, seq, out)


def waits_for_setup(recorded: bool, ledger: Ledger | None) -> bool:
    """Whether a deal dealt at the table still waits for its setup entry (its ledger unopened:
    a title keeps an unopened `Ledger(())` rather than None between deals, since a later field
    is never set back to its default)."""
    return recorded and (ledger is None or not ledger.opened)


def setup_first(deal: int, what: str) -> IllegalMove:
    """The refusal of a move made before its deal's setup is recorded."""
    return IllegalMove("setup-first", f"deal {deal} is recorded at the table: its setup ({what})"
                       " is named before the first move")


def check_setup(recorded: bool, seat: Any, ledger: Ledger | None, deal: int) -> None:
    """The refusals every title's setup entry shares: a seeded game has none, it is the
    table's own, and it is recorded once a deal."""
    if not recorded:
        raise IllegalMove("not-recorded", "this game is dealt by the service from its seed:"
                          " there is no setup to record")
    if seat != TABLE:
        raise IllegalMove("setup-by-table", "the setup is the table's entry: post it with the"
                          " table_token, for no seat")
    if not waits_for_setup(recorded, ledger):
        assert ledger is not None
        raise IllegalMove("setup-recorded", f"the setup of deal {deal} was recorded at"
                          f" entry {ledger.opened}")


def unseen_hand(count: int) -> tuple[str, ...]:
    """A hand of `count` cards dealt face down: counted, faceless."""
    return (UNKNOWN,) * count


def taken_from(hand: tuple[str, ...], card: str) -> tuple[str, ...] | None:
    """`hand` less `card`: the card itself when the hand shows it, else one of its unknown
    cards (the card was among them, for all the record knows); None when it holds neither.
    Whether the card may still be anywhere unseen is the deal's `Ledger`'s to say."""
    if card in hand:
        i = hand.index(card)
    elif UNKNOWN in hand:
        i = hand.index(UNKNOWN)
    else:
        return None
    return (*hand[:i], *hand[i + 1:])


def faces(cards: tuple[str, ...]) -> list[str]:
    """The cards of `cards` that have a face: what a view shows of a hand."""
    return [c for c in cards if c != UNKNOWN]
