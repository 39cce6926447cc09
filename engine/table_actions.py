"""Table actions: what real tables need around any title's rules, on the record.

Every title is played at a table (`AtTable`), which wraps its rules: a state is the title's
state and the table's side of it (`Sitting`: seats conceded, a takeback proposed, votes to
abandon, the turn clock). Ordinary moves go to the title; these moves, valid in every title,
are judged here:

- `takeback` to entry N: from the table, the state right after N at once; from a seat, a
  proposal that every other seat still playing must accept (`takeback-accept`); a
  `takeback-decline` (the proposer's own withdraws it), a concession or any ordinary move ends
  it. What N must be and what it restores: `engine.line`.
- `concede`: the seat's turns are played from then on by the service (`conceded_turn`: the
  first legal move, as `legal_moves` lists them), each logged as a submission marked
  `"conceded": true`. Conceded seats rank last, latest concession first; when one seat is left
  playing, the game ends.
- `abandon`: from the table, or once every seat still playing has voted for it; the game ends,
  `abandoned`, its score not final.
- `claim-timeout`, with option `turn_limit_s`: concedes every seat that has been waited for as
  long as the limit (`engine.clock`), when posted by another seat or the table.

A submission's `seat` is the seat it acts for, or `"table"` for the table acting for none. A
state without any of this (no table action yet, no turn clock) is the title's state exactly,
and reads, views and scores as the title's alone: games recorded before table actions fold and
show byte for byte as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine import codec
from engine.clock import Clock, millis
from engine.frozen import frozen, replace
from engine.game import TABLE, Fact, Game, IllegalMove, Outcome, Table, Viewer, is_mapping
from engine.line import Line, NeedsPast
from engine.recorded import SETUP
from engine.scoring import Score
from engine.spec import Field, Move, Option, Spec, filled_options

TAKEBACK = "takeback"
ACCEPT = "takeback-accept"
DECLINE = "takeback-decline"
CONCEDE = "concede"
ABANDON = "abandon"
CLAIM_TIMEOUT = "claim-timeout"
TURN_LIMIT = "turn_limit_s"
# What the table may do for no seat; its other actions it makes for a seat it names. A
# recorded deal's setup is the table's own (engine.recorded), judged by the title.
FOR_NONE = frozenset((TAKEBACK, ABANDON, CLAIM_TIMEOUT, SETUP))

_ENTRY = Field("int", low=1)
MOVES = (
    Move(TAKEBACK, {"to": _ENTRY}),
    Move(ACCEPT, {"of": _ENTRY}),
    Move(DECLINE, {"of": _ENTRY}),
    Move(CONCEDE),
    Move(ABANDON, {"reason": Field("str", required=False, longest=200)}),
    Move(CLAIM_TIMEOUT),
)
SAYS = {
    TAKEBACK: "take the game back to entry {to}",
    ACCEPT: "accept the takeback proposed as entry {of}",
    DECLINE: "decline the takeback proposed as entry {of}",
    CONCEDE: "concede",
    ABANDON: "abandon the game[ ({reason})]",
    CLAIM_TIMEOUT: "claim a timeout",
}
FACTS = {
    "taken-back": "the game was taken back to entry {to}[; the moves submitted as entries"
                  " {undone} no longer count]",
    "takeback-proposed": "{seat:seat} proposed taking the game back to entry {to}",
    "takeback-accepted": "{seat:seat} accepted the takeback proposed as entry {of}",
    "takeback-declined": "{seat:seat} declined the takeback proposed as entry {of}",
    "takeback-withdrawn": "{seat:seat} withdrew the takeback proposed as entry {of}",
    "takeback-lapsed": "the takeback proposed as entry {of} lapsed: the game went on",
    "conceded": "{seat:seat} conceded: the service plays their turns from now on",
    "abandon-voted": "{seat:seat} voted to abandon the game",
    "abandoned": "the game was abandoned[: {reason}]",
    "timed-out": "the turn clock of {limit_s} seconds ran out for {seats:seats}",
}
TURN_LIMIT_OPTION = Option(
    TURN_LIMIT, "seconds a seat may take to act before another may claim a timeout (none: no"
    " clock)", None, nullable=True, low=1, high=7 * 24 * 3600)


# -- the table's side of a state -----------------------------------------------------------------


@frozen
class Proposal:
    """A seat's takeback, posted as entry `seq`, and the seats that accepted it so far."""

    seq: int
    seat: int
    to: int
    accepted: tuple[int, ...] = ()


@frozen
class Side:
    """Everything a table adds to a title's state; all empty at first."""

    seats: int = 0  # set by the first table action (a clock sets it at the deal)
    conceded: tuple[int, ...] = ()  # in the order the seats conceded
    proposal: Proposal | None = None
    votes: tuple[int, ...] = ()  # seats that voted to abandon
    abandoned: str | None = None  # the reason, once abandoned
    clock: Clock | None = None


QUIET = Side()


@frozen
class Sitting:
    """A game's state at its table: the title's `game` and the table's `side`."""

    game: Any
    side: Side = QUIET


# -- what the table's actions make happen --------------------------------------------------------


@frozen
class TakenBack(Fact):
    kind = "taken-back"
    to: int
    undone: tuple[int, ...]


@frozen
class Proposed(Fact):
    kind = "takeback-proposed"
    seat: int
    to: int


@frozen
class Accepted(Fact):
    kind = "takeback-accepted"
    seat: int
    of: int


@frozen
class Declined(Fact):
    kind = "takeback-declined"
    seat: int
    of: int


@frozen
class Withdrawn(Fact):
    kind = "takeback-withdrawn"
    seat: int
    of: int


@frozen
class Lapsed(Fact):
    kind = "takeback-lapsed"
    of: int


@frozen
class Conceded(Fact):
    kind = "conceded"
    seat: int


@frozen
class Voted(Fact):
    kind = "abandon-voted"
    seat: int


@frozen
class Abandoned(Fact):
    kind = "abandoned"
    reason: str


@frozen
class TimedOut(Fact):
    kind = "timed-out"
    seats: tuple[int, ...]
    limit_s: int


# -- a title at a table --------------------------------------------------------------------------


class AtTable(Game):
    """A title's rules at a table: the registry holds every title so (`engine.games`)."""

    state_type = Sitting

    def __init__(self, title: Game):
        self.title = title
        self.rules_version = title.rules_version
        self.lowest_wins = title.lowest_wins
        spec = title.spec
        self.spec = replace(spec, moves=(*spec.moves, *MOVES), says={**spec.says, **SAYS},
                            facts={**spec.facts, **FACTS},
                            options=(*spec.options, TURN_LIMIT_OPTION))
        self._actions: dict[str, Callable[..., Outcome]] = {
            TAKEBACK: self._takeback, ACCEPT: self._accept, DECLINE: self._decline,
            CONCEDE: self._concede, ABANDON: self._abandon, CLAIM_TIMEOUT: self._claim_timeout}

    # The title's own answers, for a state at the table.

    def options(self, seats: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """The title's options filled in; the turn limit kept only when given, so a game
        without a clock records the options it always did."""
        own = {k: v for k, v in options.items() if k != TURN_LIMIT}
        filled = self.title.options(seats, own)
        if options.get(TURN_LIMIT) is not None:
            only = Spec(self.name, self.spec.seats, (), {}, {}, (TURN_LIMIT_OPTION,))
            filled.update(filled_options(only, seats, {TURN_LIMIT: options[TURN_LIMIT]}))
        return filled

    def canonical_deck(self, seats: int, options: Mapping[str, Any]) -> tuple[str, ...]:
        return self.title.canonical_deck(seats, options)

    def deal(self, table: Table) -> Sitting:
        game = self.title.deal(table)
        limit = table.options.get(TURN_LIMIT)
        if limit is None:
            return Sitting(game, QUIET)
        return Sitting(game, Side(seats=table.seats, clock=Clock.idle(limit, table.seats)))

    def started(self, state: Sitting, at: str) -> Sitting:
        """The first turn's clock starts as the game is created."""
        clock = state.side.clock
        if clock is None:
            return state
        clock = clock.restarted(millis(at), self.title.to_act(state.game))
        return Sitting(state.game, replace(state.side, clock=clock))

    def to_act(self, state: Sitting) -> tuple[int, ...]:
        side = state.side
        if side.abandoned is not None or _conceded_out(side):
            return ()
        return self.title.to_act(state.game)

    def round(self, state: Sitting) -> int:
        return self.title.round(state.game)

    def is_over(self, state: Sitting) -> bool:
        side = state.side
        if side is QUIET:
            return self.title.is_over(state.game)
        return (side.abandoned is not None or self.title.is_over(state.game)
                or _conceded_out(side))

    def status(self, state: Sitting) -> str:
        if state.side.abandoned is not None:
            return "abandoned"
        return super().status(state)

    def legal_moves(self, state: Sitting, seat: int) -> tuple[dict[str, Any], ...]:
        if self.is_over(state) or seat in state.side.conceded:
            return ()
        return self.title.legal_moves(state.game, seat)

    def table_moves(self, state: Sitting, seat: int) -> tuple[dict[str, Any], ...]:
        if not self.legal_moves(state, seat):
            return ()
        return self.title.table_moves(state.game, seat)

    def view(self, state: Sitting, viewer: Viewer) -> dict[str, Any]:
        view = self.title.view(state.game, viewer)
        side = state.side
        if side is not QUIET and side != QUIET:
            view["table"] = codec.encode(side)
        return view

    def score(self, state: Sitting) -> Score:
        score = self.title.score(state.game)
        side = state.side
        if side is QUIET or side == QUIET:
            return score
        # A game that one seat is left playing is over: its score is final (the title's own
        # rules would have gone on).
        final = (score.final or _conceded_out(side)) and side.abandoned is None
        return replace(score, final=final,
                       conceded=side.conceded, abandoned=side.abandoned is not None,
                       thinking_ms=None if side.clock is None else side.clock.thinking)

    def board(self) -> dict[str, Any] | None:
        return self.title.board()

    def is_secret(self, move: Mapping[str, Any]) -> bool:
        return self.title.is_secret(move)

    def recorded_setup(self, state: Sitting) -> dict[str, Any] | None:
        return self.title.recorded_setup(state.game)

    def recorded_moves(self, seat: int | str, move: Mapping[str, Any],
                       effects: list[dict[str, Any]]) -> tuple[tuple[int | str, Any], ...]:
        return self.title.recorded_moves(seat, move, effects)

    def encode(self, state: Sitting) -> Any:
        """A quiet state is stored as the title's, as it was before tables had a side."""
        if state.side is QUIET or state.side == QUIET:
            return state.game
        return {"~game": state.game, "~table": state.side}

    def decode(self, stored: Any) -> Sitting:
        if isinstance(stored, dict) and "~table" in stored:
            return Sitting(codec.decode(self.title.state_type, stored["~game"]),
                           codec.decode(Side, stored["~table"]))
        return Sitting(codec.decode(self.title.state_type, stored), QUIET)

    # Judging.

    def apply(self, state: Sitting, seat: int, move: Mapping[str, Any], seq: int) -> Outcome:
        return self.judge(state, {"seat": seat, "move": move, "seq": seq})

    def judge(self, state: Sitting, submission: Mapping[str, Any],
              line: Line | None = None) -> Outcome:
        move = submission["move"]
        action = self._actions.get(move.get("type")) if is_mapping(move) else None
        if action is not None:
            return action(self._seated(state), submission, line)
        if state.side is QUIET and "conceded" not in submission:  # most moves of most games
            out = self.title.apply(state.game, submission["seat"], move, submission["seq"])
            return Outcome(Sitting(out.state, QUIET), out.facts)
        return self._move(state, submission)

    def conceded_turn(self, state: Sitting) -> tuple[int, dict[str, Any]] | None:
        """The move the service makes next for a conceded seat, if one must act: the first
        legal move of the first such seat."""
        if state.side is QUIET or not state.side.conceded or self.is_over(state):
            return None
        for seat in self.title.to_act(state.game):
            if seat in state.side.conceded:
                return seat, self.title.legal_moves(state.game, seat)[0]
        return None

    def _move(self, state: Sitting, submission: Mapping[str, Any]) -> Outcome:
        """An ordinary move at a table with a side: a conceded seat's only by the service."""
        seat, side = submission["seat"], state.side
        if seat == TABLE and submission["move"].get("type") == SETUP:
            out = self.title.apply(state.game, seat, submission["move"], submission["seq"])
            return Outcome(Sitting(out.state, side), out.facts)
        if not isinstance(seat, int):
            raise IllegalMove("seat-required", "a move of the game is made for a seat")
        if submission.get("conceded"):
            if self.conceded_turn(state) != (seat, submission["move"]):
                raise IllegalMove("not-conceded-turn", "the service plays only a conceded"
                                  " seat's turn, with its first legal move")
        elif seat in side.conceded:
            raise IllegalMove("seat-conceded", f"seat {seat} conceded: the service plays its"
                              " turns")
        out = self.title.apply(state.game, seat, submission["move"], submission["seq"])
        facts = out.facts
        if side.proposal is not None:
            facts = (*facts, Lapsed(side.proposal.seq))
            side = _quiet(replace(side, proposal=None))
        return Outcome(self._sitting(out.state, side, submission, seat), facts)

    def _sitting(self, game: Any, side: Side, submission: Mapping[str, Any],
                 acted: object) -> Sitting:
        """The state after an accepted submission, its clock moved on."""
        if side.clock is not None and submission.get("at"):
            over = self.title.is_over(game) or _conceded_out(side)
            waiting = () if over else self.title.to_act(game)
            waiting = [s for s in waiting if s not in side.conceded]
            side = replace(side, clock=side.clock.moved(millis(submission["at"]), acted,
                                                          waiting))
        return Sitting(game, side)

    # The actions, each (state, submission, line) -> Outcome.

    def _takeback(self, state: Sitting, submission: Mapping[str, Any],
                  line: Line | None) -> Outcome:
        seat, side, to = submission["seat"], state.side, _number(submission["move"], "to")
        if line is None:
            raise NeedsPast()
        line.check(to, submission["seq"])
        if seat == TABLE:
            return self._restored(state, line, to, submission)
        self._playing(state, seat)
        if side.proposal is not None:
            raise IllegalMove("takeback-pending", f"the takeback proposed as entry"
                              f" {side.proposal.seq} is still open: accept or decline it first")
        proposal = Proposal(submission["seq"], seat, to)
        return Outcome(Sitting(state.game, replace(side, proposal=proposal)),
                       (Proposed(seat, to),))

    def _accept(self, state: Sitting, submission: Mapping[str, Any],
                line: Line | None) -> Outcome:
        seat, side = submission["seat"], state.side
        proposal = self._proposal(state, submission)
        self._playing(state, seat)
        if seat == proposal.seat:
            raise IllegalMove("own-proposal", "the takeback is your own: the other seats"
                              " accept it")
        if seat in proposal.accepted:
            raise IllegalMove("already-accepted", f"seat {seat} accepted this takeback already")
        accepted = (*proposal.accepted, seat)
        others = [s for s in self._playing_seats(state) if s != proposal.seat]
        if all(s in accepted for s in others):
            if line is None:
                raise NeedsPast()
            restored = self._restored(state, line, proposal.to, submission)
            return Outcome(restored.state, (Accepted(seat, proposal.seq), *restored.facts))
        proposal = replace(proposal, accepted=accepted)
        return Outcome(Sitting(state.game, replace(side, proposal=proposal)),
                       (Accepted(seat, proposal.seq),))

    def _decline(self, state: Sitting, submission: Mapping[str, Any],
                 line: Line | None) -> Outcome:
        seat = submission["seat"]
        proposal = self._proposal(state, submission)
        self._playing(state, seat)
        fact = (Withdrawn if seat == proposal.seat else Declined)(seat, proposal.seq)
        return Outcome(Sitting(state.game, _quiet(replace(state.side, proposal=None))), (fact,))

    def _concede(self, state: Sitting, submission: Mapping[str, Any],
                 line: Line | None) -> Outcome:
        seat = submission["seat"]
        self._playing(state, seat)
        return self._conceding(state, (seat,), submission, ())

    def _abandon(self, state: Sitting, submission: Mapping[str, Any],
                 line: Line | None) -> Outcome:
        seat, side = submission["seat"], state.side
        reason = submission["move"].get("reason") or ""
        if not isinstance(reason, str):
            raise IllegalMove("malformed-move", "an abandon's reason is text")
        if seat != TABLE:
            self._playing(state, seat)
            if seat in side.votes:
                raise IllegalMove("already-voted", f"seat {seat} voted to abandon already")
            votes = (*side.votes, seat)
            if not all(s in votes for s in self._playing_seats(state)):
                return Outcome(Sitting(state.game, replace(side, votes=votes)), (Voted(seat),))
            side = replace(side, votes=votes)
        side = replace(side, abandoned=reason, proposal=None)
        return Outcome(Sitting(state.game, side), (Abandoned(reason),))

    def _claim_timeout(self, state: Sitting, submission: Mapping[str, Any],
                       line: Line | None) -> Outcome:
        seat, clock = submission["seat"], state.side.clock
        if clock is None:
            raise IllegalMove("no-turn-clock", "this game has no turn clock: it was created"
                              " without option turn_limit_s")
        if seat != TABLE:
            self._playing(state, seat)
        at = millis(submission["at"]) if submission.get("at") else 0
        late = tuple(s for s in clock.late(at) if s not in state.side.conceded)
        if seat in late:
            raise IllegalMove("claim-own-timeout", "a seat cannot claim its own timeout: make"
                              " your move")
        if not late:
            raise IllegalMove("claim-too-early", f"no seat has let the turn clock of"
                              f" {clock.limit_s} s run out: the next is late in"
                              f" {clock.left_ms(at) / 1000:.1f} s")
        return self._conceding(state, late, submission, (TimedOut(late, clock.limit_s),))

    # What the actions share.

    def _restored(self, state: Sitting, line: Line, to: int,
                  submission: Mapping[str, Any]) -> Outcome:
        """The state right after entry `to`, the clock's waits begun again now."""
        then, undone = line.restore(to)
        side = replace(then.side, proposal=None, clock=state.side.clock)
        if side.clock is not None and submission.get("at"):
            waiting = [s for s in self.title.to_act(then.game) if s not in side.conceded]
            side = replace(side, clock=side.clock.restarted(millis(submission["at"]), waiting))
        return Outcome(Sitting(then.game, _quiet(side)), (TakenBack(to, undone),))

    def _conceding(self, state: Sitting, seats: tuple[int, ...], submission: Mapping[str, Any],
                   facts: tuple[Fact, ...]) -> Outcome:
        side = state.side
        if side.proposal is not None:
            facts = (*facts, Lapsed(side.proposal.seq))
        side = replace(side, conceded=(*side.conceded, *seats), proposal=None,
                       votes=tuple(v for v in side.votes if v not in seats))
        sitting = self._sitting(state.game, side, submission, None)
        return Outcome(sitting, (*facts, *(Conceded(s) for s in seats)))

    def _proposal(self, state: Sitting, submission: Mapping[str, Any]) -> Proposal:
        of, proposal = _number(submission["move"], "of"), state.side.proposal
        if proposal is None or proposal.seq != of:
            raise IllegalMove("no-such-proposal", f"entry {of} is not an open takeback"
                              " proposal")
        return proposal

    def _playing(self, state: Sitting, seat: object) -> None:
        """IllegalMove unless `seat` is a seat still playing."""
        if not isinstance(seat, int):
            raise IllegalMove("seat-required", "this table action is made by a seat: the"
                              " table token names the seat it acts for")
        if seat in state.side.conceded:
            raise IllegalMove("seat-conceded", f"seat {seat} has conceded")

    def _playing_seats(self, state: Sitting) -> list[int]:
        return [s for s in range(state.side.seats) if s not in state.side.conceded]

    def _seated(self, state: Sitting) -> Sitting:
        """`state` with its side knowing the seat count (a quiet side does not)."""
        if state.side.seats:
            return state
        seats = len(self.title.score(state.game).seats)
        return Sitting(state.game, replace(state.side, seats=seats))


def conceded_turn(game: Game, state: Any) -> tuple[int, dict[str, Any]] | None:
    """The move the service makes next for a conceded seat, if one must act."""
    return game.conceded_turn(state) if isinstance(game, AtTable) else None


def needs_line(move: Any) -> bool:
    """Whether judging `move` may need the line of play (`engine.line`): a takeback."""
    return is_mapping(move) and move.get("type") in (TAKEBACK, ACCEPT)


def _number(move: Mapping[str, Any], name: str) -> int:
    value = move.get(name)
    if type(value) is not int:
        raise IllegalMove("malformed-move", f"a {move.get('type')} names entry {name!r} by"
                          " its number")
    return value


def _conceded_out(side: Side) -> bool:
    """Whether one seat at most is left playing: the game ends, finished."""
    return side.seats > 0 and len(side.conceded) >= side.seats - 1


def _quiet(side: Side) -> Side:
    """The one empty side when nothing is left at the table (a proposal declined, lapsed or
    taken back), so that the state reads as its title's again, byte for byte."""
    return QUIET if replace(side, seats=0) == QUIET else side
