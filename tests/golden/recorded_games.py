"""Golden games recorded at a real table (`engine.recorded`): one finished game per title that
takes recorded deals, recorded once and checked forever by `test_golden.py` like every other
golden game.

    .venv/bin/python -m tests.golden.recorded_games

writes `tests/golden/recorded/<title>-<seats>p.json.gz` for each game below that is not there
yet. Each is a seeded playout (`engine.playout.play`, from a fixed seed) entered again as a
scorekeeper would (`engine.playout.transcribe`: the setup of every deal named, each card named
when it comes into view), each submission judged before the next, with a few refusals of the
kinds only a recorded game has.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from engine import log
from engine.game import TABLE, Table
from engine.games import GAMES as TITLES
from engine.playout import play, transcribe
from tests.golden.generate import HERE, dump, observed

FOLDER = HERE / "recorded"
# title, seats, options: every rule of a recorded deal in play (Coloretto: two setups, the
# colour three players leave out, the last-round card met where it lies; Keltis card with two
# players: the 30 cards set aside unseen, a card taken back from a discard pile and played
# again; Die sieben Siegel: two rounds of hands dealt face down, seats that do not follow suit;
# Hermit: a setup per hand, the Stagecoach laid unseen and known at each hand's end with two
# players, the centre card named by each setup with five; Keltis "Neue Wege, neue Ziele" with
# three: the path tiles named by the setup, hands face down, discard tiles met).
GAMES = {"coloretto-3p": ("coloretto", 3, {"deals": 2}),
         "keltis-card-2p": ("keltis-card", 2, {}),
         "sieben-siegel-4p": ("sieben-siegel", 4, {"rounds": 2}),
         "hermit-2p": ("hermit", 2, {}),
         "hermit-5p": ("hermit", 5, {}),
         "keltis-nwnz-3p": ("keltis-nwnz", 3, {})}


def _refusals(title: str, submissions: list[tuple[Any, dict]]) -> dict[int, list[tuple]]:
    """Refused submissions to post before submission i, of the kinds only a recorded game of
    `title` has (`REFUSED`)."""
    return _REFUSALS[title](submissions)


def _coloretto_refusals(submissions: list[tuple[Any, dict]]) -> dict[int, list[tuple]]:
    """Before the first draw: a second setup, a draw naming no card, and a card of the colour
    left out."""
    setup = submissions[0][1]
    first_draw = next(i for i, (_, m) in enumerate(submissions) if m["type"] == "draw")
    seat = submissions[first_draw][0]
    removed = setup.get("removed_color")
    return {first_draw: [(TABLE, setup), (seat, {"type": "draw"}),
                         (seat, {"type": "draw", "card": removed})]}


def _keltis_card_refusals(submissions: list[tuple[Any, dict]]) -> dict[int, list[tuple]]:
    """A move before the setup, a second setup, a wish stone played from a hand, and a card
    of one copy discarded once it lies on a row."""
    setup = submissions[0][1]
    once = next(i for i, (_, m) in enumerate(submissions)
                if m.get("card") in ONE_COPY and m["type"] == "play")
    seat, named = submissions[once][0], submissions[once][1]["card"]
    after = next(i for i, (s, m) in enumerate(submissions) if i > once and s == seat
                 and m["type"] in ("play", "discard"))
    return {0: [(0, {"type": "discard", "card": "G7"})],
            1: [(TABLE, setup), (submissions[1][0], {"type": "play", "card": "W5"})],
            after: [(seat, {"type": "discard", "card": named})]}


ONE_COPY = {f"{c}{v}" for c in "RYGBV" for v in (0, 1, 2, 8, 9, 10)} | {
    f"P{v}" for v in range(11)}


def _sieben_siegel_refusals(submissions: list[tuple[Any, dict]]) -> dict[int, list[tuple]]:
    """A play before the setup; before the second play of the round: a second setup, a card
    four players set aside, and the card played just before, seen again."""
    plays = [i for i, (_, m) in enumerate(submissions) if m["type"] == "play"]
    seat, second = submissions[plays[1]][0], plays[1]
    before = submissions[plays[0]][1]
    return {0: [(0, before)],
            second: [(TABLE, submissions[0][1]), (seat, {"type": "play", "card": "G13"}),
                     (seat, before)]}


def _hermit_refusals(submissions: list[tuple[Any, dict]]) -> dict[int, list[tuple]]:
    """Before the first play: a second setup and a play of a starting card (seen already);
    before the first Stagecoach card, one named (it is laid unseen)."""
    first_play = next(i for i, (_, m) in enumerate(submissions) if m["type"] == "play")
    seat, move = submissions[first_play]
    start = next(m["card"] for _, m in submissions if m["type"] == "start")
    slips = {first_play: [(TABLE, submissions[0][1]), (seat, {**move, "card": start})]}
    coach = next((i for i, (_, m) in enumerate(submissions) if m["type"] == "stagecoach"), None)
    if coach is not None:
        slips[coach] = [(submissions[coach][0], {"type": "stagecoach", "card": "bard"})]
    return slips


def _keltis_nwnz_refusals(submissions: list[tuple[Any, dict]]) -> dict[int, list[tuple]]:
    """A move before the setup and a setup whose tiles are not the box's set; a second setup;
    and a card whose two copies moved pawns, discarded next."""
    setup = submissions[0][1]
    moves = [(i, m["card"]) for i, (_, m) in enumerate(submissions) if m["type"] == "move"]
    twice, card = next((i, c) for n, (i, c) in enumerate(moves)
                       if c in {seen for _, seen in moves[:n]})
    after = next(i for i, (_, m) in enumerate(submissions) if i > twice
                 and m["type"] in ("move", "discard"))
    first = "discard" if setup["tiles"][0] == "clover" else "clover"
    wrong = {**setup, "tiles": [first, *setup["tiles"][1:]]}
    return {0: [(0, {"type": "discard", "card": "G7"}), (TABLE, wrong)],
            1: [(TABLE, setup)],
            after: [(submissions[after][0], {"type": "discard", "card": card})]}


_REFUSALS = {"coloretto": _coloretto_refusals, "keltis-card": _keltis_card_refusals,
             "sieben-siegel": _sieben_siegel_refusals, "hermit": _hermit_refusals,
             "keltis-nwnz": _keltis_nwnz_refusals}
# The codes each title's recorded golden games hold among their refusals.
REFUSED = {"coloretto": {"setup-recorded", "card-required", "card-not-in-game"},
           "keltis-card": {"setup-first", "setup-recorded", "card-not-in-game", "card-seen"},
           "sieben-siegel": {"setup-first", "setup-recorded", "card-not-in-game", "card-seen"},
           "hermit": {"setup-recorded", "card-seen"},
           "keltis-nwnz": {"setup-first", "tile-set", "setup-recorded", "card-seen"}}


def record(name: str) -> dict[str, Any]:
    title, seats, options = GAMES[name]
    game = TITLES[title]
    seeded = play(game, seats, f"golden-{name}", random.Random(name), options)
    submissions = list(transcribe(seeded))
    slips = _refusals(title, submissions)
    table = Table(seats, game.options(seats, options), "", recorded=True)
    players = [f"p{s}" for s in range(seats)]
    bodies = [log.created(game, players, table.options, "", (), recorded=True)]
    state = game.deal(table)
    for i, (seat, move) in enumerate(submissions):
        for slip_seat, slip in slips.get(i, ()):
            bodies += _judged(game, state, slip_seat, slip, len(bodies), refused=True)[1]
        state, judged = _judged(game, state, seat, move, len(bodies), refused=False)
        bodies += judged
    bodies.append(log.finished("", ()))
    bodies = [{**body, "seq": seq} for seq, body in enumerate(bodies, start=1)]
    entries = log.chain(log.GENESIS, bodies)
    return {
        "seed": "",
        "decks": [],
        "head": entries[-1]["hash"],
        "score": game.score(state).to_json(players),
        "entries": bodies,
        "observed": "".join(observed(game, players, list(log.fold(game, table, bodies)))),
    }


def _judged(game: Any, state: Any, seat: Any, move: dict, before: int, refused: bool
            ) -> tuple[Any, list[dict[str, Any]]]:
    submission = {**log.submission(seat, move), "seq": before + 1}
    after, verdict = log.verdict(game, state, submission)
    assert (verdict["type"] == log.REJECTED) == refused, verdict
    return after, [submission, verdict]


def path_of(name: str) -> Path:
    return FOLDER / f"{name}.json.gz"


def main() -> None:
    FOLDER.mkdir(exist_ok=True)
    for name in GAMES:
        if not path_of(name).exists():
            path_of(name).write_bytes(dump(record(name)))
            print(f"wrote {path_of(name).relative_to(HERE.parents[1])}", file=sys.stderr)


if __name__ == "__main__":
    main()
