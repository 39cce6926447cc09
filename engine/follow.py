"""Follow obligations at a real table: what not following proves, and the revoke a later card shows.

A rule that obliges a seat to play a card of some suit when it holds one (Die sieben Siegel's
follow suit, Hermit's designer's rule) cannot be checked when a card is played from a hand the
record does not know (a recorded deal, `engine.recorded`: every card in it is unknown). So:

- not following is accepted, and the record keeps what it proves: the seat held no card of
  those suits at that entry (`Obligations.proved`, reported by a `void` fact);
- when a later entry of the same deal shows the seat held such a card then (it plays one; a
  hand only loses cards while a deal runs, so every card it shows later it held then), that
  entry is accepted too, as what happened at the table, and its verdict carries a `revoke` fact
  naming the earlier entry and the rule broken (`Obligations.shown`). The table may take back
  to before it (`takeback`); what a revoke costs is the title's rule book's to say.

A title keeps one `Obligations` per deal in its state (empty at each deal's setup) and says
what a card's suits are; the rule's name is the option or rule the title reports.
"""

from __future__ import annotations

from engine.frozen import frozen, replace
from engine.game import Fact


@frozen
class Void:
    """At entry `seq`, not following proved that `seat` held no card of `suits` (`rule`)."""

    seat: int
    suits: tuple[str, ...]
    seq: int
    rule: str


@frozen
class Voided(Fact):
    """Not following at this entry proved the seat held no card of these suits."""

    kind = "void"
    seat: int
    suits: tuple[str, ...]
    rule: str


@frozen
class Revoke(Fact):
    """The seat showed `card` (of `suits`), held at entry `entry` when not following proved it
    held no card of those suits: the rule was broken there."""

    kind = "revoke"
    seat: int
    card: str
    entry: int
    suits: tuple[str, ...]
    rule: str


@frozen
class Obligations:
    """The voids proved in one deal and not yet shown broken, in the order proved."""

    voids: tuple[Void, ...] = ()

    def proved(self, seat: int, suits: tuple[str, ...], seq: int,
               rule: str) -> tuple[Obligations, Voided]:
        """Not following at entry `seq` proved `seat` held no card of `suits`."""
        void = Void(seat, suits, seq, rule)
        return replace(self, voids=(*self.voids, void)), Voided(seat, suits, rule)

    def shown(self, seat: int, card: str,
              suits: tuple[str, ...]) -> tuple[Obligations, tuple[Revoke, ...]]:
        """`seat` showed `card` of `suits`, a card it held since before every void of this
        deal: a revoke for each void it breaks. A void shown broken is reported once, then
        forgotten (a second card of the suits proves nothing more)."""
        broken = tuple(v for v in self.voids if v.seat == seat and set(v.suits) & set(suits))
        if not broken:
            return self, ()
        kept = tuple(v for v in self.voids if v not in broken)
        revokes = tuple(Revoke(seat, card, v.seq, tuple(s for s in v.suits if s in suits),
                               v.rule) for v in broken)
        return replace(self, voids=kept), revokes

    def of(self, seat: int) -> tuple[Void, ...]:
        return tuple(v for v in self.voids if v.seat == seat)
