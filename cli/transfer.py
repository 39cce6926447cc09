"""`tablelog export` and `tablelog import`: finished games copied whole between servers, one
replay document a line (NDJSON), for a club moving its history or a backup and its restore.

A finished game is public, so exporting needs no token and every replay it downloads is whole
and unredacted. Importing needs the receiving server's operator token (its
TABLELOG_IMPORT_TOKEN), and the server re-judges every game before storing it as it was played.
Both resume after an interruption when run again: an export keeps the games its file already
holds whole and downloads the others; an import sends every line again, and the server answers
the games it holds already with a no-op, checking only their hash chain.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
import orjson
from rich.console import Console
from rich.progress import Progress

from cli.client import FAILED, Client, Failure, Refused
from cli.session import Session, with_session
from cli.titles import known

# Refusals of the token itself, or of importing at all: running again cannot get further.
_NOT_FOR_AGAIN = (401, 403)

LISTED_PAGE = 200  # the API's largest page of games


@click.command()
@click.option("--game", "titles", multiple=True,
              help="Only this title (repeatable); every title when not given.")
@click.option("-o", "--output", required=True,
              type=click.Path(dir_okay=False, writable=True, path_type=Path),
              help="The dump: one replay a line. An export cut short resumes into it.")
@with_session
def export(session: Session, titles: tuple[str, ...], output: Path) -> None:
    """Write every finished game's replay to a file, one a line, oldest first (no token:
    finished games are public)."""
    # A token sent would be refused by every game it is not for.
    client = _client(session.url, None)
    for title in titles:
        known(client, title)
    kept = _kept(output)
    wanted = [game_id for game_id in _finished(client, titles) if game_id not in kept]
    tally: dict[str, Any] = {"file": str(output), "exported": 0, "kept": len(kept), "refused": []}
    with (output.open("ab") as dump, _progress(f"exporting to {output}", len(wanted)) as advance,
          _resumable(lambda: f"{tally['exported']} games were exported")):
        for game_id in wanted:
            try:
                replay = client.send("GET", f"/v1/games/{game_id}/replay").content
            except Refused as refusal:  # a game this server cannot replay: the others can go
                tally["refused"].append(_refusal(game_id, refusal))
            else:
                # One line whatever the server's spacing: JSON strings escape their newlines.
                dump.write(orjson.dumps(orjson.loads(replay)) + b"\n")
                dump.flush()
                tally["exported"] += 1
            advance(1)
    _told(session, tally, f"Exported {tally['exported']} finished games to {output}"
          + (f" ({len(kept)} were in it already)." if kept else "."))


def _client(url: str, token: str | None) -> Client:
    client = Client(url, token)
    click.get_current_context().call_on_close(client.close)
    return client


def _kept(output: Path) -> set[str]:
    """The ids of the games a dump already holds whole. A line an interruption cut short is
    cut off, so that the games still to come follow whole lines."""
    if not output.exists():
        return set()
    ids, whole = set(), 0
    with output.open("rb") as dump:
        for line in dump:
            if not line.endswith(b"\n"):
                break
            try:
                ids.add(orjson.loads(line)["id"])
            except (orjson.JSONDecodeError, KeyError, TypeError):
                break
            whole += len(line)
    with output.open("r+b") as dump:
        dump.truncate(whole)
    return ids


def _finished(client: Client, titles: tuple[str, ...]) -> Iterator[str]:
    """The ids of the finished games of `titles` (or every title), oldest first."""
    for title in titles or (None,):
        cursor = None
        while True:
            query = {"status": "finished", "limit": LISTED_PAGE, "game": title, "cursor": cursor}
            page = client.get("/v1/games", **{k: v for k, v in query.items() if v})
            yield from (game["id"] for game in page["games"])
            cursor = page.get("next")
            if not cursor:
                break


@click.command("import")
@click.argument("dump", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--import-token", envvar="TABLELOG_IMPORT_TOKEN",
              help="The receiving server's operator token (or TABLELOG_IMPORT_TOKEN); else"
                   " --token.")
@with_session
def import_(session: Session, dump: Path, import_token: str | None) -> None:
    """Import every game of a dump that `tablelog export` wrote. Run it again to resume: the
    games already imported are skipped by the server."""
    client = _client(session.url, import_token or session.token)
    tally: dict[str, Any] = {"imported": 0, "already": 0, "refused": []}
    with (dump.open("rb") as lines, _progress(f"importing {dump}", dump.stat().st_size) as advance,
          _resumable(lambda: f"{tally['imported']} games were imported")):
        for number, line in enumerate(lines, start=1):
            if line.strip():
                _send(client, number, line, tally)
            advance(len(line))
    _told(session, tally, f"Imported {tally['imported']} games from {dump}"
          + (f" ({tally['already']} were there already)." if tally["already"] else "."))


def _send(client: Client, number: int, line: bytes, tally: dict[str, Any]) -> None:
    """Import the game on line `number` of the dump, and count what came of it."""
    try:
        game_id = orjson.loads(line)["id"]
    except (orjson.JSONDecodeError, KeyError, TypeError):
        tally["refused"].append({"line": number, "id": None, "code": "malformed-replay",
                                 "detail": "this line is not a replay document"})
        return
    try:
        answer = client.send("PUT", f"/v1/games/{game_id}/replay", data=line,
                             headers={"Content-Type": "application/json"})
    except Refused as refusal:
        tally["refused"].append({"line": number, **_refusal(game_id, refusal)})
        return
    tally["imported" if answer.status_code == 201 else "already"] += 1


def _refusal(game_id: str, refusal: Refused) -> dict[str, Any]:
    """A game the server refused, for the tally; unless the refusal stops the whole run: a
    token refused, or a server still too busy after the client waited as it asked."""
    if refusal.status in (401, 403, 429, 503):
        raise refusal
    return {"id": game_id, "code": refusal.code, "detail": refusal.message,
            "seq": refusal.problem.get("seq")}


def _told(session: Session, tally: dict[str, Any], sentence: str) -> None:
    """What a command did, each game it could not move, and exit code 1 if there was one."""

    def draw(console: Console) -> None:
        # The server's sentences are printed as they are: brackets in them are no markup.
        console.print(sentence, markup=False)
        for refused in tally["refused"]:
            line = f"line {refused['line']}, " if "line" in refused else ""
            console.print(f"Refused {line}game {refused['id']}: {refused['detail']}", markup=False)

    session.emit(tally, draw)
    if tally["refused"]:
        click.get_current_context().exit(FAILED)


@contextmanager
def _resumable(done: Callable[[], str]) -> Iterator[None]:
    """Say how far a command got when the server went away or the user stopped it, and how to
    go on."""
    try:
        yield
    except Refused as refusal:
        if refusal.status in _NOT_FOR_AGAIN:
            # The same command would be refused the same way: only another token helps.
            raise Failure(f"{refusal.message} {done()}: the server refuses this token (or takes"
                          " no imports), so the same command would be refused again.",
                          refusal.exit_code) from None
        raise Failure(f"{refusal.message} {done()} before it stopped: run the same command"
                      " again to go on.", refusal.exit_code) from None
    except Failure as failure:
        raise Failure(f"{failure.message} {done()} before it stopped: run the same command"
                      " again to go on.", failure.exit_code) from None
    except KeyboardInterrupt:
        raise Failure(f"Interrupted: {done()}. Run the same command again to go on.",
                      FAILED) from None


@contextmanager
def _progress(label: str, total: int) -> Iterator[Callable[[int], None]]:
    """A progress bar on stderr, when it is a terminal (stdout stays the command's answer,
    for --json; a script reading stderr gets the sentences alone)."""
    console = Console(stderr=True)
    with Progress(console=console, disable=not console.is_terminal) as progress:
        task = progress.add_task(label, total=total)
        yield lambda done: progress.advance(task, done)
