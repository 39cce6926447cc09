"""The benchmark's smoke: `bench.run` for a second a side with a few clients, so that it never
rots. It checks that every figure is printed, never what it says: timings are not tested."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from tests.conftest import ROOT

_NUMBER = r"[\d.]+"
_FIGURES = {
    "ceiling": rf"ceiling\s+{_NUMBER}/s\s+p50\s+{_NUMBER} ms\s+p99\s+{_NUMBER} ms",
    "service": rf"service\s+{_NUMBER}/s\s+p50\s+{_NUMBER} ms\s+p99\s+{_NUMBER} ms",
    "ratios": rf"service/ceiling:\s+{_NUMBER} x the answers a second,\s+{_NUMBER} x the p50",
    "memory": rf"used_memory growth\s+{_NUMBER} bytes an entry\s+{_NUMBER} x its JSON",
    "moves": rf"while moves played\s+{_NUMBER} bytes an entry\s+{_NUMBER} x its JSON",
    "logs": rf"the log streams\s+{_NUMBER} bytes an entry\s+{_NUMBER} x its JSON",
    "freed": rf"deleting the games frees\s+{_NUMBER} bytes an entry\s+{_NUMBER} x its JSON",
    "CPU a verdict": rf"service CPU a verdict: web\s+{_NUMBER} ms\s+workers\s+{_NUMBER} ms"
                     rf"\s+Redis\s+{_NUMBER} ms",
    "ceiling CPU": rf"ceiling CPU a request: web\s+{_NUMBER} ms",
    "late verdict": rf"p50 at move ~30\s+{_NUMBER} ms\s+at move ~5\s+{_NUMBER} ms\s+ratio",
    "paced": rf"a person's pace .*\n\s+p50\s+{_NUMBER} ms\s+p90\s+{_NUMBER} ms",
    "wake-ups": rf"{_NUMBER} us after 0 s\s+{_NUMBER} us after 0.01 s\s+"
                rf"{_NUMBER} us after 0.1 s",
    "audit": rf"min\s+{_NUMBER} ms\s+median\s+{_NUMBER} ms\s+max\s+{_NUMBER} ms",
    "audit flood": rf"flood\s+p50\s+{_NUMBER} ms\s+p99\s+{_NUMBER} ms\s+p99 ratio\s+{_NUMBER}",
    "engine": rf"coloretto\s+4 players\s+{_NUMBER} moves/s\s+rebuild of a finished game",
    "compacted": rf"coloretto\s+5\s+\d+\s+[\d,]+\s+[\d,]+\s+{_NUMBER}x",
    "compacted games": r"5 short games stored and compacted: used_memory grew [\d,]+ B a game",
}


def test_the_benchmark_prints_every_figure():
    run = subprocess.run(
        [sys.executable, "-m", "bench.run", "--seconds", "1", "--rounds", "1", "--clients", "3",
         "--games-per-client", "1", "--client-processes", "1", "--workers", "1",
         "--options", '{"deals": 1}', "--long-at", "30", "--long-window", "10",
         "--paced-moves", "3", "--pace", "0.1", "--wake-pings", "2", "--audits", "1",
         "--flooders", "2", "--flood-moves", "10", "--playouts", "1", "--titles", "coloretto",
         "--compaction-reads", "2", "--compaction-games", "5"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    missing = [name for name, figure in _FIGURES.items() if not re.search(figure, run.stdout)]
    assert not missing, run.stdout
    assert len(re.findall(_FIGURES["service"], run.stdout)) == 2  # one client, then three


def test_the_instruction_count_of_a_move_is_printed():
    run = subprocess.run([sys.executable, "-m", "bench.instructions", "--moves", "2",
                          "--games", "1"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    # Two moves add less than two counts of the same run differ by (0.5% of the process's
    # whole count): the figure may come out below zero here, and is only checked for.
    assert re.search(rf"the web's instructions a move .*: -?{_NUMBER} M", run.stdout), run.stdout


def test_a_moves_path_is_followed_module_by_module_on_both_sides():
    run = subprocess.run([sys.executable, "-m", "bench.path", "--show"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    for side in ("the web side", "the worker's side"):
        found = re.search(rf"{side} .*: (\d+) modules, (\d+) hops, (\d+) of them back", run.stdout)
        assert found, run.stdout
        modules, hops, back = map(int, found.groups())
        assert 0 < modules <= hops and back < hops
    steps = json.loads(run.stdout[run.stdout.index("{"):])
    # The move is answered by its route's handler and judged by the drain.
    assert "service.moves" in steps["web"] and "workers.drain" in steps["worker"]


def test_the_throughput_alone_is_the_many_clients_comparison():
    run = subprocess.run(
        [sys.executable, "-m", "bench.run", "--seconds", "1", "--rounds", "1", "--clients", "3",
         "--games-per-client", "1", "--client-processes", "1", "--workers", "1",
         "--options", '{"deals": 1}', "--throughput-only"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert re.search(_FIGURES["ratios"], run.stdout), run.stdout
    assert run.stdout.startswith("3 clients,") and "engine replay" not in run.stdout


def test_a_season_of_compacted_games_prints_its_memory():
    run = subprocess.run([sys.executable, "-m", "bench.season", "--games", "12", "--seeds", "2",
                          "--processes", "2", "--whole"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert re.search(r"12 games stored, 12 records, in \d+ s: used_memory [\d.]+ GB \([\d,]+ B"
                     r" a game\), used_memory_rss [\d.]+ GB \([\d,]+ B a game\); [\d,]+ games fit"
                     r" in 2 GB", run.stdout), run.stdout


def test_every_read_of_an_ended_game_is_timed_live_cold_and_cached():
    run = subprocess.run([sys.executable, "-m", "bench.compacted_reads", "--times", "1"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    timed = rf"{_NUMBER} /\s+{_NUMBER} \(\s*{_NUMBER}x\) /\s+{_NUMBER} \(\s*{_NUMBER}x\)"
    for read in ("/state", "/legal-moves", "/moves/6", "(summary)"):
        assert re.search(rf"keltis-nwnz\s+3 {re.escape(read)}\s+{timed}", run.stdout), run.stdout


def test_the_followers_benchmark_prints_its_figures():
    """`bench.followers` with a small crowd, so that it never rots: every figure the issue asks
    for is printed (connected and refused, entries' delivery, verdicts with and without
    followers, /healthz), never checked. Its web keeps 10 places for followers a process, so
    that some of the 30 are refused."""
    run = subprocess.run(
        [sys.executable, "-m", "bench.followers", "--big", "20", "--games", "2", "--each", "5",
         "--moves", "3", "--pace", "0.05", "--addresses", "10", "--connections", "50"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "TABLELOG_FOLLOWERS_SHARE": "0.2"},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    spread = rf"p50\s+{_NUMBER} ms\s+p99\s+{_NUMBER} ms\s+max\s+{_NUMBER} ms"
    crowd = re.search(r"followers: (\d+) of 30 connected, (\d+) refused 503 followers-full,"
                      r" 0 failed", run.stdout)
    assert crowd and int(crowd[1]) + int(crowd[2]) == 30 and int(crowd[2]) >= 10, run.stdout
    for figure in (
        r"the Procfile's web: WEB_CONCURRENCY=\d+, WEB_CONNECTIONS=50,"
        r" TABLELOG_FOLLOWERS_SHARE=0.2",
        rf"each answered after its connect began: {spread}",
        rf"/healthz without followers: {spread}",
        rf"/healthz with followers .*: {spread}",
        rf"a player's verdicts without followers:\s+{spread}",
        rf"a player's verdicts with followers:\s+{spread}",
        rf"read by it:\s+{spread}",
        rf"a player's verdict p99 with followers / without: {_NUMBER}x",
    ):
        assert re.search(figure, run.stdout), (figure, run.stdout)
