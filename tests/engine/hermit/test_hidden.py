"""Hidden information over whole games: pending choices, the Stagecoach and hands stay private.

Every state of seeded random games (2 to 5 players) is checked against every viewer's view and
against the log as redacted for that viewer (`engine.visibility`), from the entry that dealt the
hand on: a card of the running hand is named there only once it is public.
"""

import json
import random

import pytest

from engine import log, visibility
from engine.game import SPECTATOR
from engine.games.hermit import GAME
from engine.playout import play


def as_stored(entry):
    """The entry as the service stores it: a secret move is marked for its seat alone."""
    if entry["type"] == log.SUBMITTED and GAME.is_secret(entry["move"]):
        return {**entry, "hidden": ["move"]}
    return entry


def moments(run):
    """Each state with the log entries written since its hand was dealt (the deal excluded)."""
    stored = [as_stored(e) for e in run.entries]
    dealt_at = 0
    for k, state in enumerate(run.states):
        entries = stored[: 1 + 2 * k]
        last = entries[-1]
        if any(f["type"] == "hand-dealt" for f in last.get("effects", ())):
            dealt_at = len(entries)
        yield state, entries[max(dealt_at, 1):]


def seen_by(state, entries, viewer) -> str:
    return json.dumps(GAME.view(state, viewer)) + json.dumps(
        visibility.redact(entries, viewer, finished=False)
    )


def others(seats: int, owner: int | None) -> list:
    return [SPECTATOR, *(s for s in range(seats) if s != owner)]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_a_pending_choice_reaches_no_other_viewer_in_views_or_the_log(seats):
    run = play(GAME, seats, "hidden", random.Random(seats))
    checked = 0
    for state, entries in moments(run):
        for choice in state.choosing.choices if state.choosing else ():
            for viewer in others(seats, choice.seat):
                assert f'"{choice.card}"' not in seen_by(state, entries, viewer)
            assert f'"{choice.card}"' in seen_by(state, entries, choice.seat)
            checked += 1
    assert checked  # the games did wait on choices


def test_stagecoach_cards_reach_nobody_else_while_the_hand_runs():
    run = play(GAME, 2, "coach", random.Random(5))
    laid = 0
    for state, entries in moments(run):
        if state.over:
            continue
        for card in state.stagecoach:
            # A dealt Stagecoach card (seat None) is hidden from both seats.
            for viewer in others(2, card.seat):
                assert f'"{card.card.name}"' not in seen_by(state, entries, viewer)
            laid += card.seat is not None
    assert laid  # seats did lay Stagecoach cards


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_legal_moves_name_only_the_seats_own_cards(seats):
    run = play(GAME, seats, "legal", random.Random(seats))
    for state in run.states[::5]:
        for seat in range(seats):
            assert {m["card"] for m in GAME.legal_moves(state, seat)} <= set(state.hands[seat])

