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
- Unknown cards in hands and face-down piles (`UNKNOWN`, `face_down`, `from_hand`,
  `may_hold`): a hand holds cards the table saw go into it (named) and unknown cards; a card
  played from it is one it is known to hold, else one of its unknown cards, named then: legal
  when some assignment of the unknown cards agreeing with the ledger gives the hand that card.
- Follow obligations (`Follows`, `HadNone`, `Revoke`): a rule that asks a seat to follow
  suits cannot be checked while its hand is unknown; not following is accepted with what it
  proves, and a later card of those suits from that seat is a revoke (below).
- `recorded_view`: what a deal of hands dealt face down adds to a title's view.
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
from engine.game import TABLE, Fact, IllegalMove

RECORDED = "recorded"
SEEDED = "seeded"
SETUP = "setup"  # the table's entry naming what a deal's setup lays face up
# The face of a card nobody at the table saw: one in a hand dealt face down, in a face-down
# pile. Never a card of any title (a code of letters and digits), so never named.
UNKNOWN = "?"
# Refusals of a card named that no card at the table can be: one whose every copy is accounted
# for, one the player count leaves out, no card of the title, one more than the pile or a hand
# holds. Such a move is the scorekeeper's slip in entering it, not one made at the table: it is
# refused with nothing written, where a move the rules forbid is kept in the record, refused.
MISNAMED = frozenset(("card-seen", "card-not-in-game", "no-such-card", "pile-empty",
                      "nothing-to-draw"))


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


def face_down(count: int) -> tuple[str, ...]:
    """`count` unknown cards: a hand dealt face down, a draw pile, a set-aside pile."""
    return (UNKNOWN,) * count


def from_hand(hand: tuple[str, ...], cards: tuple[Any, ...], ledger: Ledger, seq: int,
              out: Mapping[str, str] | None = None) -> tuple[tuple[str, ...], Ledger]:
    """`hand` without `cards` played from it at entry `seq`, and the ledger then.

    Each card is one the hand is known to hold (taken from a face-up pile, say), else one of
    its unknown cards turned face up: named in the ledger, which refuses a card no longer
    unaccounted for. A known card is used first: it leaves the unknown cards free for any card
    still unaccounted for, so the move is legal whenever some assignment of them allows it.
    `not-in-hand` when the hand holds neither the card nor an unknown card."""
    rest = list(hand)
    for card in cards:
        if card != UNKNOWN and card in rest:
            rest.remove(card)
        elif UNKNOWN in rest:
            rest.remove(UNKNOWN)
            ledger = ledger.revealed(card, seq, out)
        else:
            raise IllegalMove("not-in-hand", f"{card} is not in this hand: every card it holds"
                              " was seen going into it, and none is that card")
    return tuple(rest), ledger


def may_hold(hand: tuple[str, ...], ledger: Ledger) -> dict[str, int]:
    """Every card `hand` may hold, with the most copies it may, in the deal's canonical order:
    those it is known to hold, and any card still unaccounted for while it holds unknown cards
    (what a card picker offers, what legal moves are listed for)."""
    unknown = hand.count(UNKNOWN)
    known = Counter(c for c in hand if c != UNKNOWN)
    held = {c: known[c] + min(unknown, n) for c, n in ledger.possible().items()}
    return {c: n for c in dict.fromkeys(ledger.cards)
            if (n := held.get(c, known[c]))}


# -- the setup entry, refused alike in every title ----------------------------------------------


def is_open(ledger: Ledger | None) -> bool:
    """Whether a deal's ledger was opened by its setup entry (None: a seeded game's)."""
    return ledger is not None and bool(ledger.opened)


def check_setup(recorded: bool, seat: Any, ledger: Ledger | None, deal: str) -> None:
    """Refuse a `setup` entry a title takes from nobody: in a seeded game, from a seat, or a
    second time in the same `deal` ("deal 2", "round 2")."""
    if not recorded:
        raise IllegalMove("not-recorded", "this game is dealt by the service from its seed:"
                          " there is no setup to record")
    if seat != TABLE:
        raise IllegalMove("setup-by-table", "the setup is the table's entry: post it with the"
                          " table_token, for no seat")
    if is_open(ledger):
        assert ledger is not None
        raise IllegalMove("setup-recorded", f"the setup of {deal} was recorded at entry"
                          f" {ledger.opened}")


def setup_first(deal: str, what: str) -> IllegalMove:
    """The refusal of a move made before `deal`'s setup entry, which names `what`."""
    return IllegalMove("setup-first", f"{deal} is recorded at the table: its setup ({what}) is"
                       " named before the first move")


# -- hands of unknown cards -------------------------------------------------------------------

def known(hand: tuple[str, ...]) -> list[str]:
    """The cards of a hand that were named; its unknown cards are counted by its length."""
    return [card for card in hand if card != UNKNOWN]


def played_from(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """`hand` once `card` is played from it: the card itself if the hand is known to hold it,
    else one of its unknown cards (the card is legal for some assignment of them)."""
    for held in (card, UNKNOWN):
        if held in hand:
            i = hand.index(held)
            return hand[:i] + hand[i + 1:]
    raise IllegalMove("card-not-held", f"{card} is not in this hand, and no card of it is"
                      " unknown: play a card it holds")


# -- follow obligations, as the record proves them ----------------------------------------------
#
# A seat's duty to follow (a suit led, a suit of the card before) cannot be checked when a hand
# is unknown: a card played that does not follow is accepted, and the record keeps what it
# proves, that the seat had no card of those suits then (`HadNone`). When the seat later plays
# a card of such a suit in the same deal, a card it held since (a hand that only shrinks during
# the deal), that entry's verdict still accepts the play and carries a `Revoke` naming the entry
# where the seat did not follow and the rule broken there. Whether a revoke costs anything is
# the title's rule book's to say; a title that says nothing only reports it.


@frozen
class HadNone(Fact):
    """`seat` did not follow at this fact's entry: it had no card of `suits` then (or revoked)."""

    kind = "had-none"
    seat: int
    suits: tuple[str, ...]


@frozen
class Revoke(Fact):
    """`card`, played at this fact's entry, shows that `seat` held a card of `suits` at entry
    `entry`, where it did not follow them: rule `rule` was broken there."""

    kind = "revoke"
    seat: int
    entry: int
    suits: tuple[str, ...]
    rule: str
    card: str


# The sentences of the two facts, for a title's spec to hold among its `facts`.
FOLLOW_FACTS = {
    HadNone.kind: "{seat:seat} had no {suits}",
    Revoke.kind: "revoke: {seat:seat} did not follow {suits} at entry {entry} while holding"
                 " {card} ({rule:words})",
}


@frozen
class Void:
    """Where a seat did not follow `suit` (entry `seq`), and the rule that asked it to."""

    seat: int
    suit: str
    seq: int
    rule: str


@frozen
class Follows:
    """What the plays of one recorded deal proved about its follow obligations so far: each
    suit a seat did not follow, where, not yet shown to be a revoke."""

    voids: tuple[Void, ...] = ()

    def not_followed(self, seat: int, suits: tuple[str, ...], seq: int,
                     rule: str) -> tuple[Follows, HadNone]:
        """`seat` played a card at entry `seq` that follows none of `suits`, as `rule` asks."""
        voids = (*self.voids, *(Void(seat, suit, seq, rule) for suit in suits))
        return Follows(voids), HadNone(seat, suits)

    def played(self, seat: int, suits: tuple[str, ...], card: str,
               ) -> tuple[Follows, tuple[Revoke, ...]]:
        """`seat` played `card`, of `suits`, held since the deal: a revoke for each earlier
        entry where it did not follow one of them (one fact an entry, naming the suits the card
        shows). Each entry is reported once: once shown, every suit it did not follow is
        forgotten (a rule that asks for any of several suits was broken there once)."""
        shown = [v for v in self.voids if v.seat == seat and v.suit in suits]
        if not shown:
            return self, ()
        entries: dict[tuple[int, str], list[str]] = {}
        for void in shown:
            entries.setdefault((void.seq, void.rule), []).append(void.suit)
        revokes = tuple(Revoke(seat, seq, tuple(held), rule, card)
                        for (seq, rule), held in entries.items())
        kept = tuple(v for v in self.voids if v.seat != seat or (v.seq, v.rule) not in entries)
        return Follows(kept), revokes

    def listed(self) -> list[dict[str, Any]]:
        """Each suit a seat did not follow and where, not yet shown to be a revoke: what a
        view lists (`had_none`)."""
        return [{"seat": v.seat, "suit": v.suit, "entry": v.seq} for v in self.voids]


def recorded_view(ledger: Ledger | None, follows: Follows | None) -> dict[str, Any]:
    """What a recorded deal of hands dealt face down adds to a title's view: whether it waits
    for its setup, the cards still unaccounted for (what a card picker offers), and where a
    seat did not follow (`Follows.listed`)."""
    opened = is_open(ledger)
    return {
        "recorded": True,
        "setup_needed": not opened,
        "unaccounted": ledger.possible() if opened and ledger else None,
        "had_none": follows.listed() if follows else [],
    }
