"""What accepted Hermit moves record in the log, so a replay reads without the engine.

Only `dealt` (a seat's new hand) is private; the starting and Stagecoach choices are recorded
by the generic `chose` fact of `engine.simultaneous`, also private to their seat.
"""

from __future__ import annotations

from engine.frozen import frozen
from engine.game import Fact


@frozen
class HandDealt(Fact):
    kind = "hand-dealt"
    hand: int
    first_seat: int
    cards_each: int
    centre: str | None


@frozen
class GroupStarted(Fact):
    kind = "group-started"
    seat: int
    group: int
    card: str


@frozen
class StagecoachLaid(Fact):
    kind = "stagecoach-laid"
    size: int


@frozen
class Played(Fact):
    kind = "played"
    seat: int
    card: str
    group: int
    took_control: bool
    controller: int | None


@frozen
class NewGroup(Fact):
    kind = "new-group"
    seat: int
    card: str
    group: int


@frozen
class QuartetTaken(Fact):
    kind = "quartet-taken"
    group: int
    taken_by: int | None  # None: nobody controlled it, so it is set aside
    cards: tuple[str, ...]


@frozen
class HandScored(Fact):
    kind = "hand-scored"
    hand: int
    discarded: tuple[str, ...]
    stagecoach: tuple[str, ...]
    stagecoach_to: int | None
    house_party: int | None
    points: tuple[int, ...]
    totals: tuple[int, ...]
    game_over: bool
