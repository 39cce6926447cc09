"""Die sieben Siegel (Stefan Dorra, Abacusspiele 2003) for 3 to 5 players.

Rules: the rule book (its Italian text) and its English digest; cards,
seals and moves: docs/api.md, Titles, cards and moves; readings of open questions:
docs/rules-notes.md.

A round: each seat once, clockwise from the round's first seat, predicts (takes seals) or
takes the saboteur; then 15 tricks, red trumps, the winner leads. A trick's winner returns a
fitting seal: the engine settles it with the last card when there is nothing to choose, and
otherwise waits for the winner's `return` move. Round r is dealt from deck `deal-{r}` and
begun by seat (r-1) mod n.

A round recorded at a real table (`engine.recorded`) opens with the table's `setup` entry (its
hands dealt face down: nothing lies face up) and each play names its card, one still
unaccounted for, from a hand of unknown cards. Whether a play follows suit cannot be checked
then: one that does not is accepted with what it proves (`had-none`), and a later play of that
colour by the same seat in the round reports the `revoke`. The rule book names no penalty for
a revoke, so none is applied (docs/rules-notes.md).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from engine.frozen import replace, with_item
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
    move_type,
    require_turn,
)
from engine.games.sieben_siegel import seals as sealing
from engine.games.sieben_siegel.scoring import RULES, round_components
from engine.games.sieben_siegel.state import (
    BLACK,
    COLOUR_SEALS,
    HAND_SIZE,
    HIGHEST_VALUE,
    OVER,
    PREDICT,
    RETURN,
    SABOTEUR_BASE,
    SEAL_OF,
    SEALS,
    TRICK,
    TRUMP,
    BlackSealTaken,
    CardPlayed,
    NoBlackSealLeft,
    Played,
    RoundScored,
    RoundStarted,
    SaboteurTaken,
    Seal,
    SealChoice,
    SealReturned,
    State,
    TrickWon,
    canonical,
    card_set,
    colour_of,
    value_of,
)
from engine.recorded import (
    FOLLOW_FACTS,
    SETUP,
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
from engine.scoring import Score, SeatScore
from engine.spec import CARD, INDEX, Field, Move, Option, Spec, one_of

_MOVES = ("predict", "saboteur", "play", "return")

SPEC = Spec(
    name="sieben-siegel",
    seats=(3, 5),
    options=(
        # One round per player so that everyone begins once; the rule book plays six with three.
        Option("rounds", "rounds in the game", default=4, defaults={3: 6, 4: 4, 5: 5}, low=1,
               high=30),
        Option("saboteur_max", "the saboteur's penalty before black seals reduce it",
               default=SABOTEUR_BASE, kind="choice", choices=(4, 5, 6)),
    ),
    moves=(
        # A prediction maps seals to trick counts (white and black are named here so the rules
        # can answer with the rule they break); `from` names, per colour the supply lacks, the
        # seats to take each missing seal from.
        Move("predict", {
            "seals": Field("map", keys=one_of(*SEALS), items=INDEX),
            "from": Field("map", required=False, keys=one_of(*COLOUR_SEALS),
                          items=Field("list", items=INDEX, shortest=1, longest=5)),
        }),
        Move("saboteur"),
        Move("play", {"card": CARD}),
        Move("return", {"seal": one_of(*SEALS)}),
        Move(SETUP),  # a recorded round's deal: nothing of it lies face up
    ),
    says={
        "predict": "predict [{seals:counts}|no seals][ (taking {from:sources})]",
        "saboteur": "become the saboteur",
        "play": "play {card}",
        "return": "return the {seal} seal",
        SETUP: "deal the round: 15 cards to each seat, face down",
    },
    facts={
        "played": "{seat:seat} played {card:card}",
        "trick-won": "{seat:seat} won trick {trick}: {cards}",
        "seal-returned": "{seat:seat} returned a {seal} seal",
        "predicted": "{seat:seat} predicted [{seals}|no seals]",
        "seal-taken-from": "{seat:seat} took a {seal} seal from {from_seat:seat}",
        "dealt": "{seat:seat} was dealt [{cards}|a hidden hand]",
        "round-started": "round {round} begins; {first_seat:seat} leads",
        "saboteur-taken": "{seat:seat} became the saboteur",
        "black-seal-taken": "{seat:seat} took a black seal",
        "no-black-seal-left": "{seat:seat} held no fitting seal, and no black seal is left",
        "seal-choice": "{seat:seat} holds several fitting seals ({seals}) and returns one",
        "round-scored": "round {round} is scored: {points:each}",
        **FOLLOW_FACTS,
    },
    scoring=RULES,
    recorded=True,
)


class SiebenSiegel(Game):
    spec = SPEC
    rules_version = "sieben-siegel/1"
    lowest_wins = True
    state_type = State

    # -- setting up ---------------------------------------------------------------------

    def canonical_deck(self, seats: int, options: Mapping[str, Any]) -> tuple[str, ...]:
        return canonical(seats)

    def deal(self, table: Table) -> State:
        empty = State(
            table=table,
            round=0,
            first=0,
            phase=PREDICT,
            turn=0,
            hands=(),
            acted=(),
            saboteur=None,
            saboteur_event=None,
            seals=(),
            trick=(),
            last_trick=(),
            tricks_won=(),
            choice=(),
            scored=((),) * table.seats,
        )
        return _start_round(empty, 1)[0]

    # -- whose turn, what is legal ------------------------------------------------------

    def to_act(self, state: State) -> tuple[int, ...]:
        return () if state.phase == OVER else (state.turn,)

    def round(self, state: State) -> int:
        return state.round

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def legal_moves(self, state: State, seat: int) -> tuple[dict[str, Any], ...]:
        if state.phase == OVER or seat != state.turn or _before_setup(state):
            return ()
        if state.phase == PREDICT:
            saboteur = () if state.saboteur is not None else ({"type": "saboteur"},)
            return (*sealing.predictions(state, seat), *saboteur)
        if state.phase == RETURN:
            return tuple({"type": "return", "seal": kind} for kind in state.choice)
        return tuple({"type": "play", "card": card} for card in _playable(state, seat))

    # -- moves ---------------------------------------------------------------------------

    def apply(self, state: State, seat: int, move: Mapping[str, Any], seq: int) -> Outcome:
        kind = move_type(move, state.phase == OVER)
        if kind == SETUP:
            return _setup(state, seat, seq)
        if _before_setup(state):
            raise setup_first(f"round {state.round}", "its hands dealt face down")
        if kind not in _MOVES:
            raise IllegalMove(
                "unknown-move",
                f"the moves of sieben-siegel are {', '.join(_MOVES)}: not {kind!r}",
            )
        require_turn(seat, state.turn)
        _check_phase(state, kind)
        if kind == "predict":
            return _predict(state, seat, move, seq)
        if kind == "saboteur":
            return _take_saboteur(state, seat, seq)
        if kind == "play":
            return _play(state, seat, move, seq)
        return _return(state, seat, move)

    # -- what each viewer sees, and the score --------------------------------------------

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        middle = sealing.supply(state)
        public: dict[str, Any] = {
            "round": state.round,
            "rounds": _rounds(state.table),
            "phase": state.phase,
            "turn": None if state.phase == OVER else state.turn,
            "first_seat": state.first,
            "acted": list(state.acted),
            "saboteur": state.saboteur,
            "seals": [sealing.counts(seals) for seals in state.seals],
            "supply": {kind: middle[kind] for kind in SEALS},
            "hand_sizes": [len(hand) for hand in state.hands],
            "trick": [{"seat": p.seat, "card": p.card} for p in state.trick],
            "led": colour_of(state.trick[0].card) if state.trick else None,
            "last_trick": [{"seat": p.seat, "card": p.card} for p in state.last_trick],
            "tricks_won": list(state.tricks_won),
            "choice": (
                {"seat": state.turn, "seals": list(state.choice)} if state.phase == RETURN else None
            ),
            "totals": [sum(c.points for c in cs) for cs in state.scored],
            "over": state.phase == OVER,
        }
        if state.table.recorded:
            public.update(recorded_view(state.ledger, state.follows))
            private = [{"hand": known(hand)} for hand in state.hands]
        else:
            private = [{"hand": list(hand)} for hand in state.hands]
        return compose_view(public, private, {}, viewer)

    def recorded_setup(self, state: State) -> dict[str, Any] | None:
        return {"type": SETUP}

    def recorded_moves(self, seat: int | str, move: Mapping[str, Any],
                       effects: list[dict[str, Any]]) -> tuple[tuple[int | str, Any], ...]:
        began = any(e["type"] == RoundStarted.kind for e in effects)
        return ((seat, move), (TABLE, {"type": SETUP})) if began else ((seat, move),)

    def score(self, state: State) -> Score:
        per_seat = [list(cs) for cs in state.scored]
        rounds = state.round
        if state.phase != OVER:
            for seat, cs in enumerate(round_components(state)):
                per_seat[seat] += cs
        return Score(
            final=state.phase == OVER,
            rounds=rounds,
            seats=tuple(SeatScore(s, tuple(cs)) for s, cs in enumerate(per_seat)),
            lowest_wins=True,
        )


GAME = SiebenSiegel()


# -- rounds ----------------------------------------------------------------------------------


def _start_round(state: State, number: int) -> tuple[State, tuple[Fact, ...]]:
    seats = state.table.seats
    if state.table.recorded:
        return _awaiting_setup(state, number), ()
    deck = state.table.deck(number, canonical(seats))
    order = _canonical_order(seats)
    hands = tuple(
        tuple(sorted(deck[s * HAND_SIZE : (s + 1) * HAND_SIZE], key=order.__getitem__))
        for s in range(seats)
    )
    dealt = _round_begun(state, number, hands)
    facts = (RoundStarted(number, dealt.first), *(Dealt(s, hands[s]) for s in range(seats)))
    return dealt, facts


def _round_begun(state: State, number: int, hands: tuple[tuple[str, ...], ...]) -> State:
    """Round `number` with these hands dealt, before anyone predicts."""
    seats = state.table.seats
    first = (number - 1) % seats
    return replace(
        state,
        round=number,
        first=first,
        phase=PREDICT,
        turn=first,
        hands=hands,
        acted=(),
        saboteur=None,
        saboteur_event=None,
        seals=((),) * seats,
        trick=(),
        last_trick=(),
        tricks_won=(0,) * seats,
        choice=(),
    )


@functools.cache
def _canonical_order(seats: int) -> dict[str, int]:
    """Each card's place in the canonical deck, by which every hand dealt is sorted."""
    return {card: i for i, card in enumerate(canonical(seats))}


def _end_round(state: State) -> tuple[State, tuple[Fact, ...]]:
    components = round_components(state)
    scored = tuple(old + new for old, new in zip(state.scored, components, strict=True))
    points = tuple(sum(c.points for c in cs) for cs in components)
    state = replace(state, scored=scored)
    facts: tuple[Fact, ...] = (RoundScored(state.round, points),)
    if state.round >= _rounds(state.table):
        return replace(state, phase=OVER), facts
    state, started = _start_round(state, state.round + 1)
    return state, facts + started


# -- a recorded round ------------------------------------------------------------------------


def _awaiting_setup(state: State, number: int) -> State:
    """Round `number`, dealt at the table and not set up yet: no hand is counted."""
    empty = ((),) * state.table.seats
    # An unopened ledger rather than None: a later field is not set back to its default.
    return replace(_round_begun(state, number, empty), ledger=Ledger(()), follows=Follows())


def _before_setup(state: State) -> bool:
    return state.table.recorded and not is_open(state.ledger)


def _setup(state: State, seat: int | str, seq: int) -> Outcome:
    """The table says the round is dealt: 15 unknown cards to each seat, every card of the
    round in a hand (nothing lies face up)."""
    check_setup(state.table.recorded, seat, state.ledger, f"round {state.round}")
    seats = state.table.seats
    ledger = Ledger(canonical(seats), opened=seq).unseen(HAND_SIZE * seats)
    dealt = _round_begun(state, state.round, (face_down(HAND_SIZE),) * seats)
    return Outcome(replace(dealt, ledger=ledger, follows=Follows()),
                   (RoundStarted(state.round, dealt.first),))


@functools.cache
def _set_aside(seats: int) -> dict[str, str]:
    """The cards this player count leaves in the box, each with the rule that does."""
    top = HIGHEST_VALUE[seats]
    return {card: f"with {seats} players the cards run 1 to {top} in each colour: {card} is"
                  " set aside, not dealt" for card in canonical(5) if card not in card_set(seats)}


def _rounds(table: Table) -> int:
    return table.options.get("rounds", SPEC.options[0].default_for(table.seats))


# -- the prediction ------------------------------------------------------------------------


def _check_phase(state: State, kind: str) -> None:
    if state.phase == RETURN and kind != "return":
        raise IllegalMove(
            "must-return-seal",
            f"you won the trick and hold several fitting seals ({', '.join(state.choice)}):"
            " return one of them before anything else",
        )
    if state.phase == PREDICT and kind in ("play", "return"):
        raise IllegalMove(
            "predictions-first",
            "every seat predicts or takes the saboteur before the first trick is played",
        )
    if state.phase == TRICK and kind in ("predict", "saboteur"):
        raise IllegalMove(
            "predictions-over",
            "each seat predicts or takes the saboteur once, before the tricks: the tricks"
            " have begun",
        )
    if state.phase == TRICK and kind == "return":
        raise IllegalMove(
            "nothing-to-return",
            "a seal is chosen only when the trick's winner holds several fitting seals:"
            " no trick is waiting for one",
        )


def _after_prediction(state: State, seat: int) -> State:
    acted = (*state.acted, seat)
    if len(acted) == state.table.seats:
        return replace(state, acted=acted, phase=TRICK, turn=state.first)
    return replace(state, acted=acted, turn=(seat + 1) % state.table.seats)


def _predict(state: State, seat: int, move: Mapping[str, Any], seq: int) -> Outcome:
    wanted, sources = sealing.read_prediction(move)
    seals, facts = sealing.take_prediction(state, seat, wanted, sources, seq)
    return Outcome(_after_prediction(replace(state, seals=seals), seat), facts)


def _take_saboteur(state: State, seat: int, seq: int) -> Outcome:
    if state.saboteur is not None:
        raise IllegalMove(
            "saboteur-taken",
            f"seat {state.saboteur} took the saboteur: only one seat a round may, so you"
            " must predict",
        )
    taken = replace(state, saboteur=seat, saboteur_event=seq)
    return Outcome(_after_prediction(taken, seat), (SaboteurTaken(seat),))


# -- tricks --------------------------------------------------------------------------------


def _playable(state: State, seat: int) -> tuple[str, ...]:
    if state.ledger is not None:  # a recorded round: any card still in some hand
        return tuple(state.ledger.possible())
    hand = state.hands[seat]
    if not state.trick:
        return hand
    led = colour_of(state.trick[0].card)
    following = tuple(card for card in hand if colour_of(card) == led)
    return following or hand


def _breaks_follow(state: State, hand: tuple[str, ...], card: str) -> bool:
    """Whether `card`, held in `hand`, is not among `_playable`: asked at every play, so the
    hand is looked through only until a card of the led colour turns up."""
    if not state.trick:
        return False
    led = colour_of(state.trick[0].card)
    return colour_of(card) != led and any(colour_of(c) == led for c in hand)


def _play(state: State, seat: int, move: Mapping[str, Any], seq: int) -> Outcome:
    card = move.get("card")
    if not isinstance(card, str):
        raise IllegalMove("malformed-move", 'a play names its card, e.g. {"card": "Y12"}')
    if state.table.recorded:
        changes, facts = _played_unseen(state, seat, card, seq)
    else:
        changes, facts = {"hands": _played_from_hand(state, seat, card)}, [CardPlayed(seat, card)]
    trick = (*state.trick, Played(seat, card))
    if len(trick) < state.table.seats:
        turn = (seat + 1) % state.table.seats
        return Outcome(replace(state, **changes, trick=trick, turn=turn), tuple(facts))
    return _settle_trick(replace(state, **changes, trick=trick), seq, facts)


def _played_from_hand(state: State, seat: int, card: str) -> tuple[tuple[str, ...], ...]:
    """The hands once `seat` played `card`, a card it holds, following suit if it can."""
    if card not in card_set(state.table.seats):
        top = value_of(canonical(state.table.seats)[-1])
        raise IllegalMove(
            "no-such-card",
            f"the cards of this game are the values 1 to {top} in the colours R, Y, G, B, V"
            f" (e.g. Y{top}): there is no {card!r}",
        )
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalMove("card-not-held", f"you do not hold {card}: play a card from your hand")
    if _breaks_follow(state, hand, card):
        led = SEAL_OF[colour_of(state.trick[0].card)]
        raise IllegalMove("must-follow-suit", f"you hold {led}, so you must follow {led}")
    i = hand.index(card)  # every card of the deck is different: a hand holds it once
    return with_item(state.hands, seat, hand[:i] + hand[i + 1 :])


def _played_unseen(state: State, seat: int, card: str,
                   seq: int) -> tuple[dict[str, Any], list[Fact]]:
    """A play recorded at a real table: a card still unaccounted for, from a hand of unknown
    cards, so legal for some deal of them. Following suit cannot be checked: a card that
    does not follow is accepted with what it proves, and a card of a colour the seat did not
    follow earlier this round shows a revoke there."""
    assert state.ledger is not None and state.follows is not None
    ledger = state.ledger.revealed(card, seq, _set_aside(state.table.seats))
    hands = with_item(state.hands, seat, played_from(state.hands[seat], card))
    follows, revokes = state.follows.played(seat, (SEAL_OF[colour_of(card)],), card)
    facts: list[Fact] = [CardPlayed(seat, card), *revokes]
    led = colour_of(state.trick[0].card) if state.trick else colour_of(card)
    if led != colour_of(card):
        follows, had_none = follows.not_followed(seat, (SEAL_OF[led],), seq, "must-follow-suit")
        facts.append(had_none)
    return {"hands": hands, "ledger": ledger, "follows": follows}, facts


def _winner(trick: tuple[Played, ...]) -> Played:
    """The highest red if any red was played, else the highest card of the led colour."""
    led = colour_of(trick[0].card)
    colours = [colour_of(p.card) for p in trick]
    wanted = TRUMP if TRUMP in colours else led
    contenders = [p for p, colour in zip(trick, colours, strict=True) if colour == wanted]
    return max(contenders, key=_value_played)


def _value_played(played: Played) -> int:
    return value_of(played.card)


def _settle_trick(state: State, seq: int, facts: list[Fact]) -> Outcome:
    won = _winner(state.trick)
    led = colour_of(state.trick[0].card)
    seat = won.seat
    number = sum(state.tricks_won) + 1
    facts.append(TrickWon(seat, number, led, tuple(p.card for p in state.trick)))
    state = replace(
        state,
        trick=(),
        last_trick=state.trick,
        tricks_won=with_item(state.tricks_won, seat, state.tricks_won[seat] + 1),
        turn=seat,
        phase=TRICK,
    )
    if seat == state.saboteur:
        return _after_trick(state, facts)
    kinds = {s.kind for s in state.seals[seat]}
    held = tuple(kind for kind in sealing.fitting(led, won.card) if kind in kinds)
    if len(held) > 1:
        facts.append(SealChoice(seat, held))
        return Outcome(replace(state, phase=RETURN, choice=held), tuple(facts))
    if held:
        return _return_seal(state, seat, held[0], facts)
    if sealing.supply(state)[BLACK]:
        seals = with_item(state.seals, seat, (*state.seals[seat], Seal(BLACK, (seq,))))
        facts.append(BlackSealTaken(seat))
        return _after_trick(replace(state, seals=seals), facts)
    facts.append(NoBlackSealLeft(seat))
    return _after_trick(state, facts)


def _return(state: State, seat: int, move: Mapping[str, Any]) -> Outcome:
    kind = move.get("seal")
    if kind not in SEALS:
        raise IllegalMove("no-such-seal", f"the seals are {', '.join(SEALS)}: not {kind!r}")
    if kind not in state.choice:
        led, winning = colour_of(state.last_trick[0].card), _winner(state.last_trick).card
        if kind in sealing.fitting(led, winning):
            raise IllegalMove(
                "seal-not-held",
                f"you hold no {kind} seal to return: return one you hold"
                f" ({', '.join(state.choice)})",
            )
        rule = sealing.describe_fitting(led, winning)
        raise IllegalMove("seal-does-not-fit", f"{rule}: {kind} does not fit")
    return _return_seal(replace(state, phase=TRICK, choice=()), seat, kind, [])


def _return_seal(state: State, seat: int, kind: str, facts: list[Fact]) -> Outcome:
    seals = with_item(state.seals, seat, sealing.without(state.seals[seat], kind))
    facts.append(SealReturned(seat, kind))
    return _after_trick(replace(state, seals=seals), facts)


def _after_trick(state: State, facts: list[Fact]) -> Outcome:
    if any(state.hands):
        return Outcome(state, tuple(facts))
    state, ended = _end_round(state)
    return Outcome(state, (*facts, *ended))
