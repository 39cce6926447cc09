"""Keltis – Das Kartenspiel (Reiner Knizia, Kosmos 2009) for 2 to 4 players.

Rules: the rule book (its Italian text) and its English digest; cards and
moves: docs/api.md, Titles, cards and moves; readings of open questions: docs/rules-notes.md.

A turn is several log entries: one action (`play`, `discard` or `wish`), then one `draw` per
card used; `to_act` stays on the same seat until the draws are done. The colour rows follow
`engine.display`, the deck and discard piles `engine.piles`. When the game ends (five rows on
the table hold a final card, or the last card is drawn) the end phase begins: one seat at a
time, clockwise from the seat after the one whose turn ended the game, each places up to two
cards (`play`), its placements ending after the second play or at its `pass`.

A game recorded at a real table (`engine.recorded`) deals at the table's `setup` entry, which
names nothing: every hand is dealt face down (8 unknown cards a seat), and so are the draw pile
and, with two players, the 30 cards set aside. A card drawn from the deck goes into its hand
unknown; a card played, discarded or given for a wish names itself (an unknown card of the
hand turned face up, unless the hand is known to hold it: one taken from a discard pile).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine import display
from engine.display import COLOURS
from engine.frozen import replace, with_item
from engine.game import (
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
from engine.games.keltis_card.scoring import RULES, score_tableau
from engine.games.keltis_card.state import (
    DealtFaceDown,
    Discarded,
    Drew,
    DrewUnseen,
    EndPhaseBegan,
    GameOver,
    Passed,
    Played,
    Row,
    State,
    Tableau,
    TookDiscard,
    WishTaken,
)
from engine.piles import DECK, HAND, Piles, deal_hands
from engine.recorded import (
    SETUP,
    UNKNOWN,
    Ledger,
    check_setup,
    face_down,
    from_hand,
    may_hold,
)
from engine.scoring import Score, SeatScore
from engine.spec import CARD, Field, Move, Spec, one_of

_VALUES = (0, 1, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 9, 10)
_CANONICAL = (
    *(f"{c}{v}" for c in COLOURS for v in (*_VALUES, "F", "F")),
    *(f"P{v}" for v in range(11)),
)
_STONES = tuple(range(1, 10))
_FINAL_ROWS_TO_END = 5
_END_PLACEMENTS = 2
_PILES = (*COLOURS, display.POINT)
_PLAYING, _END_PHASE, _OVER = "playing", "end-phase", "over"
_SET_ASIDE_TWO_PLAYERS = 30
# Cards of the game never in its deck: named, they are refused with the rule that says so.
_NOT_IN_DECK = {f"W{v}": f"W{v} is a wish stone: the wish stones lie in the middle, never in the"
                " deck or a hand" for v in _STONES}

SPEC = Spec(
    name="keltis-card",
    seats=(2, 4),
    moves=(
        Move("play", {"card": CARD, "row": one_of(*COLOURS, required=False)}),
        Move("discard", {"card": CARD}),
        Move("wish", {"cards": Field("list", items=CARD, shortest=2, longest=2)}),
        Move("draw", {"from": one_of(DECK, *_PILES)}),
        Move("pass"),
        Move(SETUP),
    ),
    says={
        "play": "play {card}[ on the {row} row]",
        "discard": "discard {card}",
        "wish": "take a wish stone with {cards:plus}",
        "draw": "draw from {from:pile}",
        "pass": "pass",
        SETUP: "deal the cards face down",
    },
    facts={
        "drew": "{seat:seat} drew {card:card}",
        "drew-unseen": "{seat:seat} drew a card from the deck, unseen",
        "dealt-face-down": "the cards are dealt face down: {hand} a seat, {deck} in the deck,"
                           " {set_aside} set aside",
        "took-discard": "{seat:seat} took {card} from the {pile} pile",
        "played": "{seat:seat} played {card}[ on the {row} row]",
        "discarded": "{seat:seat} discarded {card:card}",
        "wish-taken": "{seat:seat} took wish stone {stone} with {cards:plus}",
        "end-phase-began": "the end phase begins ({reason:words}); the seats place in turn:"
                           " {order:seats}",
        "passed": "{seat:seat} passed",
        "game-over": "the game is over; the totals: {totals:each}",
    },
    scoring=RULES,
    recorded=True,
)


class KeltisCard(Game):
    spec = SPEC
    rules_version = "keltis-card/1"
    lowest_wins = False
    state_type = State

    # -- setting up ---------------------------------------------------------------------

    def canonical_deck(self, seats: int, options: Mapping[str, Any]) -> tuple[str, ...]:
        return _CANONICAL

    def deal(self, table: Table) -> State:
        if table.recorded:  # the table deals, at its setup entry
            hands, draw_pile, set_aside = ((),) * table.seats, (), ()
        else:
            deck = table.deck(1, _CANONICAL)
            # Two players: 30 cards leave unseen; the bottom 30 is the same as 30 at random.
            hands, draw_pile, set_aside = deal_hands(deck, table.seats)
        empty = Row((), ())
        return State(
            table=table,
            phase=_PLAYING,
            hands=hands,
            piles=Piles.start(draw_pile, _PILES, COLOURS),
            set_aside=set_aside,
            stones=_STONES,
            tableaux=(Tableau((empty,) * len(COLOURS), empty, empty),) * table.seats,
            turn=0,
            to_draw=0,
            end_order=(),
            end_placed=0,
            ledger=Ledger(_CANONICAL) if table.recorded else None,
        )

    # -- whose turn, what is legal ------------------------------------------------------

    def to_act(self, state: State) -> tuple[int, ...]:
        if state.phase == _OVER:
            return ()
        return (state.end_order[0],) if state.phase == _END_PHASE else (state.turn,)

    def round(self, state: State) -> int:
        return 1

    def is_over(self, state: State) -> bool:
        return state.phase == _OVER

    def legal_moves(self, state: State, seat: int) -> tuple[dict[str, Any], ...]:
        if seat not in self.to_act(state) or _before_setup(state):
            return ()
        if state.to_draw:
            return tuple({"type": "draw", "from": s} for s in state.piles.sources())
        held = _may_hold(state, seat)
        hand = sorted(set(held), key=_CANONICAL.index)
        tableau = state.tableaux[seat]
        moves: list[dict[str, Any]] = []
        for card in hand:
            if display.is_point(card):
                moves.append({"type": "play", "card": card})
                moves += [
                    {"type": "play", "card": card, "row": c}
                    for i, c in enumerate(COLOURS)
                    if display.may_follow(tableau.rows[i].cards, c, card)
                ]
            elif display.may_follow(_row_of(tableau, card).cards, card[0], card):
                moves.append({"type": "play", "card": card})
        if state.phase == _END_PHASE:
            return (*moves, {"type": "pass"})
        moves += [{"type": "discard", "card": card} for card in hand]
        moves += [{"type": "wish", "cards": list(pair)}
                  for pair in _wish_pairs(state, seat, held)]
        return tuple(moves)

    # -- moves ---------------------------------------------------------------------------

    def apply(self, state: State, seat: int, move: Mapping[str, Any], seq: int) -> Outcome:
        kind = move_type(move, state.phase == _OVER)
        if kind == SETUP:
            return _setup(state, seat, seq)
        if _before_setup(state):
            raise IllegalMove("setup-first", "this game is recorded at the table: its setup"
                              " entry (the cards dealt face down) comes before the first move")
        require_turn(seat, self.to_act(state)[0])
        if kind not in ("play", "discard", "wish", "draw", "pass"):
            raise IllegalMove("unknown-move", f"keltis-card has no move of type {kind!r}")
        if state.phase == _END_PHASE:
            return _end_phase_move(state, seat, move, seq)
        if kind == "draw":
            return _draw(state, seat, move.get("from"))
        if state.to_draw:
            raise IllegalMove(
                "must-draw",
                f"you used your cards this turn: draw {state.to_draw} card"
                f"{'s' * (state.to_draw > 1)} before anything else",
            )
        if kind == "pass":
            raise IllegalMove(
                "pass-not-allowed",
                "pass is only for the end phase: on a turn play, discard or take a wish stone",
            )
        if kind == "play":
            state, fact = _play(state, seat, move, seq)
            return _after_use(state, seat, 1, (fact,), display.is_final(fact.card))
        if kind == "discard":
            card = _card_named(move.get("card"))
            state = _discard(_used(state, seat, (card,), seq), (card,))
            return _after_use(state, seat, 1, (Discarded(seat, card),))
        return _wish(state, seat, move, seq)

    # -- what each viewer sees, and the score --------------------------------------------

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        acting = self.to_act(state)
        public: dict[str, Any] = {
            "phase": state.phase,
            "turn": acting[0] if acting else None,
            "to_draw": state.to_draw,
            "hand_sizes": [len(h) for h in state.hands],
            "seats": [
                {
                    "rows": {c: list(t.rows[i].cards) for i, c in enumerate(COLOURS)},
                    "point_row": list(t.point_row.cards),
                    "wish_stones": list(t.stones.cards),
                }
                for t in state.tableaux
            ],
            "wish_stones": [f"W{v}" for v in state.stones],
            **state.piles.public(),
            "set_aside_size": len(state.set_aside),
            "final_rows": _final_rows(state),
            "end_order": list(state.end_order),
            "end_placed": state.end_placed,
        }
        if state.ledger is not None:
            opened = bool(state.ledger.opened)
            public.update(recorded=True, setup_needed=not opened,
                          deck_size=public["deck_size"] if opened else None,
                          unaccounted=state.ledger.possible() if opened else None)
        private = [{"hand": list(h)} for h in state.hands]
        undealt = {"deck": list(state.piles.deck), "set_aside": list(state.set_aside)}
        return compose_view(public, private, undealt, viewer)

    def recorded_setup(self, state: State) -> dict[str, Any] | None:
        return {"type": SETUP}  # the deal, all face down: nothing to name

    def score(self, state: State) -> Score:
        return Score(
            final=state.phase == _OVER,
            rounds=1,
            seats=tuple(
                SeatScore(s, score_tableau(t)) for s, t in enumerate(state.tableaux)
            ),
            lowest_wins=False,
        )


GAME = KeltisCard()


# -- the actions of a turn ------------------------------------------------------------------


def _card_named(card: Any) -> str:
    if not isinstance(card, str):
        raise IllegalMove("malformed-move", 'name the card as a string, e.g. "card": "G7"')
    return card


def _used(state: State, seat: int, cards: tuple[str, ...], seq: int) -> State:
    """`state` with `cards` out of `seat`'s hand, refused unless it holds them; in a recorded
    game a card it is not known to hold is one of its unknown cards, named now."""
    hand = state.hands[seat]
    if state.ledger is not None:
        hand, ledger = from_hand(hand, cards, state.ledger, seq, _NOT_IN_DECK)
        return replace(state, hands=with_item(state.hands, seat, hand), ledger=ledger)
    for card in cards:
        if card not in hand:
            raise IllegalMove("not-in-hand", f"{card} is not in your hand: only own cards are"
                              " used")
    if len(cards) == 2 and cards[0] == cards[1] and hand.count(cards[0]) < 2:
        raise IllegalMove("not-in-hand", f"you hold only one {cards[0]}: a wish needs two cards")
    return replace(state, hands=with_item(state.hands, seat, _without(hand, cards)))


def _play(state: State, seat: int, move: Mapping[str, Any], seq: int) -> tuple[State, Played]:
    card = _card_named(move.get("card"))
    state = _used(state, seat, (card,), seq)
    row = move.get("row")
    tableau = state.tableaux[seat]
    if display.is_point(card) and row is None:
        point_row = _laid(tableau.point_row, card, seq)
        tableau = replace(tableau, point_row=point_row)
        label = "points"
    else:
        if row is None:
            row = card[0]
        if row not in COLOURS:
            raise IllegalMove(
                "no-such-row",
                f"the colour rows are {', '.join(COLOURS)} (no row: the point row); {row!r}"
                " is not one",
            )
        i = COLOURS.index(row)
        display.check_follow(tableau.rows[i].cards, row, card)
        rows = with_item(tableau.rows, i, _laid(tableau.rows[i], card, seq))
        tableau = replace(tableau, rows=rows)
        label = row
    state = replace(state, tableaux=with_item(state.tableaux, seat, tableau))
    return state, Played(seat, card, label)


def _discard(state: State, cards: tuple[str, ...]) -> State:
    """`cards`, already out of the hand, face up on their discard piles."""
    piles = state.piles
    for card in cards:
        piles = piles.discard(card)
    return replace(state, piles=piles)


def _wish(state: State, seat: int, move: Mapping[str, Any], seq: int) -> Outcome:
    cards = move.get("cards")
    if not isinstance(cards, list | tuple) or len(cards) != 2:
        raise IllegalMove("malformed-move", 'a wish names two cards: "cards": ["G5", "P5"]')
    for card in cards:
        _card_named(card)
    used = _used(state, seat, tuple(cards), seq)
    values = [display.value_of(c) for c in cards]
    if values[0] != values[1] or values[0] is None:
        raise IllegalMove(
            "wish-pair",
            f"a wish stone is taken with two cards of the same value: {cards[0]} and"
            f" {cards[1]} do not match (final cards have no value)",
        )
    stone = values[0]
    if stone not in _STONES:
        raise IllegalMove(
            "wish-value",
            f"wish stones are numbered 1 to 9: there is no stone for a pair of {stone}",
        )
    if stone not in state.stones:
        raise IllegalMove(
            "stone-taken", f"the wish stone {stone} is no longer in the middle: it was taken"
        )
    state = _discard(used, tuple(cards))
    tableau = state.tableaux[seat]
    tableau = replace(tableau, stones=_laid(tableau.stones, f"W{stone}", seq))
    state = replace(
        state,
        stones=tuple(s for s in state.stones if s != stone),
        tableaux=with_item(state.tableaux, seat, tableau),
    )
    return _after_use(state, seat, 2, (WishTaken(seat, stone, tuple(cards)),))


def _after_use(
    state: State, seat: int, used: int, facts: tuple[Fact, ...], final_laid: bool = False
) -> Outcome:
    """The draws owed after using cards, unless the five final rows end the game at once.

    Only a final card laid in a row can make the fifth such row (the game ends at the
    fifth), so the table's rows are counted only then: counting them after every card used
    cost more than the rest of the move.
    """
    if final_laid and _final_rows(state) >= _FINAL_ROWS_TO_END:
        return _begin_end_phase(state, seat, "five-final-rows", facts)
    return Outcome(replace(state, to_draw=used), facts)


def _draw(state: State, seat: int, source: Any) -> Outcome:
    if not state.to_draw:
        raise IllegalMove(
            "nothing-to-draw", "draw only after using cards: one card per card played"
        )
    if not isinstance(source, str):
        raise IllegalMove(
            "malformed-move", 'a draw names where from: "from": "deck" or a colour such as "G"'
        )
    piles, card = state.piles.draw(source)
    fact: Fact = Drew(seat, card) if source == DECK else TookDiscard(seat, source, card)
    if card == UNKNOWN:  # a recorded game's deck: the card goes into the hand unseen
        assert state.ledger is not None
        fact = DrewUnseen(seat)
        state = replace(state, ledger=state.ledger.unseen(1))
    state = replace(
        state,
        piles=piles,
        hands=with_item(state.hands, seat, (*state.hands[seat], card)),
        to_draw=state.to_draw - 1,
    )
    if piles.deck_empty:
        # The last card drawn ends the game at once; a second draw owed is skipped.
        return _begin_end_phase(state, seat, "deck-exhausted", (fact,))
    if state.to_draw:
        return Outcome(state, (fact,))
    next_turn = replace(state, piles=piles.end_turn(), turn=(seat + 1) % state.table.seats)
    return Outcome(next_turn, (fact,))


# -- the end phase ---------------------------------------------------------------------------


def _begin_end_phase(state: State, seat: int, reason: str, facts: tuple[Fact, ...]) -> Outcome:
    seats = state.table.seats
    order = tuple((seat + k) % seats for k in range(1, seats + 1))
    state = replace(
        state, phase=_END_PHASE, to_draw=0, piles=state.piles.end_turn(), end_order=order,
        end_placed=0,
    )
    return Outcome(state, (*facts, EndPhaseBegan(reason, order)))


def _end_phase_move(state: State, seat: int, move: Mapping[str, Any], seq: int) -> Outcome:
    kind = move.get("type")
    if kind == "pass":
        return _next_in_end_phase(state, (Passed(seat),))
    if kind != "play":
        raise IllegalMove(
            "end-phase",
            "the game has ended: in the end phase a seat only places up to two cards into its"
            " rows, or passes (no discards, wish stones or draws)",
        )
    state, fact = _play(state, seat, move, seq)
    state = replace(state, end_placed=state.end_placed + 1)
    if state.end_placed >= _END_PLACEMENTS:
        return _next_in_end_phase(state, (fact,))
    return Outcome(state, (fact,))


def _next_in_end_phase(state: State, facts: tuple[Fact, ...]) -> Outcome:
    state = replace(state, end_order=state.end_order[1:], end_placed=0)
    if state.end_order:
        return Outcome(state, facts)
    state = replace(state, phase=_OVER)
    totals = tuple(sum(c.points for c in score_tableau(t)) for t in state.tableaux)
    return Outcome(state, (*facts, GameOver(totals)))


# -- small helpers ----------------------------------------------------------------------------


def _final_rows(state: State) -> int:
    """Rows on the whole table holding a final card; two finals in one row count once."""
    return sum(display.has_final(row.cards) for t in state.tableaux for row in t.rows)


def _wish_pairs(state: State, seat: int, held: Mapping[str, int]) -> list[tuple[str, str]]:
    distinct = sorted(held, key=_CANONICAL.index)
    pairs = [
        (a, b)
        for a, b in itertools.combinations_with_replacement(distinct, 2)
        if (a != b or held[a] >= 2) and display.value_of(a) == display.value_of(b)
    ]
    pairs = [p for p in pairs if display.value_of(p[0]) in state.stones]
    if state.ledger is None:
        return pairs
    return [p for p in pairs if _may_give(state, seat, p)]


def _may_give(state: State, seat: int, cards: tuple[str, ...]) -> bool:
    """Whether the hand may hold all of `cards` at once: two different cards it is not known
    to hold need two of its unknown cards."""
    try:
        _used(state, seat, cards, 0)
    except IllegalMove:
        return False
    return True


def _may_hold(state: State, seat: int) -> Mapping[str, int]:
    """Each card `seat` may play now, with the most copies it may hold: its hand, or in a
    recorded game any card still unaccounted for while it holds an unknown card."""
    hand = state.hands[seat]
    if state.ledger is None:
        return Counter(hand)
    return may_hold(hand, state.ledger)


# -- a game recorded at a real table -----------------------------------------------------------


def _before_setup(state: State) -> bool:
    return state.ledger is not None and not state.ledger.opened


def _setup(state: State, seat: int | str, seq: int) -> Outcome:
    """The table's setup entry: the cards dealt face down, 8 a seat, the rest the draw pile
    (30 of it set aside unseen with two players). Nothing is laid face up, so it names
    nothing; play begins with seat 0."""
    ledger = state.ledger
    check_setup(ledger is not None, seat, ledger, "a game of Keltis, which has one deal,")
    assert ledger is not None
    seats = state.table.seats
    aside = _SET_ASIDE_TWO_PLAYERS if seats == 2 else 0
    # The deck's cards stay unaccounted for; the hands and the set-aside go face down.
    ledger = replace(ledger, opened=seq).unseen(seats * HAND + aside)
    pile = ledger.unaccounted
    state = replace(state, ledger=ledger, hands=(face_down(HAND),) * seats,
                    piles=Piles.start(face_down(pile), _PILES, COLOURS),
                    set_aside=face_down(aside))
    return Outcome(state, (DealtFaceDown(HAND, pile, aside),))


def _row_of(tableau: Tableau, card: str) -> Row:
    return tableau.rows[COLOURS.index(card[0])]


def _laid(row: Row, card: str, seq: int) -> Row:
    return Row((*row.cards, card), (*row.events, seq))


def _without(hand: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...]:
    out = list(hand)
    for card in cards:
        out.remove(card)
    return tuple(out)
