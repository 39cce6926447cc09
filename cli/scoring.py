"""`tablelog score` and `tablelog audit`, and how a score breakdown and an audit report read in
the terminal (`tablelog verify` prints the same report)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import click
from rich.console import Console
from rich.table import Table as Grid

from cli.client import FAILED, Client, Failure
from cli.sentences import cited
from cli.session import Session, with_session
from cli.table_side import duration
from cli.titles import specs
from cli.viewing import at_option, entries, seat_option

# How long `audit` waits for a worker's report before saying it is still running.
_AUDIT_PATIENCE_S = 120
_WAIT_S = 10


def _events(seqs: Sequence[int]) -> str:
    return ", ".join(map(str, seqs)) or "-"


class Lines:
    """The log as `tablelog log` shows it, to cite a component's entries by: a submission by
    its verdict's line, each line with what it brought (`engine.sentences.cited`)."""

    def __init__(self, found: Sequence[Mapping[str, Any]], players: Sequence[str],
                 spec: Mapping[str, Any] | None):
        self.by_seq = {e["seq"]: e for e in found}
        self.players, self.spec = list(players), spec

    def __call__(self, component: Mapping[str, Any], seat: int) -> list[tuple[int, str]]:
        return cited(component, seat, self.by_seq, self.players, self.spec)


def components(found: Sequence[Mapping[str, Any]], title: str | None = None,
               lines: Lines | None = None, seat: int = 0) -> Grid:
    """Each component: its round, what it is, its points and what earned it: the lines of the
    log (given the log), else the entries."""
    grid = Grid("round", "component", "points", "log lines" if lines else "entries",
                title=title, title_justify="left")
    for c in found:
        earned = [line for line, _ in lines(c, seat)] if lines else c.get("events") or []
        grid.add_row(str(c.get("round", "")), f"{c['label']}: {c['detail']}",
                     str(c["points"]), _events(earned))
    return grid


def brought(console: Console, found: Sequence[Mapping[str, Any]], lines: Lines,
            seat: int) -> None:
    """What each line a component cites brought it, a component a line (not wrapped, so that
    each reads as the log says it)."""
    for c in found:
        said = " · ".join(f"{line} {what}" for line, what in lines(c, seat))
        console.print(f"  {c['label']}: {said or '-'}", soft_wrap=True)


def rules(console: Console, players: Sequence[Mapping[str, Any]]) -> None:
    """The rule of each kind of component, once: the labels it scores, and its sentence."""
    labels: dict[str, list[str]] = {}
    for player in players:
        for c in player["components"]:
            if c.get("rule") and c["label"] not in labels.setdefault(c["rule"], []):
                labels[c["rule"]].append(c["label"])
    if labels:
        console.print("How each component scores:")
    for rule, named in labels.items():
        console.print(f"  {', '.join(named)}: {rule}", soft_wrap=True)


def breakdown(console: Console, score: Mapping[str, Any], lowest_wins: bool,
              lines: Lines | None = None) -> None:
    kind = "final" if score["final"] else "provisional"
    # An abandoned game's score is provisional for good: never final.
    heading = "Score of an abandoned game, not final," if score.get("abandoned") else (
        f"{kind.capitalize()} score")
    wins = "lowest" if lowest_wins else "highest"
    console.print(f"{heading} over {score['rounds']} round(s); the {wins} total wins:")
    for player in score["players"]:
        console.print(components(player["components"], _standing(player), lines,
                                 player["seat"]))
        if lines:
            console.print("what each line brought:")
            brought(console, player["components"], lines, player["seat"])
    rules(console, score["players"])


def _standing(player: Mapping[str, Any]) -> str:
    """A seat's total and rank, whether it conceded, and its thinking time on a clock."""
    said = [f"{player['seat']} {player['name']}: {player['total']} points",
            f"rank {player['rank']}"]
    if player.get("conceded"):
        said.append("conceded")
    thinking = (player.get("extras") or {}).get("thinking_ms")
    if thinking is not None:
        said.append(f"thinking time {duration(thinking)}")
    return ", ".join(said)


@click.command()
@click.argument("game")
@at_option
@seat_option
@with_session
def score(session: Session, game: str, version: int | None, seat: int | None) -> None:
    """The score breakdown of GAME per seat: each component with the lines of the log behind
    it (numbered as `tablelog log` numbers them) and what each brought, and the rules."""
    client = session.client(game, seat)
    found = client.get(f"/v1/games/{game}/score", **({"at": version} if version else {}))

    def draw(console: Console) -> None:
        lines, spec = _log_lines(client, game)
        breakdown(console, found, spec["lowest_wins"], lines)

    session.emit(found, draw)


def _log_lines(client: Client, game: str) -> tuple[Lines, dict[str, Any]]:
    """The game's log as `tablelog log` numbers it, to cite components by, and its title's
    spec."""
    summary = client.get(f"/v1/games/{game}")
    spec = specs(client)[summary["game"]]
    return Lines(list(entries(client, game, 0)), summary["players"], spec), spec


def _verdict(value: bool | None) -> str:
    return {True: "holds", False: "FAILS", None: "cannot be told"}[value]


def failures(report: Mapping[str, Any]) -> str | None:
    """Why a report does not verify, naming the first entry that breaks, or why a claim in it
    is not the recomputed total; None when the log verifies and every claim is its total."""
    if report["ok"]:
        wrong = [c for c in report.get("claims") or [] if c["claimed"] != c["recomputed"]]
        if not wrong:
            return None
        said = "; ".join(f"seat {c['seat']} claims {c['claimed']}, not {c['recomputed']}"
                         for c in wrong)
        return f"The log verifies, but a claim is not the recomputed total: {said}."
    mismatches = report.get("mismatches") or []
    if not mismatches:
        return "It does not verify."
    first = min(mismatches, key=lambda m: m["seq"])
    # A stored score says whose total and both values, as the report's line for it does.
    why = f"{first['what']}: {first['detail']}" if first["what"] == "stored score" and first.get(
        "detail") else first["what"]
    return f"It does not verify: entry {first['seq']} breaks ({why})."


def print_report(console: Console, report: Mapping[str, Any], lines: Lines | None = None
                 ) -> None:
    """The audit report of docs/api.md, Audits, read aloud; a claim's components cite the
    `lines` of the log when given (as `score` does), else their entries."""
    console.print(f"hash chain: {_verdict(report['hash_chain_ok'])}; "
                  f"seed against its commitment: {_verdict(report['seed_ok'])}; "
                  f"verdicts and score re-judged: {_verdict(report['replay_ok'])}")
    signed = [f"{what}: {_verdict(report[key])}" for key, what in (
        ("signatures_ok", "seats' signatures"), ("head_ok", "head signed by the server"),
        ("receipts_ok", "receipts kept")) if report.get(key) is not None]
    if signed:
        console.print("; ".join(signed))
    if report.get("redacted"):
        console.print(f"entries withheld from you (checkable once the game is finished): "
                      f"{_events(report['redacted'])}")
    for m in report.get("mismatches") or []:
        console.print(f"  entry {m['seq']}: {m['what']}"
                      + (f" (the verdict on entry {m['of']})" if "of" in m else "")
                      + (f": {m['detail']}" if m.get("detail") else ""))
    for claim in report.get("claims") or []:
        _claim(console, claim, lines)
    console.print(failures(report) or "It verifies.")


def _claim(console: Console, claim: Mapping[str, Any], lines: Lines | None) -> None:
    difference = claim["claimed"] - claim["recomputed"]
    said = ("as recomputed" if difference == 0
            else f"{abs(difference)} {'more' if difference > 0 else 'fewer'} than recomputed")
    title = (f"seat {claim['seat']} claims {claim['claimed']}, recomputed "
             f"{claim['recomputed']}: {said}")
    console.print(components(claim["components"], title, lines, claim["seat"]))


def _claims(given: Sequence[str]) -> dict[str, int]:
    claimed = {}
    for claim in given:
        seat, equals, total = claim.partition("=")
        if not (equals and seat.isdigit() and total.lstrip("-").isdigit()):
            raise Failure(f"A claim is SEAT=TOTAL, such as 0=41, not {claim!r}.")
        claimed[seat] = int(total)
    return claimed


def _audited(client: Client, game: str, claimed: dict[str, int]) -> dict[str, Any]:
    """The report, once a worker has rebuilt the game (each wait blocks on the server)."""
    answer = client.send("POST", f"/v1/games/{game}/audit", json={"claimed": claimed},
                         params={"wait": _WAIT_S})
    report, deadline = answer.json(), time.monotonic() + _AUDIT_PATIENCE_S
    while answer.status_code == 202 and time.monotonic() < deadline:
        answer = client.send("GET", report["links"]["self"], params={"wait": _WAIT_S})
        report = answer.json()
    if answer.status_code == 202:
        raise Failure(f"The audit is still running; its report will be at "
                      f"{client.url}{report['links']['self']}.")
    return report


@click.command()
@click.argument("game")
@click.option("--claim", "claims", multiple=True, metavar="SEAT=TOTAL",
              help="A total a seat claims, e.g. 0=41 (repeatable).")
@with_session
def audit(session: Session, game: str, claims: tuple[str, ...]) -> None:
    """Rebuild GAME from its log in a worker and explain each claimed total by its
    components, citing the lines of the log as `score` does. Exit code 1 when the game does
    not verify or a claim is not the total."""
    client = session.client(game)
    report = _audited(client, game, _claims(claims))

    def draw(console: Console) -> None:
        # A claim's components cite the log's lines, as `score` does: one numbering to argue in.
        lines = _log_lines(client, game)[0] if report.get("claims") else None
        print_report(console, report, lines)

    session.emit(report, draw)
    if failures(report):
        raise click.exceptions.Exit(FAILED)
