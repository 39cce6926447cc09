"""`tablelog show`, `watch` and `log`: the table and the log of a game, as the caller may see
them."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import click
from rich.console import Console
from rich.live import Live

from cli.client import Client, Refused
from cli.sentences import Narrator, folded, taken_back
from cli.session import Session, plain_console, with_session
from cli.tables import Setting, drawing
from cli.titles import specs

_PAGE = 500
# A followed stream that ends at once (a server restarting) is not asked again before this.
_SHORTEST_FOLLOW_S = 1.0

seat_option = click.option("--seat", type=click.IntRange(min=0),
                           help="As this seat sees it (its token from `new`).")
at_option = click.option("--at", "version", type=click.IntRange(min=1),
                         help="Right after this log entry.")


def _heading(summary: dict[str, Any], state: dict[str, Any]) -> str:
    return (f"{summary['game']} {summary['id']} · after entry {state['version']} · "
            f"{state['status']} · round {state['round']}")


def board(client: Client, title: str) -> dict[str, Any] | None:
    """The board of a title played on one; None for the others."""
    try:
        return client.get(f"/v1/boards/{title}")
    except Refused as refused:
        if refused.status == 404:
            return None
        raise


def table(client: Client, summary: dict[str, Any], drawn_on: dict[str, Any] | None,
          version: int | None = None) -> tuple[Any, Any]:
    """The API's state answer right after entry `version` (now when None) and its drawing."""
    state = client.get(f"/v1/games/{summary['id']}/state", **({"at": version} if version else {}))
    # A turn clock's waits are counted up to now only in the present's view.
    now_ms = None if version else round(time.time() * 1000)
    setting = Setting(summary["players"], state.get("to_act") or [], drawn_on, now_ms)
    return state, drawing(summary["game"], state, setting, _heading(summary, state))


@click.command()
@click.argument("game")
@at_option
@seat_option
@with_session
def show(session: Session, game: str, version: int | None, seat: int | None) -> None:
    """Draw the table of GAME, now or right after entry --at."""
    client = session.client(game, seat)
    summary = client.get(f"/v1/games/{game}")
    state, drawn = table(client, summary, board(client, summary["game"]), version)
    session.emit(state, lambda console: console.print(drawn))


def entries(client: Client, game: str, after: int) -> Iterator[dict[str, Any]]:
    """The log after entry `after`, a page at a time."""
    while True:
        page = client.get(f"/v1/games/{game}/events", after=after, limit=_PAGE)
        yield from page["events"]
        if not page["events"]:
            return
        after = page["next"]


@click.command()
@click.argument("game")
@click.option("--after", type=click.IntRange(min=0), default=0, help="Only entries after N.")
@seat_option
@with_session
def log(session: Session, game: str, after: int, seat: int | None) -> None:
    """The log of GAME as readable sentences, a move and its verdict on one line; the moves a
    takeback undid marked "taken back"."""
    client = session.client(game, seat)
    found = list(entries(client, game, after))
    session.emit(found, lambda console: _narrate(console, client, game, found))


def _narrate(console: Console, client: Client, game: str, found: list[dict[str, Any]]) -> None:
    summary = client.get(f"/v1/games/{game}")
    say = Narrator(summary["players"], specs(client).get(summary["game"]))
    # A game record: a judged submission is said on its verdict's line (`--json` keeps both).
    judged, undone = folded(found), taken_back(found)
    for entry in found:
        said = say(entry)
        if entry["seq"] not in judged:
            console.print(f"{entry['seq']:>5}  {entry['at']}  {said}{_marks(entry, undone)}",
                          soft_wrap=True)


def _marks(entry: dict[str, Any], undone: set[int]) -> str:
    """What a sentence does not say of an entry: that it no longer counts, or that the
    service played it for a seat that conceded."""
    marks = ["taken back"] if entry["seq"] in undone else []
    if entry.get("conceded"):
        marks.append("played for a conceded seat")
    return f"  ({'; '.join(marks)})" if marks else ""


def following(client: Client, game: str, after: int) -> Iterator[dict[str, Any]]:
    """Each entry after `after` as it lands, through the API's follow stream (a blocking
    read on the server, reconnected where it left off), until the game is finished."""
    while True:
        started, before = time.monotonic(), after
        for line in client.lines(f"/v1/games/{game}/events", follow=1, after=after):
            entry = json.loads(line)
            after = entry["seq"]
            yield entry
            if entry["type"] == "game-finished":
                return
        # A stream of a finished (or abandoned) game ends at once: nothing more will land.
        if after == before and client.get(f"/v1/games/{game}")["status"] != "in-progress":
            return
        if time.monotonic() - started < _SHORTEST_FOLLOW_S:
            time.sleep(_SHORTEST_FOLLOW_S)


@click.command()
@click.argument("game")
@click.option("--after", type=click.IntRange(min=0), help="Start after entry N (default: now).")
@seat_option
@with_session
def watch(session: Session, game: str, after: int | None, seat: int | None) -> None:
    """Follow GAME live: each entry as a sentence as it lands (a move on its verdict's line),
    the table redrawn after every accepted move, until the game is finished (or Ctrl-C)."""
    client = session.client(game, seat)
    summary = client.get(f"/v1/games/{game}")
    start = summary["version"] if after is None else after
    if session.as_json:
        for entry in following(client, game, start):
            click.echo(json.dumps(entry, ensure_ascii=False))
        return
    say = Narrator(summary["players"], specs(client).get(summary["game"]))
    drawn_on = board(client, summary["game"])
    # In a terminal the table stays below the entries and is redrawn in place.
    with Live(table(client, summary, drawn_on)[1], console=plain_console(),
              auto_refresh=False) as live:
        # As `log` says them: a submission is said on its verdict's line, once it lands.
        held: dict[int, str] = {}
        for entry in following(client, game, start):
            said = say(entry)
            if entry["type"] == "move-submitted":
                held[entry["seq"]] = f"{entry['seq']:>5}  {said}"
                continue
            held.pop(entry.get("of"), None)
            live.console.print(f"{entry['seq']:>5}  {said}", soft_wrap=True)
            if entry["type"] == "move-accepted":
                live.update(table(client, summary, drawn_on)[1], refresh=True)
        for line in held.values():  # never judged while watched
            live.console.print(line, soft_wrap=True)
