"""`tablelog event new|seat|withdraw|standings|export|verify`: an event (a tournament) on a
server, its organiser's token kept here; `tablelog verify-event FILE` checks an event's export
with no server at all, as `POST /v1/events/verify` does on one (docs/events.md)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table as Grid

from cli import tokens
from cli.client import FAILED, Client, Failure
from cli.games import _option
from cli.replays import _FILE, _document, _keys
from cli.session import Session, emit, json_option, with_session
from engine.events.evidence import MalformedExport, verify_event
from engine.log import UnknownRules


@click.group()
def event() -> None:
    """Events (tournaments): create one, seat its rounds, its standings, its evidence."""


def _organiser(session: Session, event_id: str) -> Client:
    token = session.token or tokens.event_token(event_id)
    if token is None:
        raise Failure(f"No organiser token of event {event_id} is kept here (`tablelog event"
                      " new` keeps it): give it with --token or TABLELOG_TOKEN.")
    client = Client(session.url, token)
    click.get_current_context().call_on_close(client.close)
    return client


@event.command()
@click.argument("name")
@click.argument("players", nargs=-1, required=True)
@click.option("--game", "title", required=True, help="The title every table plays.")
@click.option("--rounds", required=True, type=click.IntRange(1), help="How many rounds.")
@click.option("--format", "format_", default="swiss", show_default=True,
              type=click.Choice(["swiss", "round-robin", "open"]), help="How rounds are seated.")
@click.option("--table-size", required=True, type=click.IntRange(1), help="Seats of a table.")
@click.option("--points", required=True, metavar="P1,P2,...",
              help="Points per place of a full table, first place first, e.g. 6,4,2,0.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
              help="A game option every table plays with, e.g. deals=1 (repeatable).")
@click.option("--seed", help="The seed the seating and the deals are drawn from.")
@with_session
def new(session: Session, name: str, players: tuple[str, ...], title: str, rounds: int,
        format_: str, table_size: int, points: str, options: tuple[str, ...],
        seed: str | None) -> None:
    """Create an event; keep its organiser's token."""
    try:
        points_by_place = [int(p) for p in points.split(",")]
    except ValueError:
        raise Failure(f"--points is numbers separated by commas, not {points!r}.") from None
    body: dict[str, Any] = {"name": name, "game": title, "players": list(players),
                            "rounds": rounds, "format": format_, "table_size": table_size,
                            "points": points_by_place, "options": dict(map(_option, options))}
    if seed is not None:
        body["seed"] = seed
    created = session.client().post("/v1/events", body)
    kept = tokens.save_event(created)
    session.emit(created, lambda console: console.print(
        f"Event {created['id']} created ({created['game']}, {len(players)} players,"
        f" {rounds} rounds); seed commitment {created['seed_commitment']}. Organiser token"
        f" {created['organiser_token']}, kept in {kept}.", soft_wrap=True))


@event.command()
@click.argument("event_id", metavar="EVENT")
@with_session
def seat(session: Session, event_id: str) -> None:
    """Seat the next round; print each table's game, seats' links and tokens (kept here
    too, for `tablelog play`)."""
    seated = _organiser(session, event_id).post(f"/v1/events/{event_id}/rounds")
    for table in seated["tables"]:
        tokens.save({"id": table["id"], "game": "", "table_token": table["table_token"],
                     "seats": table["seats"]})
    session.emit(seated, lambda console: _round(console, session.url, seated))


def _round(console: Console, url: str, seated: dict[str, Any]) -> None:
    say = functools.partial(console.print, soft_wrap=True)
    say(f"Round {seated['round']} seated.")
    for table in seated["tables"]:
        say(f"Table {table['table']}: game {table['id']}")
        for seat in table["seats"]:
            say(f"  seat {seat['seat']} {seat['name']}: {url}{seat['link']}")
        say(f"  the table (scorekeeper): {url}{table['links']['table']}")
    if seated["byes"]:
        say(f"Byes: {', '.join(seated['byes'])}")


@event.command()
@click.argument("event_id", metavar="EVENT")
@click.argument("player")
@with_session
def withdraw(session: Session, event_id: str, player: str) -> None:
    """Withdraw PLAYER: not seated from the next round on."""
    done = _organiser(session, event_id).post(f"/v1/events/{event_id}/withdrawals",
                                              {"player": player})
    session.emit(done, lambda console: console.print(
        f"{player} withdrew after round {done['after_round']}."))


@event.command()
@click.argument("event_id", metavar="EVENT")
@click.option("--after-round", type=click.IntRange(0), help="As they stood after this round.")
@with_session
def standings(session: Session, event_id: str, after_round: int | None) -> None:
    """The standings, with their tie-breaks."""
    query = {} if after_round is None else {"after_round": after_round}
    found = session.client().get(f"/v1/events/{event_id}/standings", **query)
    session.emit(found, lambda console: console.print(_standings(found)))


def _standings(found: dict[str, Any]) -> Grid:
    grid = Grid("rank", "player", "points", "opponents' points", "own scores",
                "won against tied", "games", title=f"after round {found['after_round']}")
    for row in found["standings"]:
        grid.add_row(str(row["rank"]), row["player"], str(row["points"]),
                     *(str(t["value"]) for t in row["tie_breaks"]), str(len(row["games"])))
    return grid


@event.command()
@click.argument("event_id", metavar="EVENT")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True, path_type=Path),
              help="Where to save it (default: tablelog-event-EVENT.json here).")
@with_session
def export(session: Session, event_id: str, output: Path | None) -> None:
    """Download the event's export: its log, every game's replay, its standings."""
    answer = session.client().send("GET", f"/v1/events/{event_id}/export")
    target = output or Path(f"tablelog-event-{event_id}.json")
    target.write_bytes(answer.content)
    document = answer.json()
    session.emit({"file": str(target), "games": len(document["games"])},
                 lambda console: console.print(
                     f"Saved event {event_id} ({len(document['entries'])} entries,"
                     f" {len(document['games'])} games) to {target}."))


@click.command("verify-event")
@click.argument("file", type=_FILE)
@click.option("--keys", type=_FILE,
              help="The server's published keys (GET /v1/keys saved): checks the signed heads.")
@click.option("--url", help="A server to ask for its published keys, when --keys is not given.")
@json_option
def verify(file: Path, keys: Path | None, url: str | None, as_json: bool) -> None:
    """Verify an event's export offline: its log's chain, every game re-judged, every round
    seated again from the revealed seed, the standings recomputed. Exit code 1 naming the
    first thing that differs."""
    document = _document(file)
    try:
        report = verify_event(document, _keys(keys, url))
    except MalformedExport as malformed:
        raise Failure(f"{file} does not verify: {malformed}.", FAILED) from None
    except UnknownRules as unknown:
        raise Failure(f"{unknown.detail}: a newer tablelog may know them.") from None
    emit(as_json, report, lambda console: console.print(_verdict(report), soft_wrap=True))
    if not report["ok"]:
        raise click.exceptions.Exit(FAILED)


def _verdict(report: dict[str, Any]) -> str:
    games = f"{len(report['games'])} games re-judged"
    seating = ("the seating drawn again from the seed" if report["seating_checked"]
               else "the seating not checked (the seed is revealed once the event ends)")
    if report["ok"]:
        return f"It verifies: {games}, {seating}, the standings recomputed."
    found = report["difference"]
    where = ", ".join(f"{k} {found[k]}" for k in ("game", "round", "entry", "player")
                      if found.get(k) is not None)
    return f"It does not verify: {found['what']} ({where}): {found['detail']}."


event.add_command(verify, "verify")
