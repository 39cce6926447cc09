"""`tablelog replay` downloads a game's replay document; `tablelog verify` checks one with no
server at all, re-judging it with the engine installed here, as `POST /v1/replays/verify` does
on a server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from cli.client import FAILED, Failure
from cli.scoring import failures, print_report
from cli.session import Session, emit, json_option, with_session
from engine.audit import MalformedReplay, verify_replay
from engine.log import UnknownRules


@click.command()
@click.argument("game")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True, path_type=Path),
              help="Where to save it (default: tablelog-GAME.json here).")
@with_session
def replay(session: Session, game: str, output: Path | None) -> None:
    """Download the replay document of GAME (redacted for you while it runs)."""
    answer = session.client(game).send("GET", f"/v1/games/{game}/replay")
    target = output or Path(f"tablelog-{game}.json")
    target.write_bytes(answer.content)
    document = answer.json()
    session.emit({"file": str(target), "entries": len(document["entries"])},
                 lambda console: console.print(
                     f"Saved the replay of {game} ({len(document['entries'])} entries, "
                     f"{document['status']}) to {target}."))


def _document(path: Path) -> dict[str, Any]:
    try:
        document = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise Failure(f"{path} cannot be read as JSON: {error}.") from None
    if not isinstance(document, dict):
        raise Failure(f"{path} is not a replay document.")
    return document


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@json_option
def verify(file: Path, as_json: bool) -> None:
    """Verify a replay document offline, with no server: the hash chain, the seed against its
    commitment, every verdict and the score re-judged by the engine installed here. Exit code
    1 when it does not verify, naming the first entry that breaks."""
    try:
        report = verify_replay(_document(file))
    except MalformedReplay as malformed:
        raise Failure(f"{file} does not verify: {malformed}.", FAILED) from None
    except UnknownRules as unknown:
        raise Failure(f"{unknown.detail}: a newer tablelog may know them.") from None
    emit(as_json, report, lambda console: print_report(console, report))
    if failures(report):
        raise click.exceptions.Exit(FAILED)
