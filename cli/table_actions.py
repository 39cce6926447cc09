"""`tablelog takeback`, `accept`, `decline`, `concede`, `abandon` and `claim-timeout`: the
actions every title takes at a table, posted, judged and said as `tablelog play` says a move.

Without --seat the kept table token acts for the whole table: its takeback is applied at once,
its abandon ends the game, its claim concedes whoever let the turn clock run out. With --seat a
seat acts (its kept token, or the table's given with --token naming it): its takeback is a
proposal the other seats accept or decline, its abandon a vote. Conceding, accepting and
declining are always a seat's.
"""

from __future__ import annotations

from typing import Any

import click

from cli.playing import still_running, submit
from cli.session import Session, plain_console, with_session

acting_seat_option = click.option(
    "--seat", type=click.IntRange(min=0),
    help="Act as this seat (its kept token), or, with the table's --token, for it.")
entry_argument = click.argument("entry", metavar="S", type=click.IntRange(min=1))


def _act(session: Session, game: str, seat: int | None, move: dict[str, Any]) -> dict[str, Any]:
    client = session.client(game, seat)
    still_running(client, game)
    return submit(session, client, game, {"move": move, "seat": seat})


@click.command()
@click.argument("game")
@click.argument("to", metavar="N", type=click.IntRange(min=1))
@acting_seat_option
@with_session
def takeback(session: Session, game: str, to: int, seat: int | None) -> None:
    """Take GAME back to right after entry N (1, the deal, or the verdict of a move still in
    play): at once for the table; for a --seat, once every other seat accepts."""
    answer = _act(session, game, seat, {"type": "takeback", "to": to})
    proposed = any(e["type"] == "takeback-proposed" for e in answer.get("effects") or [])
    if proposed and not session.as_json:
        which = f"{game} {answer['seq']} --seat S"
        plain_console().print(f"The other seats accept it with `tablelog accept {which}`, or"
                              f" decline it with `tablelog decline {which}`.", soft_wrap=True)


@click.command()
@click.argument("game")
@entry_argument
@acting_seat_option
@with_session
def accept(session: Session, game: str, entry: int, seat: int | None) -> None:
    """Accept the takeback proposed as entry S of GAME; the last seat to accept applies it."""
    _act(session, game, seat, {"type": "takeback-accept", "of": entry})


@click.command()
@click.argument("game")
@entry_argument
@acting_seat_option
@with_session
def decline(session: Session, game: str, entry: int, seat: int | None) -> None:
    """Decline the takeback proposed as entry S of GAME (its proposer's own withdraws it)."""
    _act(session, game, seat, {"type": "takeback-decline", "of": entry})


@click.command()
@click.argument("game")
@acting_seat_option
@with_session
def concede(session: Session, game: str, seat: int | None) -> None:
    """Concede GAME for a seat: the service plays its turns from then on, and it ranks last."""
    _act(session, game, seat, {"type": "concede"})


@click.command()
@click.argument("game")
@click.option("--reason", help="Why, on the record (at most 200 characters).")
@acting_seat_option
@with_session
def abandon(session: Session, game: str, reason: str | None, seat: int | None) -> None:
    """Abandon GAME: at once for the table; for a --seat, a vote, and the game ends once every
    seat still playing has voted. An abandoned game's score is not final."""
    _act(session, game, seat, {"type": "abandon", **({"reason": reason} if reason else {})})


@click.command("claim-timeout")
@click.argument("game")
@acting_seat_option
@with_session
def claim_timeout(session: Session, game: str, seat: int | None) -> None:
    """Claim a timeout in GAME (created with --option turn_limit_s=N): every seat that has
    been waited for that long concedes. Exit code 1 while nobody is late."""
    _act(session, game, seat, {"type": "claim-timeout"})
