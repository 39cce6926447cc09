"""Every move a seat could try in a keltis-nwnz state, legal or not, for exhaustive tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.games.keltis_nwnz.board import stand_in
from engine.games.keltis_nwnz.state import PAWNS, State


def candidates(state: State, seat: int) -> Iterator[dict[str, Any]]:
    """Pawn moves to every cell with every card held (and one card not held), clover moves,
    discards and discard-tile choices with every card in sight, and draws from every source."""
    board = stand_in()
    me = state.players[seat]
    in_sight = {*me.hand, *(c for row in me.rows for c in row), "R0", "V10"}
    cells = (board.start, *(c.id for c in board.cells))
    for pawn in PAWNS:
        for to in cells:
            yield {"type": "clover", "pawn": pawn, "to": to}
            for card in sorted({*me.hand, "R0"}):
                yield {"type": "move", "pawn": pawn, "to": to, "card": card}
    for card in sorted(in_sight):
        yield {"type": "discard", "card": card}
        yield {"type": "discard-tile", "card": card}
        yield {"type": "discard-tile", "card": card, "from": "hand"}
        yield {"type": "discard-tile", "card": card, "from": "display"}
    for source in ("deck", "R", "Y", "G", "B", "V"):
        yield {"type": "draw", "from": source}
