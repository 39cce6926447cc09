"""The web's work on a move, counted in CPU instructions: a figure the machine's load cannot move.

    .venv/bin/python -m bench.instructions [--moves 100] [--games 3]

On a loaded or noisy machine the clock moves by more than a change to the web's code does (the
same run of `bench.run` gave 2,310 and 1,290 answers a second within the hour). Instructions do
not: this starts the benchmark's stack (its own redis-server, the Procfile's workers), then
runs the web in process under valgrind's callgrind, Flask's test client posting Coloretto moves
with `wait=5`, twice: `--games` games of a few moves, then as many games of `--moves` more. The
difference between the two counts, divided by the moves it adds, is one move's instructions in
the web: everything its request runs, the test client's side included, but not the workers' or
Redis's. Two counts of the same code differ by about 0.5%.

Needs valgrind (Debian's package `valgrind`).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench import plays, stack
from service.limits import out_of_reach

_FIRST_MOVES = 5  # posted by both runs: what the longer run adds is what is counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=100, help="moves the longer run adds a game")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--harness", nargs=2, metavar=("TRACKS", "MOVES"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.harness:
        _post(Path(args.harness[0]), int(args.harness[1]))
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    counts = []
    with stack.running(2, None, None) as s, tempfile.TemporaryDirectory() as scratch:
        for run, moves in enumerate((_FIRST_MOVES, _FIRST_MOVES + args.moves)):
            tracks = plays.prepare(s.service, "coloretto", 4, args.games, f"counted-{run}")
            written = Path(scratch, f"tracks-{run}.json")
            written.write_text(json.dumps({"redis": s.redis_url, "tracks": [
                {"path": t.path(5), "token": t.token, "bodies": [b.decode() for b in t.bodies]}
                for t in tracks]}))
            counts.append(_instructions(written, moves, Path(scratch, f"callgrind-{run}")))
    added = args.games * args.moves
    print(f"the web's instructions a move (Flask's test client posting {added} Coloretto moves "
          f"with wait=5, under callgrind): {(counts[1] - counts[0]) / added / 1e6:.3f} M")


def _instructions(tracks: Path, moves: int, out: Path) -> int:
    subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-m",
         "bench.instructions", "--harness", str(tracks), str(moves)],
        cwd=stack.ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return int(re.search(r"^totals: (\d+)", out.read_text(), re.MULTILINE)[1])


def _post(tracks: Path, moves: int) -> None:
    """Post each game's first `moves` moves, in process: what callgrind counts. The web logs
    and counts as the Procfile's does (gunicorn.conf.py): a JSON line a request, its metrics
    in a multiprocess folder of its own."""
    setup = json.loads(tracks.read_text())
    os.environ.update(REDIS_URL=setup["redis"], **out_of_reach(),
                      PROMETHEUS_MULTIPROC_DIR=str(tracks.parent))
    from service import create_app  # after the environment names the stack's Redis
    from telemetry import logs

    logs.setup("web")

    client = create_app().test_client()
    for track in setup["tracks"]:
        headers = {"Authorization": f"Bearer {track['token']}"}
        for body in track["bodies"][:moves]:
            answer = client.post(track["path"], data=body, headers=headers,
                                 content_type="application/json")
            if answer.status_code != 201:
                raise SystemExit(f"a move answered {answer.status_code}: {answer.data[:300]!r}")


if __name__ == "__main__":
    main()
