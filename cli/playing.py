"""`tablelog moves` and `tablelog play`: the legal moves, numbered, and one of them (or any move
written as JSON) posted and judged; `tablelog key`: a seat's key pair, made and registered.

A seat whose private key is kept here (cli/tokens.py) signs every move it posts, with its own
token; every receipt an answer carries is kept.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import click
from rich.console import Console

from cli import tokens
from cli.client import FAILED, Client, Failure, Refused
from cli.sentences import fact, label
from cli.session import Session, with_session
from cli.titles import specs
from cli.viewing import seat_option
from engine.recorded import MISNAMED
from engine.signatures import sign_move
from engine.table_actions import FOR_NONE

# The longest the API waits for a verdict.
_WAIT_S = 10


def _legal(client: Client, game: str, seat: int | None) -> dict[str, Any]:
    legal = client.get(f"/v1/games/{game}/legal-moves")
    if seat is not None:
        legal["moves"] = [m for m in legal["moves"] if m["seat"] == seat]
    return legal


@click.command()
@click.argument("game")
@seat_option
@with_session
def moves(session: Session, game: str, seat: int | None) -> None:
    """My legal moves in GAME, numbered for `tablelog play` (every seat's for the table's
    token, unless --seat)."""
    client = session.client(game, seat)
    if client.token is None:
        raise Failure(f"No token of game {game} is kept here or given (--token or"
                      " TABLELOG_TOKEN): a spectator has no moves.")
    legal = _legal(client, game, seat)
    session.emit(legal, lambda console: _listing(console, legal["moves"], *_seated(client, game)))


def _seated(client: Client, game: str) -> tuple[list[str], dict[str, Any] | None]:
    """The game's players, and its title's spec (how its moves and facts read)."""
    summary = client.get(f"/v1/games/{game}")
    return summary["players"], specs(client).get(summary["game"])


def _listing(console: Console, found: list[dict[str, Any]], players: list[str],
             spec: dict[str, Any] | None) -> None:
    if not found:
        console.print("No legal move for you now.")
    for number, choice in enumerate(found, start=1):
        console.print(f"{number:>4}. {players[choice['seat']]} (seat {choice['seat']}): "
                      f"{label(choice['move'], spec, players)}   {json.dumps(choice['move'])}",
                      soft_wrap=True)


@click.command()
@click.argument("game")
@click.argument("move", metavar="NUMBER|JSON")
@seat_option
@click.option("--card", help="The card the move brings into view, as seen at a real table "
                             "(a recorded game's draw): added to the move as its \"card\".")
@with_session
def play(session: Session, game: str, move: str, seat: int | None, card: str | None) -> None:
    """Post a move to GAME and print its verdict: a number from `tablelog moves`, or the move
    as JSON, e.g. '{"type": "take", "row": 1}' (or '{"type": "draw"}' --card pink in a game
    recorded at a real table). Exit code 1 when the move is rejected."""
    client = session.client(game, seat)
    body = _submission(client, game, move, seat)
    if card is not None:
        body = {**body, "move": {**body["move"], "card": card}}
    submit(session, client, game, body)


def submit(session: Session, client: Client, game: str, body: dict[str, Any]) -> dict[str, Any]:
    """Post `body` (a move and the seat it is for) to GAME, signed when its seat's key is kept
    here, and print its verdict, or say the rule it broke and exit 1; the verdict's JSON, for
    a command that says more."""
    client, body = _signed(session, client, game, body)
    try:
        answer = _post(client, game, body)
    except Refused as refused:
        if "receipt" in refused.problem:
            tokens.keep_receipt(game, refused.problem["receipt"])
        # A game that ended since it was looked at refuses the move as its rules would, and a
        # card named that no card at the table can be is refused as a rule broken, unwritten.
        if (refused.problem.get("verdict") != "rejected" and refused.code != "game-finished"
                and refused.code not in MISNAMED):
            raise
        if session.as_json:
            click.echo(json.dumps(refused.problem, indent=2, ensure_ascii=False))
        raise Failure(f"Rejected: {refused.problem['detail']} ({refused.code}).",
                      FAILED) from None
    if "receipt" in answer:
        tokens.keep_receipt(game, answer["receipt"])
    session.emit(answer, lambda console: _verdict(console, answer, *_seated(client, game)))
    return answer


def _signed(session: Session, client: Client, game: str, body: dict[str, Any]
            ) -> tuple[Client, dict[str, Any]]:
    """A move for a seat whose key is kept here: signed, at the version it was chosen at, and
    posted with the seat's own token (the table's may not act for a keyed seat)."""
    seat = body.get("seat")
    if seat is None:
        seat = tokens.seat_of(game, client.token)
    private = None if seat is None else tokens.private_key(game, seat)
    if private is None:
        return client, body
    own = tokens.token(game, seat)
    if own is not None and own != client.token:
        client = Client(session.url, own)
        click.get_current_context().call_on_close(client.close)
    expected = body.get("expected_version") or client.get(f"/v1/games/{game}")["version"]
    signature = sign_move(private, game, seat, expected, body["move"])
    return client, {**body, "seat": seat, "expected_version": expected, "signature": signature}


@click.command()
@click.argument("game")
@click.option("--seat", type=click.IntRange(min=0), required=True,
              help="The seat whose key it is (its token from `new`, or --token).")
@with_session
def key(session: Session, game: str, seat: int) -> None:
    """Make a key pair for a seat of GAME and register its public key (once per seat): from
    then on `tablelog play` signs the seat's moves with the private key, kept beside its
    token, and the server takes no unsigned move for the seat."""
    client = session.client(game, seat)
    private, public = tokens.new_key()
    answer = client.send("PUT", f"/v1/games/{game}/seats/{seat}/key",
                         json={"public_key": public}).json()
    kept = tokens.keep_key(game, seat, private)
    tokens.keep_receipt(game, answer["receipt"])
    session.emit(answer, lambda console: console.print(
        f"Seat {seat} signs its moves from now on; its private key is kept in {kept}."))


def _submission(client: Client, game: str, move: str, seat: int | None) -> dict[str, Any]:
    still_running(client, game)
    if move.isdigit():
        legal = _legal(client, game, seat)
        number = int(move)
        if not legal["moves"]:
            whose = "you" if seat is None else f"seat {seat}"
            raise Failure(f"There is no legal move for {whose} now: `tablelog show {game}`"
                          " says whose turn it is.", FAILED)
        if not 1 <= number <= len(legal["moves"]):
            listing = f"tablelog moves {game}" + ("" if seat is None else f" --seat {seat}")
            raise Failure(f"There is no move {number}: `{listing}` lists "
                          f"{len(legal['moves'])}.")
        chosen = legal["moves"][number - 1]
        # Posted only if the game is still where the list was taken.
        return {**chosen, "expected_version": legal["version"]}
    parsed = json_object(move, "A move is a number from `tablelog moves` or JSON",
                         "A move written as JSON is an object, such as '{\"type\": \"draw\"}'.")
    if seat is None and parsed.get("type") in FOR_NONE:
        return {"move": parsed}  # the table's own action, or the seat's whose token this is
    return {"move": parsed, "seat": _acting(client, game, seat)}


def json_object(text: str, what: str, not_object: str) -> dict[str, Any]:
    """`text` read as a JSON object, else a Failure saying `what` it should be."""
    try:
        parsed = json.loads(text)
    except ValueError:
        raise Failure(f"{what}, not {text!r}.") from None
    if not isinstance(parsed, dict):
        raise Failure(not_object)
    return parsed


def still_running(client: Client, game: str) -> None:
    """A finished or abandoned game takes no move: said as a rejected move is, whoever asks."""
    status = client.get(f"/v1/games/{game}")["status"]
    if status != "in-progress":
        raise Failure(f"Rejected: game {game} is {status}; it takes no more moves.", FAILED)


def _acting(client: Client, game: str, seat: int | None) -> int | None:
    """The seat a JSON move is for: --seat, else the only seat to act (a seat's own token
    needs none, the table's needs one)."""
    if seat is not None:
        return seat
    to_act = client.get(f"/v1/games/{game}")["to_act"]
    return to_act[0] if len(to_act) == 1 else None


def _post(client: Client, game: str, body: dict[str, Any]) -> Any:
    body = {k: v for k, v in body.items() if v is not None}
    # The same key on a retry (a busy server) never posts the move twice.
    headers = {"Idempotency-Key": uuid.uuid4().hex}
    return client.send("POST", f"/v1/games/{game}/moves", json=body, params={"wait": _WAIT_S},
                       headers=headers).json()


def _verdict(console: Console, answer: dict[str, Any], players: list[str],
             spec: dict[str, Any] | None) -> None:
    if answer["status"] == "pending":
        console.print(f"Submitted as entry {answer['seq']}; no verdict yet "
                      f"(`tablelog log` shows it once judged).")
        return
    console.print(f"Accepted (entry {answer['seq']}, judged at {answer['version']}).")
    for effect in answer.get("effects") or []:
        console.print(f"  {fact(effect, players, spec)}", soft_wrap=True)
