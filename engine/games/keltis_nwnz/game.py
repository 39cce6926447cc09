"""Keltis "Neue Wege, neue Ziele" (Reiner Knizia, Kosmos), the board-game expansion, 2-4 players.

Rules: the rule book (its Italian text) and its English digest; cards and
moves: docs/api.md, Titles, cards and moves; readings of open questions: docs/rules-notes.md.

A turn is one log entry to play a card (`move`: into a display row, moving a pawn one cell
forward onto a cell of the card's colour or a joker cell) or to `discard` it; then the
follow-ups the arrival cell's tile demands (`clover`, `discard-tile`), then one `draw` per card
missing from a hand of 8. The board is data (`board.py`); display rows and the draw/discard
cycle are the Keltis games' shared `engine.display` and `engine.piles`.

Path tiles are dealt onto the board's 22 tile spots with `table.shuffled(TILES, "tiles")`: the
i-th tile of the shuffled `TILES` lies on the i-th spot of the board's `tile_spots`.

A game recorded at a real table (`engine.recorded`) is set up by the table's `setup` entry,
which names the 22 tiles laid face up, in the order of the board's `tile_spots`, and deals
every hand face down (8 unknown cards a seat), the draw pile and, with two players, the 30
cards set aside. A card drawn from the deck goes into its hand unknown; a card played to move a
pawn or discarded names itself (an unknown card of the hand turned face up, unless the hand is
known to hold it: one taken from a discard pile).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine import display
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
from engine.games.keltis_nwnz.board import COLOUR_NAMES, COLOURS, Board, stand_in
from engine.games.keltis_nwnz.scoring import RULES, score_player
from engine.games.keltis_nwnz.state import (
    CLOVER,
    CLOVER_DUE,
    DISCARD_DUE,
    DRAW,
    PAWNS,
    PLAY,
    POINTS,
    TILES,
    WISH,
    Award,
    CloverMoved,
    Discarded,
    DrewFromDeck,
    DrewFromPile,
    DrewUnseen,
    FollowUpDue,
    GameEnded,
    Moved,
    PathTile,
    Pawn,
    Player,
    State,
    Stone,
    StoneTaken,
    TilePoints,
    TilesLaid,
)
from engine.piles import DECK, HAND, Piles, deal_hands
from engine.recorded import (
    SETUP,
    UNKNOWN,
    Ledger,
    check_setup,
    face_down,
    from_hand,
    is_open,
    may_hold,
    setup_first,
)
from engine.scoring import Score, SeatScore
from engine.spec import CARD, Field, Move, Spec, one_of

_CANONICAL = tuple(f"{c}{v}" for c in COLOURS for v in range(11) for _ in range(2))
_GOAL_PAWNS_TO_END = 5

_PAWN, _CELL = one_of(*PAWNS), Field("str", shortest=1, longest=64)
_SET_ASIDE_TWO_PLAYERS = 30
SPEC = Spec(
    name="keltis-nwnz",
    seats=(2, 4),
    board=True,
    moves=(
        Move("move", {"pawn": _PAWN, "to": _CELL, "card": CARD}),
        Move("discard", {"card": CARD}),
        Move("clover", {"pawn": _PAWN, "to": _CELL}),
        # `from` is needed only when the card is both in hand and on top of its display row.
        Move("discard-tile", {"card": CARD, "from": one_of("hand", "display", required=False)}),
        Move("draw", {"from": one_of(DECK, *COLOURS)}),
        # A recorded game's setup: the tiles laid face up, in the board's `tile_spots` order.
        Move(SETUP, {"tiles": Field("list", items=one_of(*dict.fromkeys(TILES)),
                                    shortest=len(TILES), longest=len(TILES))}),
    ),
    says={
        "move": "move {pawn} to {to} with {card}",
        "discard": "discard {card}",
        "clover": "move {pawn} to {to} (clover)",
        "discard-tile": "discard {card} for the tile[ (from {from})]",
        "draw": "draw from {from:pile}",
        SETUP: "lay the path tiles {tiles:each} and deal the cards face down",
    },
    facts={
        "drew": "{seat:seat} drew {card:card}[ from {source:pile}]",
        "drew-unseen": "{seat:seat} drew a card from the deck, unseen",
        "tiles-laid": "{tiles} path tiles are laid on the board and the cards dealt face down:"
                      " {hand} a seat, {deck} in the deck, {set_aside} set aside",
        "discarded": "{seat:seat} discarded {card:card}",
        "moved": "{seat:seat} moved {pawn} from {origin} to {to} with {card}",
        "clover-moved": "{seat:seat} moved {pawn} from {origin} to {to} by the clover",
        "tile-points": "{seat:seat} scored {points} points on the tile at {cell}",
        "wish-stone-taken": "{seat:seat} took a wish stone of colour {colour} from the"
                            " {source:words} at {cell}",
        "tile-action": "{seat:seat} reached the {tile:words} tile at {cell}[: it has nothing to"
                       " act on{?idle}]",
        "game-ended": "the game is over, ended by the {reason:words}",
    },
    scoring=RULES,
    recorded=True,
)


class KeltisNwnz(Game):
    spec = SPEC
    rules_version = "keltis-nwnz/1"
    lowest_wins = False
    state_type = State

    def __init__(self, board: Board | None = None):
        self._board = board

    @property
    def layout(self) -> Board:
        return self._board or stand_in()

    # -- setting up ---------------------------------------------------------------------

    def canonical_deck(self, seats: int, options: Mapping[str, Any]) -> tuple[str, ...]:
        return _CANONICAL

    def deal(self, table: Table) -> State:
        board = self.layout
        pawns = tuple(Pawn(p, board.start, ()) for p in PAWNS)
        if table.recorded:  # the table lays the tiles and deals, at its setup entry
            hands, rest, set_aside = ((),) * table.seats, (), ()
            tiles: tuple[PathTile, ...] = ()
        else:
            hands, rest, set_aside = deal_hands(table.deck(1, _CANONICAL), table.seats)
            tiles = _laid(board, table.shuffled(TILES, "tiles"))
        return State(
            table=table,
            piles=Piles.start(rest),
            set_aside=set_aside,
            players=tuple(Player(h, ((),) * len(COLOURS), pawns, (), ()) for h in hands),
            tiles=tiles,
            stacks=(5,) * len(COLOURS),
            turn=0,
            phase=PLAY,
            due_at=None,
            over=False,
            ended_by=None,
            ledger=Ledger(_CANONICAL) if table.recorded else None,
        )

    # -- whose turn, what is legal ------------------------------------------------------

    def to_act(self, state: State) -> tuple[int, ...]:
        return () if state.over else (state.turn,)

    def round(self, state: State) -> int:
        return 1

    def is_over(self, state: State) -> bool:
        return state.over

    def legal_moves(self, state: State, seat: int) -> tuple[dict[str, Any], ...]:
        if state.over or seat != state.turn or _before_setup(state):
            return ()
        me = state.players[seat]
        board = self.layout
        if state.phase == DRAW:
            return tuple({"type": "draw", "from": s} for s in state.piles.sources())
        if state.phase == CLOVER_DUE:
            return tuple(
                {"type": "clover", "pawn": p.name, "to": to}
                for p in me.pawns
                for to in board.ahead(p.cell)
            )
        held = _may_hold(state, me)
        if state.phase == DISCARD_DUE:
            return _discard_tile_moves(me, held, state.ledger is not None)
        cards = list(held)
        moves: list[dict[str, Any]] = [
            {"type": "move", "pawn": p.name, "to": to, "card": card}
            for p in me.pawns
            for to in board.ahead(p.cell)
            for card in cards
            if board.cell(to).accepts(card[0]) and _fits(me, card)
        ]
        moves += [{"type": "discard", "card": card} for card in cards]
        return tuple(moves)

    # -- moves ---------------------------------------------------------------------------

    def apply(self, state: State, seat: int, move: Mapping[str, Any], seq: int) -> Outcome:
        kind = move_type(move, state.over)
        if kind == SETUP:
            return _setup(self.layout, state, seat, move, seq)
        if _before_setup(state):
            raise setup_first("this game", "the path tiles laid and the cards dealt face down")
        require_turn(seat, state.turn)
        known = _MOVES.get(kind) if isinstance(kind, str) else None
        if known is None:
            raise IllegalMove("unknown-move", f"keltis-nwnz has no move of type {kind!r}")
        phase, attempt, make = known
        turn = _Turn(self.layout, state, seat, seq)
        if state.phase != phase:
            raise turn.out_of_phase(attempt)
        return make(turn, move)

    def board(self) -> dict[str, Any]:
        return self.layout.to_json()

    # -- what each viewer sees, and the score --------------------------------------------

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        board = self.layout
        seen: dict[str, Any] = {
            "board": board.name,
            "turn": None if state.over else state.turn,
            "phase": None if state.over else state.phase,
            "due_at": state.due_at,
            **state.piles.public(),
            "blocked_piles": [
                n for n, f in zip(state.piles.names, state.piles.fresh, strict=True) if f
            ],
            "tiles": [
                {"cell": t.cell, "tile": t.tile, "taken_by": t.taken_by} for t in state.tiles
            ],
            "stacks": {
                c: {"cell": cell, "left": left}
                for (c, cell), left in zip(board.stacks, state.stacks, strict=True)
            },
            "goal_pawns": _goal_pawns(board, state),
            "players": [
                {
                    "seat": seat,
                    "hand_size": len(p.hand),
                    "rows": {c: list(r) for c, r in zip(COLOURS, p.rows, strict=True)},
                    "pawns": {pawn.name: pawn.cell for pawn in p.pawns},
                    "wish_stones": [s.colour for s in p.stones],
                    "tile_points": sum(a.points for a in p.awards),
                }
                for seat, p in enumerate(state.players)
            ],
            "over": state.over,
            "ended_by": state.ended_by,
        }
        if state.ledger is not None:
            opened = is_open(state.ledger)
            seen.update(recorded=True, setup_needed=not opened,
                        deck_size=seen["deck_size"] if opened else None,
                        unaccounted=state.ledger.possible() if opened else None)
        private = [{"hand": list(p.hand)} for p in state.players]
        undealt = {"deck": list(state.piles.deck), "set_aside": list(state.set_aside)}
        return compose_view(seen, private, undealt, viewer)

    def recorded_setup(self, state: State) -> dict[str, Any] | None:
        return {"type": SETUP, "tiles": [t.tile for t in state.tiles]}

    def recorded_moves(self, seat: int | str, move: Mapping[str, Any],
                       effects: list[dict[str, Any]]) -> tuple[tuple[int | str, Any], ...]:
        """A discard for a discard tile says where its card came from: a hand of unknown cards
        may hold a copy of the card on top of a display row."""
        if move.get("type") != "discard-tile":
            return ((seat, move),)
        source = next(e["source"] for e in effects if e["type"] == "discarded")
        return ((seat, {**move, "from": "hand" if source == "hand" else "display"}),)

    def score(self, state: State) -> Score:
        board = self.layout
        return Score(
            final=state.over,
            rounds=1,
            seats=tuple(
                SeatScore(seat, score_player(board, player))
                for seat, player in enumerate(state.players)
            ),
            lowest_wins=False,
        )


# -- one turn's moves ---------------------------------------------------------------------


class _Turn:
    """The moves of `seat` against `state`, each returning the Outcome it makes."""

    # One is made for every move: slots make it and read it quicker than a __dict__.
    __slots__ = ("board", "state", "seat", "seq", "me")

    def __init__(self, board: Board, state: State, seat: int, seq: int):
        self.board, self.state, self.seat, self.seq = board, state, seat, seq
        self.me = state.players[seat]

    def out_of_phase(self, attempt: str) -> IllegalMove:
        """Why `attempt` is refused now: the phase of the turn asks for another move."""
        state = self.state
        due = {
            PLAY: ("play-first", "play or discard a card first"),
            CLOVER_DUE: (
                "clover-due",
                f"the clover tile on {state.due_at} comes first: move one of your pawns one"
                " cell forward with a clover move",
            ),
            DISCARD_DUE: (
                "discard-tile-due",
                f"the discard tile on {state.due_at} comes first: discard a card from your hand"
                " or the top of a display row",
            ),
            DRAW: ("draw-due", f"you hold {len(self.me.hand)} cards: draw back to {HAND} first"),
        }[state.phase]
        return IllegalMove(due[0], f"you cannot {attempt} now: {due[1]}")

    def move(self, move: Mapping[str, Any]) -> Outcome:
        pawn = self._pawn(move)
        to = self._target(pawn, move)
        card = _card(move)
        hand, changes = self._used(card)
        cell = self.board.cell(to)
        if not cell.accepts(card[0]):
            name = COLOUR_NAMES[cell.colour]
            raise IllegalMove(
                "wrong-colour",
                f"cell {to} is {name}: play a {name} card to enter it ({card} is"
                f" {COLOUR_NAMES[card[0]]})",
            )
        row_index = COLOURS.index(card[0])
        display.check_follow(self.me.rows[row_index], card[0], card)
        me = replace(
            self.me,
            hand=hand,
            rows=with_item(self.me.rows, row_index, (*self.me.rows[row_index], card)),
        )
        facts: list[Fact] = [Moved(self.seat, pawn.name, pawn.cell, to, card)]
        return self._arrive(me, pawn, to, facts, changes)

    def discard(self, move: Mapping[str, Any]) -> Outcome:
        card = _card(move)
        hand, changes = self._used(card)
        me = replace(self.me, hand=hand)
        return self._then_draw(me, [Discarded(self.seat, card, "hand")],
                               piles=self.state.piles.discard(card), **changes)

    def clover(self, move: Mapping[str, Any]) -> Outcome:
        pawn = self._pawn(move)
        to = self._target(pawn, move)
        facts: list[Fact] = [CloverMoved(self.seat, pawn.name, pawn.cell, to)]
        return self._arrive(self.me, pawn, to, facts)

    def discard_tile(self, move: Mapping[str, Any]) -> Outcome:
        card = _card(move)
        source = move.get("from")
        if source not in (None, "hand", "display"):
            raise IllegalMove(
                "malformed-move", f"'from' is 'hand' or 'display', not {source!r}"
            )
        in_hand = card in self.me.hand
        colour = card[:1]
        row = self.me.rows[COLOURS.index(colour)] if colour in COLOURS else ()
        on_top = bool(row) and row[-1] == card
        # A recorded hand's unknown card may be this one; the top of a row is seen to be.
        unknown = not on_top and UNKNOWN in self.me.hand
        changes: dict[str, Any] = {}
        if source == "hand" or (source is None and (in_hand or unknown)):
            hand, changes = self._used(card)
            me = replace(self.me, hand=hand)
            fact = Discarded(self.seat, card, "hand")
        elif on_top:
            i = COLOURS.index(colour)
            me = replace(self.me, rows=with_item(self.me.rows, i, display.without_top(row)))
            fact = Discarded(self.seat, card, colour)
        elif source == "display":
            raise IllegalMove(
                "not-on-top",
                f"{card} is not the top card of one of your display rows: the discard tile"
                " takes only the last card laid in a row",
            )
        else:
            raise IllegalMove(
                "not-discardable",
                f"{card} is neither in your hand nor the top card of one of your display rows:"
                " the discard tile takes one of those",
            )
        return self._then_draw(me, [fact], piles=self.state.piles.discard(card), **changes)

    def draw(self, move: Mapping[str, Any]) -> Outcome:
        source = move.get("from")
        if not isinstance(source, str):
            raise IllegalMove("malformed-move", "a draw needs 'from': 'deck' or a colour")
        piles, card = self.state.piles.draw(source)
        me = replace(self.me, hand=(*self.me.hand, card))
        fact_type = DrewFromDeck if source == DECK else DrewFromPile
        facts: list[Fact] = [fact_type(self.seat, source, card)]
        changes: dict[str, Any] = {}
        if card == UNKNOWN:  # a recorded game's deck: the card goes into the hand unseen
            assert self.state.ledger is not None
            facts = [DrewUnseen(self.seat)]
            changes["ledger"] = self.state.ledger.unseen(1)
        if piles.deck_empty:
            facts.append(GameEnded("deck"))
            ended = self._with_me(me, piles=piles, over=True, ended_by="deck", phase=PLAY,
                                  **changes)
            return Outcome(ended, tuple(facts))
        return self._then_draw(me, facts, piles=piles, **changes)

    # -- arriving on a cell ------------------------------------------------------------

    def _arrive(self, me: Player, pawn: Pawn, to: str, facts: list[Fact],
                changes: Mapping[str, Any] | None = None) -> Outcome:
        """The pawn arrived on `to`: what its cell does; `changes` to the state made by the
        card that moved it (a recorded game's ledger)."""
        if changes:
            self.state = replace(self.state, **changes)
        board = self.board
        moved = Pawn(pawn.name, to, (*pawn.moves, self.seq))
        me = replace(me, pawns=with_item(me.pawns, PAWNS.index(pawn.name), moved))
        if board.in_goal(to) and not board.in_goal(pawn.cell):
            ended = self._with_me(me, due_at=None, over=True, ended_by="goal-zone")
            if _goal_pawns(board, ended) >= _GOAL_PAWNS_TO_END:
                # The fifth pawn in the goal zone ends the game before its cell's tile acts.
                facts.append(GameEnded("goal-zone"))
                return Outcome(ended, tuple(facts))
        stack = board.stack_colour(to)
        if stack is not None:
            return self._from_stack(me, stack, to, facts)
        tile_index = _tile_on(self.state.tiles, to)
        if tile_index is None:
            return self._then_draw(me, facts)
        return self._tile(me, tile_index, facts)

    def _tile(self, me: Player, index: int, facts: list[Fact]) -> Outcome:
        """What the path tile `state.tiles[index]` does for the pawn that just arrived."""
        seat, tile = self.seat, self.state.tiles[index]
        if tile.tile in POINTS:
            award = Award(POINTS[tile.tile], tile.cell, self.seq)
            facts.append(TilePoints(seat, tile.cell, award.points))
            return self._then_draw(replace(me, awards=(*me.awards, award)), facts)
        if tile.tile in WISH:
            if tile.taken_by is not None:
                return self._then_draw(me, facts)
            colour = tile.tile[-1]
            facts.append(StoneTaken(seat, tile.cell, colour, "tile"))
            me = replace(me, stones=(*me.stones, Stone(colour, tile.cell, self.seq)))
            tiles = with_item(self.state.tiles, index, replace(tile, taken_by=seat))
            return self._then_draw(me, facts, tiles=tiles)
        # Clover and discard tiles demand a follow-up move, unless there is nothing to act on.
        if tile.tile == CLOVER:
            idle = not any(self.board.ahead(p.cell) for p in me.pawns)
            phase = CLOVER_DUE
        else:
            idle = not me.hand and not any(me.rows)
            phase = DISCARD_DUE
        facts.append(FollowUpDue(seat, tile.cell, tile.tile, idle))
        if idle:
            return self._then_draw(me, facts)
        return Outcome(self._with_me(me, phase=phase, due_at=tile.cell), tuple(facts))

    def _from_stack(self, me: Player, colour: str, cell: str, facts: list[Fact]) -> Outcome:
        stacks = self.state.stacks
        i = COLOURS.index(colour)
        if not stacks[i]:
            return self._then_draw(me, facts)
        facts.append(StoneTaken(self.seat, cell, colour, "stack"))
        me = replace(me, stones=(*me.stones, Stone(colour, cell, self.seq)))
        return self._then_draw(me, facts, stacks=with_item(stacks, i, stacks[i] - 1))

    # -- checks ------------------------------------------------------------------------

    def _pawn(self, move: Mapping[str, Any]) -> Pawn:
        name = move.get("pawn")
        if name not in PAWNS:
            raise IllegalMove(
                "no-such-pawn", f"your pawns are {', '.join(PAWNS)}; {name!r} is not one"
            )
        return self.me.pawns[PAWNS.index(name)]

    def _target(self, pawn: Pawn, move: Mapping[str, Any]) -> str:
        to = move.get("to")
        if not self.board.has(to):
            raise IllegalMove("no-such-cell", f"{to!r} is not a cell of the board")
        ahead = self.board.ahead(pawn.cell)
        if not ahead:
            raise IllegalMove(
                "not-ahead",
                f"{pawn.name} stands on the final cell {pawn.cell}: a pawn there moves no more",
            )
        if to not in ahead:
            raise IllegalMove(
                "not-ahead",
                f"{to} is not one cell ahead of {pawn.name} on {pawn.cell}: a pawn moves one"
                f" cell forward along a path ({', '.join(ahead)})",
            )
        return to

    def _used(self, card: str) -> tuple[tuple[str, ...], dict[str, Any]]:
        """This seat's hand without `card`, refused unless it holds it, and the changes to the
        state: in a recorded game a card the hand is not known to hold is one of its unknown
        cards, named now in the ledger."""
        hand, ledger = self.me.hand, self.state.ledger
        if ledger is not None:
            hand, ledger = from_hand(hand, (card,), ledger, self.seq)
            return hand, {"ledger": ledger}
        if card not in hand:
            raise IllegalMove(
                "not-in-hand", f"{card} is not in your hand: you use only cards you hold"
            )
        return _without(hand, card), {}

    def _with_me(self, me: Player, **changes: Any) -> State:
        """The state with this seat's player `me`, and any other `changes` in the same step."""
        return replace(self.state, players=with_item(self.state.players, self.seat, me),
                       **changes)

    def _then_draw(self, me: Player, facts: list[Fact], piles: Piles | None = None,
                   **changes: Any) -> Outcome:
        """Draw back to 8 next, or pass the turn when the hand is full; made in one step with
        this seat's player `me` and the turn's other `changes` (a state has a dozen fields to
        copy)."""
        state = self.state
        if piles is None:
            piles = state.piles
        if len(me.hand) < HAND and piles.can_draw:
            changes["phase"] = DRAW
        else:
            piles = piles.end_turn()
            changes["phase"] = PLAY
            changes["turn"] = (self.seat + 1) % state.table.seats
        return Outcome(self._with_me(me, piles=piles, due_at=None, **changes), tuple(facts))


# Each kind of move: the phase it belongs to, what the player attempts by it, and the turn's
# method making it.
_MOVES = {
    "move": (PLAY, "play a card to move a pawn", _Turn.move),
    "discard": (PLAY, "discard a card", _Turn.discard),
    "clover": (CLOVER_DUE, "make a clover move", _Turn.clover),
    "discard-tile": (DISCARD_DUE, "discard for a discard tile", _Turn.discard_tile),
    "draw": (DRAW, "draw", _Turn.draw),
}

GAME = KeltisNwnz()


# -- small helpers ----------------------------------------------------------------------------


def _card(move: Mapping[str, Any]) -> str:
    card = move.get("card")
    if not isinstance(card, str):
        raise IllegalMove("malformed-move", "the move needs a 'card' such as \"G4\"")
    return card


def _fits(me: Player, card: str) -> bool:
    return display.may_follow(me.rows[COLOURS.index(card[0])], card[0], card)


def _discard_tile_moves(me: Player, held: list[str], recorded: bool
                        ) -> tuple[dict[str, Any], ...]:
    """Each card the hand may hold, and each top of a display row; a recorded game's say where
    from (a hand of unknown cards may hold a copy of a top), a seeded one's only when both."""
    hand = {"from": "hand"} if recorded else {}
    moves = [{"type": "discard-tile", "card": c, **hand} for c in held]
    for row in me.rows:
        if row:
            top = row[-1]
            extra = {"from": "display"} if recorded or top in me.hand else {}
            moves.append({"type": "discard-tile", "card": top, **extra})
    return tuple(moves)


def _may_hold(state: State, me: Player) -> list[str]:
    """Each card `me` may use now, in canonical order: its hand, or in a recorded game any
    card still unaccounted for while it holds an unknown card."""
    if state.ledger is None:
        return sorted(set(me.hand), key=_CANONICAL.index)
    return list(may_hold(me.hand, state.ledger))


def _laid(board: Board, tiles: tuple[str, ...]) -> tuple[PathTile, ...]:
    """`tiles` on the board's tile spots, the i-th on the i-th."""
    return tuple(PathTile(cell, tile, None)
                 for cell, tile in zip(board.tile_spots, tiles, strict=True))


# -- a game recorded at a real table -----------------------------------------------------------


def _before_setup(state: State) -> bool:
    return state.ledger is not None and not is_open(state.ledger)


def _setup(board: Board, state: State, seat: int | str, move: Mapping[str, Any],
           seq: int) -> Outcome:
    """The table's setup entry: the path tiles it names laid on the board's tile spots, in
    their order; the cards dealt face down, 8 a seat, the rest the draw pile (30 of it set
    aside unseen with two players). Play begins with seat 0."""
    ledger = state.ledger
    check_setup(ledger is not None, seat, ledger, "a game of Keltis, which has one deal,")
    assert ledger is not None
    tiles = _tiles_named(move.get("tiles"))
    seats = state.table.seats
    aside = _SET_ASIDE_TWO_PLAYERS if seats == 2 else 0
    # The deck's cards stay unaccounted for; the hands and the set-aside go face down.
    ledger = replace(ledger, opened=seq).unseen(seats * HAND + aside)
    pile = ledger.unaccounted
    players = tuple(replace(p, hand=face_down(HAND)) for p in state.players)
    state = replace(state, ledger=ledger, players=players, piles=Piles.start(face_down(pile)),
                    set_aside=face_down(aside), tiles=_laid(board, tiles))
    return Outcome(state, (TilesLaid(len(tiles), HAND, pile, aside),))


def _tiles_named(tiles: Any) -> tuple[str, ...]:
    """The setup's tiles, refused unless they are the game's set: 22 tiles, each as many times
    as the box holds it."""
    want = Counter(TILES)
    if not isinstance(tiles, list | tuple) or not all(isinstance(t, str) for t in tiles):
        raise IllegalMove("malformed-move", 'the setup names the path tiles laid, in the order'
                          ' of the board\'s tile spots: "tiles": ["clover", "wish-R", ...]')
    got = Counter(tiles)
    if got != want:
        box = ", ".join(f"{n} {t}" for t, n in want.items())
        off = ", ".join(f"{got[t]} {t}" for t in dict.fromkeys((*want, *got)) if got[t] != want[t])
        raise IllegalMove("tile-set", f"the board takes the {len(TILES)} path tiles of the box,"
                          f" one on each tile spot: {box}; the setup names {off}")
    return tuple(tiles)


def _tile_on(tiles: tuple[PathTile, ...], cell: str) -> int | None:
    """The index of the tile lying on `cell`, if any: a loop, at half a generator's cost."""
    for i, tile in enumerate(tiles):
        if tile.cell == cell:
            return i
    return None


def _goal_pawns(board: Board, state: State) -> int:
    return sum(board.in_goal(p.cell) for player in state.players for p in player.pawns)



def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    i = cards.index(card)
    return (*cards[:i], *cards[i + 1 :])
