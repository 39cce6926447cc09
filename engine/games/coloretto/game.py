"""Coloretto (Michael Schacht, Abacusspiele 2002) for 3 to 5 players.

Rules: the rule book (its Italian text) and its English digest; setup, card
names and moves: docs/api.md (Titles, cards and moves); readings of open questions:
docs/rules-notes.md.

A turn is either a draw followed by a place (two log entries), or a take. A match of several
deals (`deals`, four unless set: "vince il giocatore che dopo quattro partite ha più punti")
adds up the deals' scores; deal d is begun by seat (d-1) mod n.

A recorded deal (`engine.recorded`) starts with the table's `setup` entry naming each seat's
starting card (and, for three players, the colour left out); each draw names its card. The
last-round card is never named: it lies 16th from the bottom of the pile, so the draw that
meets it is the one made when 16 cards are left unaccounted for, and that draw sets it aside
and names the card drawn after it, as a seeded draw does.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from dataclasses import field
from typing import Any

from engine.codec import LATER
from engine.frozen import frozen, replace, with_item
from engine.game import (
    TABLE,
    Fact,
    Game,
    IllegalMove,
    Outcome,
    Table,
    Viewer,
    compose_view,
    move_type,
    require_turn,
)
from engine.recorded import SETUP, Ledger, check_setup, is_open, setup_first
from engine.scoring import Component, Score, SeatScore
from engine.spec import INDEX, Field, Move, Option, Spec

COLOURS = ("blue", "brown", "grey", "green", "orange", "pink", "yellow")
PLUS_TWO = "+2"
JOKER = "joker"
LAST_ROUND = "last-round"
_CANONICAL = (*(c for c in COLOURS for _ in range(9)), *[PLUS_TWO] * 10, *[JOKER] * 3)
_NAME = Field("str", shortest=1, longest=20)  # a card's code: whether it is one, the rules say
_BENEATH_LAST_ROUND = 15
_ROW_SIZE = 3
_TABLE_POINTS = (0, 1, 3, 6, 10, 15, 21)
_POSITIVE_COLOURS = 3
_DEALS = 4  # "dopo quattro partite": a match of four games unless `deals` says otherwise

SPEC = Spec(
    name="coloretto",
    seats=(3, 5),
    options=(
        Option("deals", "deals in the match, their scores added up", default=_DEALS, low=1,
               high=20),
        Option("removed_color", "the colour left out with three players (drawn by the seed"
               " unless set)", kind="choice", choices=COLOURS, nullable=True, seats=(3,),
               not_for="removed_color is for three players only"),
    ),
    moves=(
        Move("draw", {"card": Field("str", required=False, shortest=1, longest=20)}),
        Move("place", {"row": INDEX}),
        Move("take", {"row": INDEX}),
        Move(SETUP, {"starting_cards": Field("list", items=_NAME, shortest=3, longest=5),
                     "removed_color": Field("str", required=False, choices=COLOURS)}),
    ),
    says={"draw": "draw[ {card}]", "place": "place on row {row}", "take": "take row {row}",
          SETUP: "set up the deal: starting cards {starting_cards:each}[; {removed_color}"
                 " left out]"},
    facts={
        "drew": "{seat:seat} drew {card:card}",
        "placed": "{seat:seat} placed {card} on row {row}",
        "took": "{seat:seat} took row {row}: {cards}",
        "last-round-drawn": "{seat:seat} drew the last-round card: this round is the last",
        "round-ended": "every row is taken: {next_seat:seat} begins the next round",
        "deal-ended": "deal {deal} is over; the totals: {totals:each}",
        "deal-started": "deal {deal} begins; starting cards: {starting_cards:each};"
                        " {first_seat:seat} plays first",
    },
    scoring={
        "*": f"A colour scores by its number of cards, "
             f"{'/'.join(map(str, _TABLE_POINTS[1:]))} for 1 to {len(_TABLE_POINTS) - 1}"
             f" (more score no more): the {_POSITIVE_COLOURS} colours worth most count positive,"
             " every other colour negative; each joker joins the colour where it scores best.",
        PLUS_TWO: "Each +2 card scores 2.",
    },
    dealt="{seat:seat}'s starting card: {label}",
    recorded=True,
)


@frozen
class Card:
    """A card on the table or collected, with the log entries that brought it there."""

    name: str
    events: tuple[int, ...]


@frozen
class State:
    table: Table
    deal: int
    removed: str | None
    deck: tuple[str, ...]
    rows: tuple[tuple[Card, ...], ...]
    taken_by: tuple[int | None, ...]
    collected: tuple[tuple[Card, ...], ...]
    turn: int
    drawn: Card | None
    last_round: bool
    earlier_deals: tuple[tuple[tuple[Card, ...], ...], ...]
    over: bool
    # A recorded deal's cards (engine.recorded); one not opened yet waits for the setup.
    ledger: Ledger | None = field(default=None, metadata=LATER)


@frozen
class Drew(Fact):
    kind = "drew"
    seat: int
    card: str


@frozen
class LastRoundDrawn(Fact):
    kind = "last-round-drawn"
    seat: int


@frozen
class Placed(Fact):
    kind = "placed"
    seat: int
    row: int
    card: str


@frozen
class Took(Fact):
    kind = "took"
    seat: int
    row: int
    cards: tuple[str, ...]


@frozen
class RoundEnded(Fact):
    kind = "round-ended"
    next_seat: int


@frozen
class DealEnded(Fact):
    kind = "deal-ended"
    deal: int
    totals: tuple[int, ...]


@frozen
class DealStarted(Fact):
    kind = "deal-started"
    deal: int
    starting_cards: tuple[str, ...]
    first_seat: int


class Coloretto(Game):
    spec = SPEC
    rules_version = "coloretto/1"
    lowest_wins = False
    state_type = State

    # -- setting up ---------------------------------------------------------------------

    def canonical_deck(self, seats: int, options: Mapping[str, Any]) -> tuple[str, ...]:
        return _CANONICAL

    def deal(self, table: Table) -> State:
        removed = None
        if table.seats == 3 and table.recorded:
            removed = table.options.get("removed_color")  # else the setup names it
        elif table.seats == 3:
            removed = table.options.get("removed_color") or table.shuffled(
                COLOURS, "removed-color"
            )[0]
        empty = State(
            table=table,
            deal=0,
            removed=removed,
            deck=(),
            rows=(),
            taken_by=(),
            collected=(),
            turn=0,
            drawn=None,
            last_round=False,
            earlier_deals=(),
            over=False,
        )
        if table.recorded:
            return _awaiting_setup(empty, 1)
        return _start_deal(empty, 1, seq=1)[0]

    # -- whose turn, what is legal ------------------------------------------------------

    def to_act(self, state: State) -> tuple[int, ...]:
        return () if state.over else (state.turn,)

    def round(self, state: State) -> int:
        return state.deal

    def is_over(self, state: State) -> bool:
        return state.over

    def legal_moves(self, state: State, seat: int) -> tuple[dict[str, Any], ...]:
        if state.over or seat != state.turn or _before_setup(state):
            return ()
        open_rows = _open_rows(state)
        if state.drawn is not None:
            return tuple(
                {"type": "place", "row": r} for r in open_rows if len(state.rows[r]) < _ROW_SIZE
            )
        moves: list[dict[str, Any]] = []
        if any(len(state.rows[r]) < _ROW_SIZE for r in open_rows):
            if state.ledger is None:
                moves.append({"type": "draw"})
            else:  # a recorded deal: one draw per card the pile may still hold
                moves += [{"type": "draw", "card": c} for c in _drawable(state.ledger)]
        moves += [{"type": "take", "row": r} for r in open_rows if state.rows[r]]
        return tuple(moves)

    # -- moves ---------------------------------------------------------------------------

    def apply(self, state: State, seat: int, move: Mapping[str, Any], seq: int) -> Outcome:
        kind = move_type(move, state.over)
        if kind == SETUP:
            return _setup(state, seat, move, seq)
        if _before_setup(state):
            raise setup_first(f"deal {state.deal}", "the starting cards")
        require_turn(seat, state.turn)
        if kind == "draw":
            return _draw(state, seat, move, seq)
        if kind == "place":
            return _place(state, seat, move, seq)
        if kind == "take":
            return _take(state, seat, move, seq)
        raise IllegalMove("unknown-move", f"coloretto has no move of type {kind!r}")

    # -- what each viewer sees, and the score --------------------------------------------

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        seen: dict[str, Any] = {
            "deal": state.deal,
            "deals": _deals(state.table),
            "removed_color": state.removed,
            "turn": None if state.over else state.turn,
            "drawn": state.drawn.name if state.drawn else None,
            "rows": [
                {"row": r, "cards": [c.name for c in cards], "taken_by": state.taken_by[r]}
                for r, cards in enumerate(state.rows)
            ],
            "collected": [_tally(cards) for cards in state.collected],
            "deck_size": len(state.deck),
            "last_round": state.last_round,
            "over": state.over,
        }
        if state.table.recorded:
            ledger = state.ledger
            opened = ledger is not None and bool(ledger.opened)
            seen.update(
                recorded=True, setup_needed=not opened,
                deck_size=ledger.unaccounted if opened else None,
                unaccounted=ledger.possible() if opened else None,
            )
        private: list[dict[str, Any]] = [{} for _ in range(state.table.seats)]
        return compose_view(seen, private, {"deck": list(state.deck)}, viewer)

    def recorded_setup(self, state: State) -> dict[str, Any] | None:
        setup: dict[str, Any] = {"type": SETUP,
                                 "starting_cards": [cards[0].name for cards in state.collected]}
        if state.removed is not None:
            setup["removed_color"] = state.removed
        return setup

    def recorded_moves(self, seat: int | str, move: Mapping[str, Any],
                       effects: list[dict[str, Any]]) -> tuple[tuple[int | str, Any], ...]:
        drew = [e["card"] for e in effects if e["type"] == Drew.kind]
        made: list[tuple[int | str, Any]] = [
            (seat, {**move, "card": drew[0]} if drew else move)]
        for started in (e for e in effects if e["type"] == DealStarted.kind):
            made.append((TABLE, {"type": SETUP,
                                 "starting_cards": list(started["starting_cards"])}))
        return tuple(made)

    def score(self, state: State) -> Score:
        deals = list(state.earlier_deals)
        if not state.over:
            deals.append(state.collected)
        per_seat: list[list[Component]] = [[] for _ in range(state.table.seats)]
        for number, collections in enumerate(deals, start=1):
            for seat, cards in enumerate(collections):
                per_seat[seat] += score_collection(cards, number, _colours_in_play(state))
        return Score(
            final=state.over,
            rounds=len(deals),
            seats=tuple(SeatScore(s, tuple(c)) for s, c in enumerate(per_seat)),
            lowest_wins=False,
        )


GAME = Coloretto()


# -- setting up a deal --------------------------------------------------------------------


def _deals(table: Table) -> int:
    return table.options.get("deals", _DEALS)


def _colours_in_play(state: State) -> tuple[str, ...]:
    return tuple(c for c in COLOURS if c != state.removed)


def _start_deal(state: State, number: int, seq: int) -> tuple[State, DealStarted]:
    seats = state.table.seats
    deck = [c for c in state.table.deck(number, _CANONICAL) if c != state.removed]
    starting: list[str] = []
    for _ in range(seats):
        index = next(i for i, c in enumerate(deck) if c in COLOURS and c not in starting)
        starting.append(deck.pop(index))
    deck[len(deck) - _BENEATH_LAST_ROUND : len(deck) - _BENEATH_LAST_ROUND] = [LAST_ROUND]
    first = (number - 1) % seats
    dealt = replace(
        state,
        deal=number,
        deck=tuple(deck),
        rows=((),) * seats,
        taken_by=(None,) * seats,
        collected=tuple((Card(c, (seq,)),) for c in starting),
        turn=first,
        drawn=None,
        last_round=False,
    )
    return dealt, DealStarted(number, tuple(starting), first)


# -- a recorded deal --------------------------------------------------------------------------


def _awaiting_setup(state: State, number: int) -> State:
    """Deal `number`, dealt at the table and not set up yet: no card of it is known."""
    seats = state.table.seats
    return replace(
        state, deal=number, deck=(), rows=((),) * seats, taken_by=(None,) * seats,
        collected=((),) * seats, turn=(number - 1) % seats, drawn=None, last_round=False,
        # An unopened ledger rather than None: a later field is not set back to its default.
        ledger=Ledger(()),
    )


def _before_setup(state: State) -> bool:
    return state.table.recorded and not is_open(state.ledger)


def _deal_cards(removed: str | None) -> tuple[str, ...]:
    """Every card of a deal: the canonical deck without the colour left out, and the
    last-round card."""
    return (*(c for c in _CANONICAL if c != removed), LAST_ROUND)


def _left_out(state: State) -> dict[str, str]:
    if state.removed is None:
        return {}
    return {state.removed: f"{state.removed} was left out of this three-player game at its"
                           " setup: none of its cards is in play"}


def _drawable(ledger: Ledger) -> list[str]:
    return [c for c in ledger.possible() if c != LAST_ROUND]


def _setup(state: State, seat: int | str, move: Mapping[str, Any], seq: int) -> Outcome:
    """The table names what the deal's setup laid face up: each seat's starting card and,
    with three players, the colour left out (once, for the whole match)."""
    table = state.table
    check_setup(table.recorded, seat, state.ledger, f"deal {state.deal}")
    removed = _removed(state, move.get("removed_color"))
    state = replace(state, removed=removed)
    starting = move.get("starting_cards")
    if not isinstance(starting, list | tuple) or len(starting) != table.seats:
        raise IllegalMove("starting-cards", f"the setup names one starting card per seat:"
                          f" {table.seats} cards, seat 0's first")
    taken: dict[str, int] = {}
    for owner, card in enumerate(starting):
        if card in (PLUS_TWO, JOKER, LAST_ROUND):
            raise IllegalMove("starting-card-colour", f"a starting card is a colour card:"
                              f" seat {owner}'s {card} is not")
        if card in taken:
            raise IllegalMove("starting-colours-differ", f"each seat starts with a colour no"
                              f" other seat took: {card} is seat {taken[card]}'s and seat"
                              f" {owner}'s")
        taken[card] = owner
    ledger = Ledger(_deal_cards(removed), opened=seq).named_all(tuple(starting), seq,
                                                                _left_out(state))
    first = (state.deal - 1) % table.seats
    state = replace(state, ledger=ledger,
                    collected=tuple((Card(c, (seq,)),) for c in starting), turn=first)
    return Outcome(state, (DealStarted(state.deal, tuple(starting), first),))


def _removed(state: State, given: Any) -> str | None:
    """The colour three players leave out: named by the first setup unless an option set it,
    the same for every deal of the match; none with more players."""
    if state.table.seats != 3:
        if given is not None:
            raise IllegalMove("no-removed-color", f"with {state.table.seats} players every"
                              " colour is in play: no colour is left out")
        return None
    if state.removed is None:
        if given not in COLOURS:
            raise IllegalMove("removed-color-required", "three players leave one colour out:"
                              " the setup names it (removed_color)")
        return given
    if given is not None and given != state.removed:
        raise IllegalMove("removed-color-kept", f"{state.removed} is left out of this match:"
                          " a three-player match leaves one colour out for every deal")
    return state.removed


def _draw_named(state: State, seat: int, move: Mapping[str, Any], seq: int) -> Outcome:
    """A recorded draw: the card the table saw drawn, one the pile may still hold."""
    card, ledger = move.get("card"), state.ledger
    assert ledger is not None
    if card is None:
        raise IllegalMove("card-required", "this game is recorded at a real table: a draw"
                          ' names the card drawn ("card")')
    if card == LAST_ROUND:
        raise IllegalMove("last-round-aside", "the last-round card is set aside as it is drawn"
                          " and its drawer draws again: name the card drawn after it")
    facts: list[Fact] = []
    if ledger.left(LAST_ROUND) and ledger.unaccounted == _BENEATH_LAST_ROUND + 1:
        # It lies on the bottom 15 cards: this draw met it, as a seeded draw meets it.
        facts.append(LastRoundDrawn(seat))
        ledger = ledger.name(LAST_ROUND, seq)
        state = replace(state, last_round=True)
    ledger = ledger.name(card, seq, _left_out(state))
    facts.append(Drew(seat, card))
    return Outcome(replace(state, ledger=ledger, drawn=Card(card, (seq,))), tuple(facts))


# -- the three moves -----------------------------------------------------------------------


def _row(state: State, move: Mapping[str, Any]) -> int:
    row = move.get("row")
    if not isinstance(row, int) or isinstance(row, bool) or not 0 <= row < len(state.rows):
        raise IllegalMove(
            "no-such-row", f"there are rows 0 to {len(state.rows) - 1}; {row!r} is not one"
        )
    if state.taken_by[row] is not None:
        raise IllegalMove(
            "row-taken",
            f"row {row} was taken by seat {state.taken_by[row]}: a taken row is out of play"
            " until the round ends",
        )
    return row


def _open_rows(state: State) -> list[int]:
    return [r for r, owner in enumerate(state.taken_by) if owner is None]


def _holding_nothing(state: State) -> None:
    """A drawn card must be placed before the drawer does anything else."""
    if state.drawn is not None:
        raise IllegalMove(
            "must-place", f"you drew {state.drawn.name}: place it on a row before anything else"
        )


def _draw(state: State, seat: int, move: Mapping[str, Any], seq: int) -> Outcome:
    _holding_nothing(state)
    if all(len(state.rows[r]) >= _ROW_SIZE for r in _open_rows(state)):
        raise IllegalMove(
            "rows-full", "every row left has 3 cards: you may only take a row"
        )
    if state.table.recorded:
        return _draw_named(state, seat, move, seq)
    if "card" in move:
        raise IllegalMove("not-recorded", "this game is dealt by the service from its seed: a"
                          " draw names no card")
    facts: list[Fact] = []
    deck = state.deck
    if deck[0] == LAST_ROUND:
        # The last-round card is set aside and its drawer draws again at once.
        facts.append(LastRoundDrawn(seat))
        deck = deck[1:]
        state = replace(state, last_round=True)
    facts.append(Drew(seat, deck[0]))
    return Outcome(replace(state, deck=deck[1:], drawn=Card(deck[0], (seq,))), tuple(facts))


def _place(state: State, seat: int, move: Mapping[str, Any], seq: int) -> Outcome:
    if state.drawn is None:
        raise IllegalMove("draw-first", "draw a card before placing one")
    row = _row(state, move)
    if len(state.rows[row]) >= _ROW_SIZE:
        raise IllegalMove("row-full", f"a row holds at most 3 cards: row {row} is full")
    card = Card(state.drawn.name, (*state.drawn.events, seq))
    rows = with_item(state.rows, row, (*state.rows[row], card))
    placed = replace(state, rows=rows, drawn=None, turn=_next_seat(state.taken_by, seat))
    return Outcome(placed, (Placed(seat, row, card.name),))


def _take(state: State, seat: int, move: Mapping[str, Any], seq: int) -> Outcome:
    _holding_nothing(state)
    row = _row(state, move)
    if not state.rows[row]:
        raise IllegalMove("row-empty", f"row {row} holds no card: only a row with cards is taken")
    taken = tuple(Card(c.name, (*c.events, seq)) for c in state.rows[row])
    taken_by = with_item(state.taken_by, row, seat)
    rows = with_item(state.rows, row, ())
    collected = with_item(state.collected, seat, state.collected[seat] + taken)
    facts: list[Fact] = [Took(seat, row, tuple(c.name for c in taken))]
    if None in taken_by:
        state = replace(state, rows=rows, taken_by=taken_by, collected=collected,
                        turn=_next_seat(taken_by, seat))
        return Outcome(state, tuple(facts))
    state = replace(state, rows=rows, taken_by=taken_by, collected=collected)
    if not state.last_round:
        facts.append(RoundEnded(seat))
        fresh = replace(state, taken_by=(None,) * len(state.rows), turn=seat)
        return Outcome(fresh, tuple(facts))
    return _end_deal(state, seq, facts)


def _end_deal(state: State, seq: int, facts: list[Fact]) -> Outcome:
    colours = _colours_in_play(state)
    totals = tuple(collection_points(cards, colours) for cards in state.collected)
    facts.append(DealEnded(state.deal, totals))
    state = replace(state, earlier_deals=(*state.earlier_deals, state.collected))
    if state.deal >= _deals(state.table):
        return Outcome(replace(state, over=True), tuple(facts))
    if state.table.recorded:
        return Outcome(_awaiting_setup(state, state.deal + 1), tuple(facts))
    state, started = _start_deal(state, state.deal + 1, seq)
    return Outcome(state, (*facts, started))


def _next_seat(taken_by: tuple[int | None, ...], seat: int) -> int:
    """The next seat clockwise that has not taken a row this round (or `seat` itself)."""
    seats = len(taken_by)  # one row per seat
    for k in range(1, seats + 1):
        after = (seat + k) % seats
        if after not in taken_by:
            return after
    return seat



def _tally(cards: tuple[Card, ...]) -> dict[str, int]:
    names = [c.name for c in cards]
    return {name: names.count(name) for name in (*COLOURS, PLUS_TWO, JOKER) if name in names}


# -- scoring --------------------------------------------------------------------------------


def colour_points(count: int) -> int:
    """1/3/6/10/15/21 for 1..6 cards; more than six earn nothing more."""
    return _TABLE_POINTS[min(count, len(_TABLE_POINTS) - 1)]


def best_assignment(
    counts: Mapping[str, int], jokers: int, colours: tuple[str, ...]
) -> tuple[dict[str, int], frozenset[str]]:
    assigned, positive, _ = _best(tuple(counts.get(c, 0) for c in colours), jokers, colours)
    return dict(assigned), positive


def collection_points(cards: tuple[Card, ...], colours: tuple[str, ...]) -> int:
    """What `score_collection`'s components add up to, reckoned without making them: every
    deal's end tells each seat's total, and making the components costs many times the sum
    (docs/benchmarks.md, 2026-12-06)."""
    names = [c.name for c in cards]
    counts = tuple(map(names.count, colours))
    return _best(counts, names.count(JOKER), colours)[2] + 2 * names.count(PLUS_TWO)


@functools.lru_cache(maxsize=4096)
def _best(
    counts: tuple[int, ...], jokers: int, colours: tuple[str, ...]
) -> tuple[tuple[tuple[str, int], ...], frozenset[str], int]:
    """The joker colours and positive colours that give the highest score, and that score.

    Every assignment of the jokers is tried (at most 7^3 / 3! multisets); the three colours
    worth most count positive. Ties keep the first assignment in colour order, so the choice
    shown in a breakdown is stable.
    """
    best: tuple[int, tuple[str, ...]] | None = None
    for extra in itertools.combinations_with_replacement(colours, jokers):
        # Only the points decide, so they are reckoned from the worths alone; the colours
        # counted positive are worked out once, for the winning assignment.
        totals = list(counts)
        for colour in extra:
            totals[colours.index(colour)] += 1
        worths = sorted((colour_points(n) for n in totals if n), reverse=True)
        points = sum(worths[:_POSITIVE_COLOURS]) - sum(worths[_POSITIVE_COLOURS:])
        if best is None or points > best[0]:
            best = (points, extra)
    assert best is not None
    extra = best[1]
    assigned = {c: extra.count(c) for c in colours if extra.count(c)}
    totals = {c: n + assigned.get(c, 0) for c, n in zip(colours, counts, strict=True)}
    held = sorted((c for c in colours if totals[c]), key=lambda c: -colour_points(totals[c]))
    return tuple(assigned.items()), frozenset(held[:_POSITIVE_COLOURS]), best[0]


def score_collection(
    cards: tuple[Card, ...], deal: int, colours: tuple[str, ...]
) -> list[Component]:
    """One seat's components for one deal, jokers placed where they score best."""
    by_name: dict[str, list[Card]] = {}
    for card in cards:
        by_name.setdefault(card.name, []).append(card)
    counts = {c: len(by_name.get(c, ())) for c in colours}
    jokers = by_name.get(JOKER, [])
    assigned, positive = best_assignment(counts, len(jokers), colours)
    joker_pool = list(jokers)
    components = []
    for colour in colours:
        own = by_name.get(colour, [])
        added = [joker_pool.pop(0) for _ in range(assigned.get(colour, 0))]
        n = len(own) + len(added)
        if not n:
            continue
        sign = 1 if colour in positive else -1
        points = sign * colour_points(n)
        made_of = f" ({len(own)} + {len(added)} joker{'s' * (len(added) > 1)})" if added else ""
        counted = "positive" if sign > 0 else "negative"
        components.append(
            Component(
                label=colour,
                detail=f"{n} card{'s' * (n != 1)}{made_of}, counted {counted}: {points}",
                points=points,
                round=deal,
                events=tuple(e for card in own + added for e in card.events),
            )
        )
    bonus = by_name.get(PLUS_TWO, [])
    if bonus:
        components.append(
            Component(
                label=PLUS_TWO,
                detail=f"{len(bonus)} card{'s' * (len(bonus) != 1)} worth 2 each: {2 * len(bonus)}",
                points=2 * len(bonus),
                round=deal,
                events=tuple(e for card in bonus for e in card.events),
            )
        )
    return components
