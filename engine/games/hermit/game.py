"""Hermit (P.D. Magnus), a Decktet game for 2 to 5 players: avoid being followed home.

Rules: the rule book (its Italian text) and its English digest; card names and
moves: docs/api.md, Titles, cards and moves; readings of open questions: docs/rules-notes.md.

A game is several hands; hand h is dealt from `table.deck(h, ...)` and begun by seat
(h-1) mod n. Whenever no group is on the table every seat holding cards chooses a starting card
at once (`start`, hidden until all have chosen, `engine.simultaneous`); with two players a
quartet that empties the table first asks each seat for a face-down Stagecoach card. Groups are
numbered 0, 1, 2, ... in order of creation within a hand (simultaneous starts in seat order;
the five-player centre card is group 0) and keep their number until they leave the table.

A hand recorded at a real table (`engine.recorded`) starts with the table's `setup` entry (with
five players naming the centre card); every card is dealt face down, so each hand holds
unknown cards, and a card is named when it is seen: played, or revealed as a starting card.
The designer's follow rule cannot be checked then (`engine.recorded.Follows`): a new group is
accepted, proving the seat had none of the suits the groups end in (`had-none`), and a later
card of those suits from that seat in the same hand is a `revoke`. The Stagecoach stays
unknown until the hand is scored: every other card of the hand has been seen by then, so its
cards are the ones left unnamed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from itertools import repeat
from typing import Any

from engine.codec import LATER
from engine.frozen import frozen, replace, with_item
from engine.game import (
    TABLE,
    Dealt,
    Fact,
    Game,
    IllegalMove,
    Outcome,
    Table,
    Viewer,
    compose_view,
    is_mapping,
    move_type,
    require_turn,
)
from engine.games.hermit.cards import (
    CANONICAL,
    CARDS,
    PERSONALITIES,
    SHARING,
    SUITS,
    describe,
    rank_in,
)
from engine.games.hermit.facts import (
    GroupStarted,
    HandDealt,
    HandScored,
    NewGroup,
    Played,
    QuartetTaken,
    StagecoachLaid,
)
from engine.games.hermit.scoring import DEALT, RULES, Card, score_hand
from engine.recorded import (
    FOLLOW_FACTS,
    SETUP,
    UNKNOWN,
    Follows,
    Ledger,
    check_setup,
    face_down,
    is_open,
    known,
    played_from,
    recorded_view,
    setup_first,
)
from engine.scoring import Component, Score, SeatScore
from engine.simultaneous import Simultaneous
from engine.spec import Field, Move, Option, Spec

START = "start"
STAGECOACH = "stagecoach"
PLAY = "play"
_CARDS_EACH = {2: 16, 3: 12, 4: 9, 5: 7}
_QUARTET = 4
_TWO_PLAYER_HANDS = 4
_CARD = Field("str", shortest=1, longest=40)  # a Decktet name; the rules judge the rest
_FOLLOW = "must_follow"  # the rule a revoke breaks: the option that holds the designer's rule

SPEC = Spec(
    name="hermit",
    seats=(2, 5),
    # A card's name says neither its rank nor its suits: the faces the pages draw say both.
    # A personality scores in a score pile: the pages mark it.
    cards={c.name: {"rank": c.rank, "suits": c.suits, "personality": c.name in PERSONALITIES}
           for c in CARDS.values()},
    options=(
        Option("target", "the score that ends the game (with two players: four hands)",
               default=66, kind="choice", choices=(66, 100), nullable=True, seats=(3, 4, 5),
               not_for="with two players the game is four hands: target does not apply"),
        Option("must_follow", "a card some group accepts must go to a group", default=True,
               kind="bool"),
        Option("pleasant_company", "the Pleasant Company variant", default=False, kind="bool"),
        Option("house_party", "the House Party variant", default=False, kind="bool"),
    ),
    moves=(
        Move(START, {"card": _CARD}),
        # Without `group`, a card no group accepts starts a new group.
        Move(PLAY, {"card": _CARD, "group": Field("int", required=False, low=0)}),
        # Recorded at a real table, the card goes face down unseen: no card is named.
        Move(STAGECOACH, {"card": Field("str", required=False, shortest=1, longest=40)}),
        # Recorded at a real table: with five players, the card laid face up in the centre.
        Move(SETUP, {"centre": Field("str", required=False, shortest=1, longest=40)}),
    ),
    says={
        START: "start with {card}",
        PLAY: "play {card}[ to group {group}]",
        STAGECOACH: "put [{card}|a card face down] on the stagecoach",
        SETUP: "set up the hand[: {centre} in the centre]",
    },
    facts={
        "chose": "{seat:seat} chose {card:card}",
        "group-started": "{seat:seat} started group {group} with {card}",
        "new-group": "{seat:seat} started group {group} with {card}",
        "played": "{seat:seat} played {card:card}[ to group {group}][, taking it{?took_control}]",
        "dealt": "{seat:seat} was dealt [{cards}|a hidden hand]",
        "hand-dealt": "round {hand} is dealt, {cards_each} cards each[, {centre} in the centre];"
                      " {first_seat:seat} plays first",
        "stagecoach-laid": "the stagecoach holds {size} cards",
        **FOLLOW_FACTS,
        "quartet-taken": "[{taken_by:seat} took the quartet of group {group}|the quartet of group"
                         " {group} is set aside: nobody held it]: {cards}",
        "hand-scored": "round {hand} is scored: {points:each}[; the stagecoach goes to"
                       " {stagecoach_to:seat}: {stagecoach}][; house party for"
                       " {house_party:seat}][; left in the groups: {discarded}]; the totals:"
                       " {totals:each}[; the game is over{?game_over}]",
    },
    scoring=RULES,
    dealt=DEALT,
    recorded=True,
)
_MOVE_KEYS = {
    kind: frozenset({"type", *fields})
    for kind, fields in ((START, {"card"}), (STAGECOACH, {"card"}), (PLAY, {"card", "group"}),
                         (SETUP, {"centre"}))
}
_ORDER = {name: i for i, name in enumerate(CANONICAL)}


@frozen
class Group:
    number: int
    cards: tuple[Card, ...]
    controller: int | None  # None: the five-player centre group nobody has taken yet

    @property
    def last(self) -> str:
        return self.cards[-1].name


@frozen
class Laid:
    """A Stagecoach card and the seat that laid it (None: dealt there)."""

    seat: int | None
    card: Card


@frozen
class State:
    table: Table
    hand: int
    turn: int
    hands: tuple[tuple[str, ...], ...]
    groups: tuple[Group, ...]
    next_group: int
    choosing: Simultaneous | None
    piles: tuple[tuple[Card, ...], ...]
    set_aside: tuple[str, ...]
    stagecoach: tuple[Laid, ...]
    scored: tuple[tuple[Component, ...], ...]  # per seat, every finished hand
    over: bool
    # A recorded hand's cards (engine.recorded); one not opened yet waits for the setup.
    ledger: Ledger | None = field(default=None, metadata=LATER)
    # What not following proved in a recorded hand (engine.recorded.Follows).
    follows: Follows | None = field(default=None, metadata=LATER)


class Hermit(Game):
    spec = SPEC
    rules_version = "hermit/1"
    lowest_wins = True
    state_type = State

    # -- setting up ---------------------------------------------------------------------

    def canonical_deck(self, seats: int, options: Mapping[str, Any]) -> tuple[str, ...]:
        return CANONICAL

    def deal(self, table: Table) -> State:
        scored: tuple[tuple[Component, ...], ...] = ((),) * table.seats
        if table.recorded:
            return _awaiting_setup(table, 1, scored)
        return _deal_hand(table, 1, scored, seq=1)[0]

    # -- whose turn, what is legal ------------------------------------------------------

    def to_act(self, state: State) -> tuple[int, ...]:
        if state.over:
            return ()
        return state.choosing.waiting if state.choosing else (state.turn,)

    def round(self, state: State) -> int:
        return state.hand

    def is_over(self, state: State) -> bool:
        return state.over

    def legal_moves(self, state: State, seat: int) -> tuple[dict[str, Any], ...]:
        if seat not in self.to_act(state):
            return ()
        if state.table.recorded:
            return _moves_unseen(state)
        held = state.hands[seat]
        if state.choosing:
            return tuple({"type": state.choosing.move, "card": c} for c in held)
        moves: list[dict[str, Any]] = []
        free = not state.table.options.get("must_follow", True) or not any(
            _accepting(state, c) for c in held
        )
        for card in held:
            accepting = _accepting(state, card)
            moves += [{"type": PLAY, "card": card, "group": g.number} for g in accepting]
            if not accepting and free:
                moves.append({"type": PLAY, "card": card})
        return tuple(moves)

    def table_moves(self, state: State, seat: int) -> tuple[dict[str, Any], ...]:
        """A recorded hand's starting card chosen face down by another seat is no card this
        seat may start with (two choices naming one card are refused when revealed): the
        table, which sees the choices, is not offered it. A seat is: it cannot see them."""
        moves = self.legal_moves(state, seat)
        if not state.table.recorded or not state.choosing or state.choosing.move != START:
            return moves
        chosen = {c.card for c in state.choosing.choices if c.seat != seat}
        return tuple(m for m in moves if m.get("card") not in chosen)

    # -- moves ---------------------------------------------------------------------------

    def apply(self, state: State, seat: int, move: Mapping[str, Any], seq: int) -> Outcome:
        kind = move_type(move, state.over)
        if not isinstance(kind, str) or kind not in _MOVE_KEYS:
            raise IllegalMove(
                "unknown-move", f"hermit has moves start, play and stagecoach, not {kind!r}"
            )
        _check_keys(kind, move)
        if kind == SETUP:
            return _setup(state, seat, move, seq)
        if _before_setup(state):
            raise setup_first(f"round {state.hand}", "the centre card with five players, or none")
        card = _card_of(state, kind, move)
        if kind == PLAY:
            return _play(state, seat, card, move.get("group"), seq)
        return _choose(state, seat, kind, card, seq)

    def is_secret(self, move: Mapping[str, Any]) -> bool:
        # Starting and Stagecoach cards are chosen face down; a play is seen by all.
        return is_mapping(move) and move.get("type") in (START, STAGECOACH)

    # -- what each viewer sees, and the score --------------------------------------------

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        seats = state.table.seats
        options = state.table.options
        public: dict[str, Any] = {
            "deal": state.hand,
            "deals": _TWO_PLAYER_HANDS if seats == 2 else None,
            "target": options.get("target"),
            "first_seat": _first_seat(state.hand, seats),
            "turn": None if state.over else state.turn,
            "choosing": state.choosing.public() if state.choosing and not state.over else None,
            "groups": [
                {"group": g.number, "cards": [c.name for c in g.cards],
                 "controller": g.controller}
                for g in state.groups
            ],
            "hand_sizes": [len(h) for h in state.hands],
            "piles": [[c.name for c in pile] for pile in state.piles],
            "set_aside": list(state.set_aside),
            "stagecoach_size": len(state.stagecoach) if seats == 2 else None,
            "totals": list(_totals(state.scored)),
            "over": state.over,
        }
        if state.table.recorded:
            public.update(recorded_view(state.ledger, state.follows))
        # A recorded hand's cards are unknown until seen: a view shows only those with a face.
        private = [
            {
                "hand": known(state.hands[s]),
                "choice": state.choosing.private(s) if state.choosing else None,
                "stagecoach": known(tuple(laid.card.name for laid in state.stagecoach
                                          if laid.seat == s)),
            }
            for s in range(seats)
        ]
        undealt = (
            {"stagecoach": known(tuple(laid.card.name for laid in state.stagecoach))}
            if seats == 2 else {}
        )
        return compose_view(public, private, undealt, viewer)

    def recorded_setup(self, state: State) -> dict[str, Any] | None:
        return _setup_move(state.groups[0].last if state.table.seats == 5 else None)

    def recorded_moves(self, seat: int | str, move: Mapping[str, Any],
                       effects: list[dict[str, Any]]) -> tuple[tuple[int | str, Any], ...]:
        # A Stagecoach card goes face down: the scorekeeper sees no card to name.
        made: list[tuple[int | str, Any]] = [
            (seat, {"type": STAGECOACH} if move["type"] == STAGECOACH else move)]
        made += [(TABLE, _setup_move(e["centre"])) for e in effects
                 if e["type"] == HandDealt.kind]
        return tuple(made)

    def score(self, state: State) -> Score:
        per_seat = [list(cs) for cs in state.scored]
        if not state.over:
            # The hand in play: its piles so far; the Stagecoach and House Party are decided
            # only when it ends (and the Stagecoach's cards are hidden until then).
            current = score_hand(state.piles, (), state.hand, state.table.options, final=False)
            for seat, cs in enumerate(current.components):
                per_seat[seat] += cs
        return Score(
            final=state.over,
            rounds=state.hand,
            seats=tuple(SeatScore(s, tuple(cs)) for s, cs in enumerate(per_seat)),
            lowest_wins=True,
        )


GAME = Hermit()


# -- dealing and ending a hand ------------------------------------------------------------


def _first_seat(hand: int, seats: int) -> int:
    return (hand - 1) % seats


def _deal_hand(
    table: Table, hand: int, scored: tuple[tuple[Component, ...], ...], seq: int
) -> tuple[State, list[Fact]]:
    """Hand `hand` dealt: whole hands from the top, seat 0 first; the rest per player count."""
    seats = table.seats
    deck = table.deck(hand, CANONICAL)
    each = _CARDS_EACH[seats]
    hands = tuple(
        tuple(sorted(deck[s * each : (s + 1) * each], key=_ORDER.__getitem__))
        for s in range(seats)
    )
    rest = deck[seats * each :]
    state = _dealt(table, hand, scored, hands, rest, seq)
    facts: list[Fact] = [HandDealt(hand, state.turn, each, rest[0] if seats == 5 else None)]
    facts += [Dealt(s, h) for s, h in enumerate(hands)]
    return state, facts


def _dealt(table: Table, hand: int, scored: tuple[tuple[Component, ...], ...],
           hands: tuple[tuple[str, ...], ...], rest: tuple[str, ...], seq: int) -> State:
    """Hand `hand` as dealt at entry `seq`: `hands`, and `rest` the cards left over (the centre
    card with five players, the Stagecoach with two)."""
    seats = table.seats
    # The leftover cards came from the deal (entry `seq`): their points, if any, trace there.
    centre = (Group(0, (Card(rest[0], (seq,)),), None),) if seats == 5 else ()
    coach = tuple(Laid(None, Card(c, (seq,))) for c in rest) if seats == 2 else ()
    return State(
        table=table,
        hand=hand,
        turn=_first_seat(hand, seats),
        hands=hands,
        groups=centre,
        next_group=len(centre),
        # The first start of a hand happens even beside the five-player centre group.
        choosing=Simultaneous(START, tuple(range(seats))),
        piles=((),) * seats,
        set_aside=(),
        stagecoach=coach,
        scored=scored,
        over=False,
    )


def _totals(scored: tuple[tuple[Component, ...], ...]) -> tuple[int, ...]:
    return tuple(sum(c.points for c in cs) for cs in scored)


def _end_hand(state: State, seq: int) -> tuple[State, list[Fact]]:
    seats = state.table.seats
    coach = _coach_at_end(state, seq)
    result = score_hand(state.piles, coach, state.hand, state.table.options)
    scored = tuple(old + new for old, new in zip(state.scored, result.components, strict=True))
    totals = _totals(scored)
    if seats == 2:
        over = state.hand >= _TWO_PLAYER_HANDS
    else:
        over = max(totals) >= state.table.options.get("target", 66)
    fact = HandScored(
        hand=state.hand,
        discarded=tuple(c.name for g in state.groups for c in g.cards),
        stagecoach=tuple(c.name for c in coach),
        stagecoach_to=result.stagecoach_to,
        house_party=result.lone_collector,
        points=result.points,
        totals=totals,
        game_over=over,
    )
    if over:
        return replace(state, groups=(), choosing=None, scored=scored, over=True), [fact]
    if state.table.recorded:
        return _awaiting_setup(state.table, state.hand + 1, scored), [fact]
    state, facts = _deal_hand(state.table, state.hand + 1, scored, seq)
    return state, [fact, *facts]


def _resume(state: State, seq: int) -> tuple[State, list[Fact]]:
    """Carry on from the seat whose turn it is, with no choice pending.

    A hand ends when every card has been played; an empty table asks for starting cards from
    the seats that still hold any; a seat with no card left passes its turn on.
    """
    if not any(state.hands):
        return _end_hand(state, seq)
    if not state.groups:
        return replace(state, choosing=Simultaneous(START, _holding(state))), []
    if state.hands[state.turn]:
        return state, []
    turn = next(s for s in _clockwise(state.turn, state.table.seats) if state.hands[s])
    return replace(state, turn=turn), []


def _holding(state: State) -> tuple[int, ...]:
    """The seats that still hold cards."""
    return tuple(s for s, hand in enumerate(state.hands) if hand)


def _clockwise(start: int, seats: int):
    return ((start + k) % seats for k in range(seats))


# -- the moves -------------------------------------------------------------------------------


def _check_keys(kind: str, move: Mapping[str, Any]) -> None:
    if not move.keys() <= _MOVE_KEYS[kind]:
        extra = sorted(move.keys() - _MOVE_KEYS[kind])[0]
        raise IllegalMove("malformed-move", f"a {kind} move has no field {extra!r}")
    if "card" in move and not isinstance(move["card"], str):
        raise IllegalMove("malformed-move", f"a {kind} move names its card by a string: 'card'")
    group = move.get("group")
    if group is not None and (not isinstance(group, int) or isinstance(group, bool)):
        raise IllegalMove("malformed-move", f"a group is named by its number, not {group!r}")


def _without(cards: tuple[str, ...], card: str, seat: int) -> tuple[str, ...]:
    # The 36 cards are all different: a hand holds each at most once (or unknown cards).
    if card not in cards and UNKNOWN not in cards:
        raise IllegalMove("not-in-hand", f"seat {seat} does not hold the {card}")
    return played_from(cards, card)


def _card_of(state: State, kind: str, move: Mapping[str, Any]) -> str:
    """The card a move names, one of the Decktet's; a recorded Stagecoach card is unseen."""
    if kind == STAGECOACH and state.table.recorded:
        if "card" in move:
            raise IllegalMove("stagecoach-unseen", "at a real table a stagecoach card goes face"
                              " down unseen: a recorded stagecoach move names no card")
        return UNKNOWN
    card = move.get("card")
    if not isinstance(card, str):
        raise IllegalMove("malformed-move", f"a {kind} move names its card by a string: 'card'")
    if card not in CARDS:
        raise IllegalMove("unknown-card", f"there is no {card!r} among the basic Decktet cards")
    return card



def _choose(state: State, seat: int, kind: str, card: str, seq: int) -> Outcome:
    choosing = state.choosing
    if choosing is None or choosing.move != kind:
        raise _not_choosing_now(state, kind)
    if seat not in choosing.seats:
        raise IllegalMove(
            "not-choosing", f"only seats holding cards choose a {kind} card; seat {seat} has none"
        )
    choosing, chose = choosing.choose(seat, card, seq)
    hands = with_item(state.hands, seat, _without(state.hands[seat], card, seat))
    if state.table.recorded and card != UNKNOWN:
        # Checked now, named when revealed: a hidden choice must not show in the ledger.
        state.ledger.revealed(card, seq)
    if not choosing.complete:
        return Outcome(replace(state, hands=hands, choosing=choosing), (chose,))
    revealed = choosing.revealed()
    facts: list[Fact] = [chose]
    if state.table.recorded and kind == START:
        state, shown = _starts_seen(state, revealed)
        facts += shown
    if kind == STAGECOACH:
        laid = tuple(Laid(c.seat, Card(c.card, (c.seq,))) for c in revealed)
        state = replace(state, hands=hands, choosing=None, stagecoach=state.stagecoach + laid)
        facts.append(StagecoachLaid(len(state.stagecoach)))
    else:
        started = tuple(
            Group(state.next_group + i, (Card(c.card, (c.seq,)),), c.seat)
            for i, c in enumerate(revealed)
        )
        state = replace(
            state, hands=hands, choosing=None, groups=state.groups + started,
            next_group=state.next_group + len(started),
        )
        facts += [GroupStarted(g.controller, g.number, g.last) for g in started]
    state, more = _resume(state, seq)
    return Outcome(state, (*facts, *more))


def _not_choosing_now(state: State, kind: str) -> IllegalMove:
    if kind == START and state.choosing is not None:  # the Stagecoach choice is pending
        return IllegalMove(
            "stagecoach-first",
            "a quartet left the table empty: each seat adds a card to the stagecoach "
            "before new groups are started",
        )
    if kind == START:
        numbers = ", ".join(str(g.number) for g in state.groups)
        many = len(state.groups) > 1
        return IllegalMove(
            "groups-on-table",
            f"starting cards are chosen only when no group is on the table; "
            f"group{'s' * many} {numbers} {'are' if many else 'is'} there",
        )
    if state.table.seats != 2:
        return IllegalMove("no-stagecoach", "only the two-player game has a stagecoach")
    return IllegalMove(
        "no-stagecoach-now",
        "a card goes to the stagecoach only when a quartet leaves the table empty, "
        "before new groups are started",
    )


def _accepting(state: State, card: str) -> list[Group]:
    """The groups whose last card shares a suit with `card`: only the last card counts."""
    sharing = SHARING[card]
    return [g for g in state.groups if g.cards[-1].name in sharing]


def _play(state: State, seat: int, card: str, number: int | None, seq: int) -> Outcome:
    if state.choosing is not None:
        if state.choosing.move == START:
            raise IllegalMove(
                "start-first",
                "no group is on the table: every seat first chooses a starting card "
                "(a start move) and the cards are revealed together",
            )
        raise _not_choosing_now(state, START)
    require_turn(seat, state.turn)
    hand = _without(state.hands[seat], card, seat)
    state, notes = _seen(state, seat, card, seq) if state.table.recorded else (state, ())
    if number is None:
        accepting = _accepting(state, card)
        if accepting:
            raise IllegalMove(
                "must-join-group",
                f"a card that shares a suit with a group's last card goes onto a group: "
                f"{describe(card)} fits group {_numbers(accepting)}",
            )
        if state.table.recorded and state.table.options.get(_FOLLOW, True) and hand:
            state, had_none = _not_following(state, seat, seq)
            notes = (*notes, had_none)
        elif state.table.options.get(_FOLLOW, True):
            lasts = {g.cards[-1].name for g in state.groups}
            followers = [c for c in hand if not SHARING[c].isdisjoint(lasts)]
            if followers:
                raise IllegalMove(
                    "must-follow",
                    f"a player holding a card that can join a group must play one onto a "
                    f"group (must_follow): the {followers[0]} fits group "
                    f"{_numbers(_accepting(state, followers[0]))}",
                )
        return _noted(_new_group(state, seat, hand, card, seq), notes)
    index = _group_index(state.groups, number)
    group = state.groups[index]
    if group.cards[-1].name not in SHARING[card]:
        raise IllegalMove(
            "no-shared-suit",
            f"a card joins a group only if it shares a suit with the group's last card: "
            f"{describe(card)} shares none with {describe(group.last)} ending group {number}",
        )
    return _noted(_join(state, seat, hand, card, index, seq), notes)


def _group_index(groups: tuple[Group, ...], number: int) -> int:
    for index, group in enumerate(groups):
        if group.number == number:
            return index
    on_table = ", ".join(str(g.number) for g in groups)
    raise IllegalMove(
        "no-such-group", f"there is no group {number} on the table (groups: {on_table})"
    )


def _numbers(groups: list[Group]) -> str:
    return " or ".join(str(g.number) for g in groups)


def _new_group(state: State, seat: int, hand: tuple[str, ...], card: str, seq: int) -> Outcome:
    """`seat`, left holding `hand`, starts a group with `card`."""
    group = Group(state.next_group, (Card(card, (seq,)),), seat)
    state = replace(
        state,
        hands=with_item(state.hands, seat, hand),
        groups=(*state.groups, group),
        next_group=state.next_group + 1,
        turn=(seat + 1) % state.table.seats,
    )
    state, more = _resume(state, seq)
    return Outcome(state, (NewGroup(seat, card, group.number), *more))


def _join(state: State, seat: int, hand: tuple[str, ...], card: str, index: int,
          seq: int) -> Outcome:
    """`seat`, left holding `hand`, plays `card` onto the group `state.groups[index]`."""
    group = state.groups[index]
    names = [c.name for c in group.cards]
    names.append(card)
    # Equal to or above the highest card takes the group; a Crown beside its Ace ranks 0.
    took = rank_in(card, names) >= max(map(rank_in, names[:-1], repeat(names)))
    controller = seat if took else group.controller
    cards = (*group.cards, Card(card, (seq,)))
    facts: list[Fact] = [Played(seat, card, group.number, took, controller)]
    emptied = False
    if len(cards) < _QUARTET:
        groups = with_item(state.groups, index, Group(group.number, cards, controller))
    else:
        groups = (*state.groups[:index], *state.groups[index + 1 :])
        taken = tuple(Card(c.name, (*c.events, seq)) for c in cards)
        facts.append(QuartetTaken(group.number, controller, tuple(c.name for c in taken)))
        if controller is None:
            state = replace(state, set_aside=state.set_aside + tuple(c.name for c in taken))
        else:
            pile = state.piles[controller] + taken
            state = replace(state, piles=with_item(state.piles, controller, pile))
        emptied = not groups
    seats = state.table.seats
    hands = with_item(state.hands, seat, hand)
    state = replace(state, hands=hands, groups=groups, turn=(seat + 1) % seats)
    if emptied and seats == 2 and any(state.hands):
        choosing = Simultaneous(STAGECOACH, _holding(state))
        return Outcome(replace(state, choosing=choosing), tuple(facts))
    state, more = _resume(state, seq)
    return Outcome(state, (*facts, *more))


# -- a hand recorded at a real table ----------------------------------------------------------


def _setup_move(centre: str | None) -> dict[str, Any]:
    return {"type": SETUP} if centre is None else {"type": SETUP, "centre": centre}


def _awaiting_setup(table: Table, hand: int, scored: tuple[tuple[Component, ...], ...]) -> State:
    """Hand `hand`, dealt at the table and not set up yet: no card of it is known."""
    seats = table.seats
    return State(
        table=table, hand=hand, turn=_first_seat(hand, seats), hands=((),) * seats, groups=(),
        next_group=0, choosing=None, piles=((),) * seats, set_aside=(), stagecoach=(),
        scored=scored, over=False,
        # An unopened ledger rather than None: a later field is not set back to its default.
        ledger=Ledger(()), follows=Follows(),
    )


def _before_setup(state: State) -> bool:
    return state.table.recorded and not is_open(state.ledger)


def _setup(state: State, seat: int | str, move: Mapping[str, Any], seq: int) -> Outcome:
    """The table says the hand is dealt: every card face down, but with five players the
    one left over, laid face up in the centre, which the setup names."""
    table = state.table
    check_setup(table.recorded, seat, state.ledger, f"round {state.hand}")
    seats, centre = table.seats, move.get("centre")
    if seats == 5 and centre is None:
        raise IllegalMove("centre-required", "with five players the card left over is laid face"
                          " up in the centre: the setup names it (centre)")
    if seats != 5 and centre is not None:
        raise IllegalMove("no-centre", f"with {seats} players no card is left over for the"
                          " centre: the setup names none")
    ledger = Ledger(CANONICAL, opened=seq)
    if centre is not None:
        if not isinstance(centre, str) or centre not in CARDS:
            raise IllegalMove("unknown-card", f"there is no {centre!r} among the basic Decktet"
                              " cards")
        ledger = ledger.name(centre, seq)
    each = _CARDS_EACH[seats]
    rest = (centre,) if centre is not None else face_down(len(CANONICAL) - seats * each)
    dealt = _dealt(table, state.hand, state.scored, (face_down(each),) * seats, rest, seq)
    dealt = replace(dealt, ledger=ledger.unseen(ledger.unaccounted), follows=Follows())
    return Outcome(dealt, (HandDealt(state.hand, dealt.turn, each, centre),))


def _moves_unseen(state: State) -> tuple[dict[str, Any], ...]:
    """A recorded hand's legal moves for the seat to act: every card its unknown cards may be
    (any card not seen yet), each where the rules let it go. Not following is not refused
    (it cannot be checked): a card no group accepts may start a group."""
    if not is_open(state.ledger):
        return ()
    assert state.ledger is not None
    if state.choosing and state.choosing.move == STAGECOACH:
        return ({"type": STAGECOACH},)
    cards = list(state.ledger.possible())
    if state.choosing:
        return tuple({"type": START, "card": c} for c in cards)
    moves: list[dict[str, Any]] = []
    for card in cards:
        accepting = _accepting(state, card)
        moves += [{"type": PLAY, "card": card, "group": g.number} for g in accepting]
        if not accepting:
            moves.append({"type": PLAY, "card": card})
    return tuple(moves)


def _suits(cards: Any) -> tuple[str, ...]:
    """Every suit of `cards`, in the Decktet's order."""
    held = {suit for card in cards for suit in CARDS[card].suits}
    return tuple(s for s in SUITS if s in held)


def _seen(state: State, seat: int, card: str, seq: int) -> tuple[State, tuple[Fact, ...]]:
    """`seat` showed `card` from its hand at entry `seq`: named in the hand's ledger (a card
    seen already is refused), and a revoke for each earlier entry of this hand where it did not
    follow a suit of the card."""
    assert state.ledger is not None and state.follows is not None
    follows, revokes = state.follows.played(seat, CARDS[card].suits, card)
    return replace(state, ledger=state.ledger.revealed(card, seq), follows=follows), revokes


def _starts_seen(state: State, revealed: tuple[Any, ...]) -> tuple[State, list[Fact]]:
    """The starting cards revealed together, each named at the entry that chose it. Two
    choices naming one card are refused without saying whose the other is (it was hidden)."""
    cards = [choice.card for choice in revealed]
    twice = next((c for c in cards if cards.count(c) > 1), None)
    if twice is not None:
        raise IllegalMove("card-seen", f"the {twice} is named by two starting choices: the"
                          " deal holds one; one of them is not the card laid")
    facts: list[Fact] = []
    for choice in revealed:
        state, revokes = _seen(state, choice.seat, choice.card, choice.seq)
        facts += revokes
    return state, facts


def _not_following(state: State, seat: int, seq: int) -> tuple[State, Fact]:
    """A new group under the designer's rule, which cannot be checked at a real table: it
    proves `seat` had none of the suits the groups end in."""
    assert state.follows is not None
    lasts = _suits(g.last for g in state.groups)
    follows, had_none = state.follows.not_followed(seat, lasts, seq, _FOLLOW)
    return replace(state, follows=follows), had_none


def _noted(outcome: Outcome, notes: tuple[Fact, ...]) -> Outcome:
    """`outcome` with what a recorded play proved told right after the play itself."""
    if not notes:
        return outcome
    first, *rest = outcome.facts
    return Outcome(outcome.state, (first, *notes, *rest))


def _coach_at_end(state: State, seq: int) -> tuple[Card, ...]:
    """The Stagecoach as the hand's end (entry `seq`) shows it, its points tracing to the entry
    that laid each card and to this one. Recorded at a real table, its cards were never seen;
    every other card of the hand was, so its cards are the ones the hand's ledger has left,
    dealt (as every card of the hand) at the setup."""
    if not state.table.recorded:
        return tuple(Card(laid.card.name, (*laid.card.events, seq)) for laid in state.stagecoach)
    assert state.ledger is not None
    left = tuple(state.ledger.possible())
    assert len(left) == len(state.stagecoach), "a hand ends when every hand is played out"
    return tuple(Card(c, (state.ledger.opened, seq)) for c in left)
