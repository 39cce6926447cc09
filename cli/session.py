"""What every command shares: where the server is, whose token to use, and the `--json`
convention (the API's own JSON on stdout for scripts, otherwise something drawn for people).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click
from rich.console import Console

from cli import tokens
from cli.client import DEFAULT_URL, Client, Failure


def plain_console() -> Console:
    # What is printed comes from the server and the players (names, rules' sentences): a
    # "[red]" in it is text, never Rich's markup.
    return Console(highlight=False, markup=False)


def emit(as_json: bool, data: Any, draw: Callable[[Console], None]) -> None:
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        draw(plain_console())


@dataclass(frozen=True)
class Session:
    url: str
    token: str | None
    as_json: bool

    def client(self, game: str | None = None, seat: int | None = None) -> Client:
        """A client holding the token given, else the one `new` saved for `game` (`seat`'s,
        or the table's when no seat is named); a spectator without any."""
        token = self.token or (tokens.token(game, seat) if game else None)
        if seat is not None and token is None:
            # Without a seat's token the server would answer as to a spectator: not what
            # --seat asked for.
            raise Failure(tokens.no_seat(game, seat))
        client = Client(self.url, token)
        click.get_current_context().call_on_close(client.close)
        if seat is not None and self.token and game:
            # A token given names no seat: --seat must be one of the game's all the same,
            # or the table's token would answer for a seat that does not exist.
            seats = len(client.get(f"/v1/games/{game}")["players"])
            if seat >= seats:
                raise Failure(tokens.not_a_seat(game, seat, seats))
        return client

    def emit(self, data: Any, draw: Callable[[Console], None]) -> None:
        emit(self.as_json, data, draw)


def json_option(command: Callable) -> Callable:
    return click.option(
        "--json", "as_json", is_flag=True, help="Print the API's JSON instead, for scripts."
    )(command)


def with_session(command: Callable) -> Callable:
    """Give a command `--url`, `--token` and `--json`, and pass it a `Session` first."""

    @json_option
    @click.option("--url", envvar="TABLELOG_URL", default=DEFAULT_URL, show_default=True,
                  help="The tablelog server (or TABLELOG_URL).")
    @click.option("--token", envvar="TABLELOG_TOKEN",
                  help="A seat or table token (or TABLELOG_TOKEN); else the one `new` saved.")
    @functools.wraps(command)
    def run(*args: Any, url: str, token: str | None, as_json: bool, **kwargs: Any) -> Any:
        return command(Session(url, token, as_json), *args, **kwargs)

    return run
