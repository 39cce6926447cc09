"""The line of play: the accepted submissions a game's present is made of, and what a takeback
restores.

A fold keeps one (`engine.log`). Each accepted submission joins the line when it is judged, and
the state right after its verdict entry is kept under that entry's seq, beside the deal's under
entry 1. A takeback to entry N takes every submission after N's off the line (those judged but
whose verdicts are not written yet too) and answers the state right after N; a submission taken
off never comes back, and a takeback can only go to an entry still on the line.
"""

from __future__ import annotations

from typing import Any

from engine.game import IllegalMove

DEALT = 1  # the `game-created` entry: the state right after it is the deal


class NeedsPast(Exception):
    """A table action that must know the line (a takeback) was judged without it: judge the
    whole log again, by a fold."""


class Line:
    def __init__(self, dealt: Any):
        self._after: dict[int, Any] = {DEALT: dealt}  # verdict seq -> the state after it
        self._moves: list[int] = []  # accepted submissions on the line, in order
        self._verdicts: dict[int, int] = {}  # submission seq -> its verdict's seq
        self._off: set[int] = set()  # submissions taken back

    def accepted(self, submission: int) -> None:
        self._moves.append(submission)

    def verdict(self, submission: int, seq: int, state: Any) -> None:
        """The verdict entry `seq` accepting `submission` is in the log; `state` follows it."""
        if submission not in self._off:
            self._after[seq] = state
            self._verdicts[submission] = seq

    def check(self, to: int, before: int) -> None:
        """IllegalMove unless entry `to` may be taken back to by a takeback posted as `before`."""
        if to >= before or to not in self._after:
            raise IllegalMove(
                "takeback-bad-entry",
                f"a takeback goes to entry 1 or to the verdict of a move still in play, before"
                f" entry {before}: entry {to} is not one",
            )

    def restore(self, to: int) -> tuple[Any, tuple[int, ...]]:
        """The state right after entry `to`, and the submissions that takes off the line."""
        kept = 0 if to == DEALT else self._moves.index(self._submission_of(to)) + 1
        undone = tuple(self._moves[kept:])
        del self._moves[kept:]
        self._off.update(undone)
        for seq in [s for s in self._after if s > to]:
            del self._after[seq]
        return self._after[to], undone

    def _submission_of(self, seq: int) -> int:
        return next(s for s, v in self._verdicts.items() if v == seq)
