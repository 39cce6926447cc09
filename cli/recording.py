"""`tablelog setup`: what a recorded game's deal lays face up at a real table, named by the
table (its `setup` entry), posted and judged as `tablelog play` posts a move.

A game created with `tablelog new ... --recorded` is dealt by nobody here: its table names the
setup of every deal with this command, then each card as it comes into view (`tablelog play
GAME '{"type": "draw"}' --card pink`, or a numbered draw from `tablelog moves`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from cli.playing import json_object, still_running, submit
from cli.session import Session, with_session
from engine.recorded import SETUP


@click.command()
@click.argument("game")
@click.argument("given", metavar="FILE|JSON")
@with_session
def setup(session: Session, game: str, given: str) -> None:
    """Name what the setup of GAME's deal lays face up, with the table's token: a JSON object
    (or a file holding one) of the title's setup fields, as `GET /v1/titles` lists them under
    the move "setup"."""
    move = {**_setup_fields(given), "type": SETUP}
    client = session.client(game)
    still_running(client, game)
    submit(session, client, game, {"move": move})


def _setup_fields(given: str) -> dict[str, Any]:
    path = Path(given)
    text = path.read_text() if not given.lstrip().startswith("{") and path.is_file() else given
    return json_object(text, "A setup is a JSON object, or a file holding one",
                       "A setup is a JSON object of the title's setup fields.")
