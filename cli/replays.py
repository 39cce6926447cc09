"""`tablelog replay` downloads a game's replay document; `tablelog verify` checks one with no
server at all, re-judging it with the engine installed here, as `POST /v1/replays/verify` does
on a server: the chain, the seats' signatures, and with the server's published keys its signed
head and the receipts a player kept."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from cli import tokens
from cli.client import FAILED, Client, Failure
from cli.scoring import failures, print_report
from cli.session import Session, emit, json_option, with_session
from engine.audit import MalformedReplay, verify_replay
from engine.log import UnknownRules
from engine.signatures import extends


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
    if document.get("head"):
        tokens.keep_receipt(game, document["head"])
    session.emit({"file": str(target), "entries": len(document["entries"])},
                 lambda console: console.print(
                     f"Saved the replay of {game} ({len(document['entries'])} entries, "
                     f"{document['status']}) to {target}."))


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise Failure(f"{path} cannot be read as JSON: {error}.") from None


def _document(path: Path) -> dict[str, Any]:
    document = _json(path)
    if not isinstance(document, dict):
        raise Failure(f"{path} is not a replay document.")
    return document


def _keys(keys: Path | None, url: str | None) -> list[dict[str, Any]] | None:
    """The server's published keys: from a file (`GET /v1/keys` saved), else asked of `url`,
    else none (the head and receipts go unchecked)."""
    if keys is not None:
        found = _json(keys)
    elif url:
        client = Client(url)
        click.get_current_context().call_on_close(client.close)
        found = client.get("/v1/keys")
    else:
        return None
    if not isinstance(found, dict) or not isinstance(found.get("keys"), list):
        raise Failure("A keys document is GET /v1/keys's answer: {\"keys\": [...]}.")
    return found["keys"]


def _receipts(paths: tuple[Path, ...]) -> list[Any]:
    """The receipts in the files given: each a receipt, or a list of them (as kept)."""
    found: list[Any] = []
    for path in paths:
        held = _json(path)
        found += held if isinstance(held, list) else [held]
    return found


_FILE = click.Path(exists=True, dir_okay=False, path_type=Path)


@click.command()
@click.argument("file", type=_FILE)
@click.option("--keys", type=_FILE,
              help="The server's published keys (GET /v1/keys saved): checks the signed head"
                   " and receipts with no server.")
@click.option("--url", help="A server to ask for its published keys, when --keys is not given"
                           " (never TABLELOG_URL: verify asks no server unless told to).")
@click.option("--receipt", "receipts", multiple=True, type=_FILE,
              help="A receipt the server gave (or a file of them, as `tablelog` keeps them):"
                   " the replay must extend it, with the same hash at its entry (repeatable).")
@click.option("--strict", is_flag=True,
              help="Exit code 1 also when the server's signed head could not be checked (no"
                   " keys, or no head in the replay).")
@json_option
def verify(file: Path, keys: Path | None, url: str | None, receipts: tuple[Path, ...],
           strict: bool, as_json: bool) -> None:
    """Verify a replay document offline: the hash chain, the seed against its commitment,
    every verdict and the score re-judged by the engine installed here, every signed move
    against its seat's key; with the server's keys, the head it signed and every receipt
    given. Exit code 1 when it does not verify, naming the first entry that breaks; says so
    when the head went unchecked (a log rewritten and hashed again is found by it alone),
    and with --strict exits 1 then too."""
    document = _document(file)
    published = _keys(keys, url)
    if receipts and published is None:
        raise Failure("Checking a receipt needs the server's keys: give --keys or --url.")
    try:
        report = verify_replay(document, published)
    except MalformedReplay as malformed:
        raise Failure(f"{file} does not verify: {malformed}.", FAILED) from None
    except UnknownRules as unknown:
        raise Failure(f"{unknown.detail}: a newer tablelog may know them.") from None
    if receipts:
        broken = extends(_receipts(receipts), document["entries"], str(document.get("id")),
                         published or [])
        report["mismatches"] += broken
        report["receipts_ok"] = not broken
        report["ok"] = report["ok"] and not broken
    emit(as_json, report, lambda console: print_report(console, report))
    if failures(report):
        raise click.exceptions.Exit(FAILED)
    unchecked = _unchecked_head(document, published)
    if unchecked:
        # Beside the report: on stderr under --json, whose stdout is the report alone.
        click.echo(unchecked, err=as_json)
        if strict:
            raise click.exceptions.Exit(FAILED)


def _unchecked_head(document: dict[str, Any], published: list[dict[str, Any]] | None
                    ) -> str | None:
    """Why the server's signed head was not checked, if it was not: without it a log
    rewritten from any entry and hashed again verifies as well as the one played."""
    if published is None:
        return "head not checked: no keys; give --keys or --url"
    if document.get("head") is None:
        return "head not checked: the replay carries no head signed by the server"
    return None
