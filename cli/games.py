"""`tablelog games` and `tablelog new`: the games a server holds, and a new one with its tokens
kept for the commands that follow."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table as Grid

from cli import tokens
from cli.client import Failure
from cli.session import Session, with_session
from cli.titles import known


@click.command()
@click.option("--game", "title", help="Only this title (one the server plays).")
@click.option("--status", type=click.Choice(["in-progress", "finished", "abandoned"]),
              help="Only these.")
@click.option("--player", help="Only games with this player.")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 10_000),
              help="At most this many, newest first.")
@with_session
def games(session: Session, title: str | None, status: str | None, player: str | None,
          limit: int) -> None:
    """List the games, newest first."""
    if title is not None:
        known(session.client(), title)
    query = {"game": title, "status": status, "player": player, "order": "newest"}
    found = _newest(session, {k: v for k, v in query.items() if v}, limit)
    session.emit({"games": found}, lambda console: console.print(_listing(found)))


def _newest(session: Session, query: dict[str, str], limit: int) -> list[dict[str, Any]]:
    client, found, cursor = session.client(), [], None
    while len(found) < limit:
        page = client.get("/v1/games", **query, limit=min(limit - len(found), 100),
                          **({"cursor": cursor} if cursor else {}))
        found += page["games"]
        cursor = page.get("next")
        if not cursor or not page["games"]:
            break
    return found


def _listing(found: list[dict[str, Any]]) -> Grid | str:
    if not found:
        return "No games."
    grid = Grid("id", "game", "players", "status", "entries", "created")
    for game in found:
        grid.add_row(game["id"], game["game"], ", ".join(game["players"]), game["status"],
                     str(game["version"]), game["created_at"])
    return grid


@click.command()
@click.argument("title", metavar="GAME")
@click.argument("players", nargs=-1, required=True)
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="A game option, e.g. deals=1 or removed_color=pink (repeatable).")
@click.option("--seed", help="The seed of the shuffles (random when not given).")
@click.option("--deck", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="The deck as dealt at a real table: a JSON list of cards (top first), a "
                   "list of such lists for several deals, or card codes separated by spaces.")
@click.option("--recorded", is_flag=True,
              help="Cards dealt at a real table: nothing is dealt here; the table names the "
                   "setup (`tablelog setup`) and each card as it comes into view.")
@click.option("--sign", "signing", multiple=True, type=click.IntRange(min=0), metavar="SEAT",
              help="A seat that signs its moves (repeatable): its key pair is made here, its "
                   "private key kept beside its token.")
@with_session
def new(session: Session, title: str, players: tuple[str, ...], options: tuple[str, ...],
        seed: str | None, deck: Path | None, recorded: bool, signing: tuple[int, ...]) -> None:
    """Create a game of a title the server plays (`GET /v1/titles`); print each seat's link and
    token once and keep the tokens (and the private keys of the seats that sign)."""
    known(session.client(), title)
    body: dict[str, Any] = {"game": title, "players": list(players),
                            "options": dict(map(_option, options))}
    pairs = {seat: tokens.new_key() for seat in signing}
    if pairs:
        body["public_keys"] = {str(seat): public for seat, (_, public) in pairs.items()}
    if seed is not None:
        body["seed"] = seed
    if recorded:
        body["deal"] = "recorded"
    if deck is not None:
        body.update(_deck(deck))
    created = session.client().post("/v1/games", body)
    kept = tokens.save(created, {seat: private for seat, (private, _) in pairs.items()})
    session.emit(created, lambda console: _welcome(console, session.url, created, kept))


def _option(given: str) -> tuple[str, Any]:
    name, equals, value = given.partition("=")
    if not equals or not name:
        raise Failure(f"An option is NAME=VALUE, not {given!r}.")
    try:
        return name, json.loads(value)
    except ValueError:
        return name, value


def _deck(path: Path) -> dict[str, Any]:
    text = path.read_text()
    try:
        cards = json.loads(text)
    except ValueError:
        return {"deck": text.split()}
    if isinstance(cards, list) and cards and all(isinstance(c, list) for c in cards):
        return {"decks": cards}
    if isinstance(cards, list):
        return {"deck": cards}
    raise Failure(f"{path} is neither a list of cards nor a list of decks.")


def _welcome(console: Console, url: str, created: dict[str, Any], kept: Path) -> None:
    # Plain lines, never wrapped or cut: a link or token must survive copying whole.
    say = functools.partial(console.print, soft_wrap=True)
    if created.get("deal") == "recorded":
        say(f"{created['game']} game {created['id']} created, recorded at the table: name its"
            f" setup with `tablelog setup {created['id']} JSON`, then each card as it is seen.")
    else:
        say(f"{created['game']} game {created['id']} created; "
            f"seed commitment {created['seed_commitment']}.")
    say("Each seat's link and token, shown only once:")
    link = f"{url}/games/{created['id']}#seat="
    for seat in created["seats"]:
        say(f"  seat {seat['seat']} {seat['name']}: {link}{seat['token']}  token {seat['token']}")
    table = created["table_token"]
    say(f"  the table (scorekeeper): {link}{table}  token {table}")
    say(f"Tokens kept in {kept} (readable by you only).")
