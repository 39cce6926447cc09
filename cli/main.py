"""The `tablelog` command: a click group, its commands grouped by what they are about."""

from __future__ import annotations

import click

from cli import (
    backups,
    events,
    games,
    migrate,
    playing,
    recording,
    replays,
    scoring,
    table_actions,
    transfer,
    viewing,
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tablelog")
def main() -> None:
    """Play, watch, score, audit and verify tablelog games from the terminal.

    Every command takes --json for scripts. Exit codes: 0 done, 1 a move or table action
    rejected or a check that fails, 2 bad usage or no server.
    """


for command in (games.games, games.new, viewing.show, playing.moves, playing.play, playing.key,
                recording.setup, viewing.watch, viewing.log, scoring.score, replays.replay,
                replays.verify,
                table_actions.takeback, table_actions.accept, table_actions.decline,
                table_actions.concede, table_actions.abandon, table_actions.claim_timeout,
                scoring.audit, transfer.export, transfer.import_, backups.backup,
                backups.restore, migrate.migrate, events.event, events.verify):
    main.add_command(command)
