"""Benchmark of tablelog: a script that prints figures, never a test that fails on timing.

    .venv/bin/python -m bench.run [--clients 32] [--games-per-client 4] [--seconds 10]
                                  [--rounds 2] [--workers 2] [--game coloretto --players 4]

It starts its own redis-server, the Procfile's web and worker entries, and the ceiling
(`bench/ceiling.py`: one XADD per POST, served by the same gunicorn command), then prints:
- one client, then C clients: the verdicts of `POST /moves?wait=5` per second with their p50
  and p99 latency, beside the ceiling's answers driven by the same client processes with the
  same bodies for the same time, and the ratios; each pair `--rounds` times, in turn; and the
  CPU time the service's web, judging workers and Redis spent a verdict meanwhile, and the
  ceiling's web a request;
- the latency of a verdict at move 500 of a long game beside move 5 of a fresh one;
- one client's verdicts at a person's pace (a move every 0.3 s), and what a Redis round trip
  costs right after another and after a pause (the wake-ups such a verdict pays);
- the audit of a finished game through a worker;
- one client's verdict latency, quiet and under a flood of audits from other clients, in turns;
- Redis memory against the canonical JSON of the stored entries, as used_memory grew and as
  deleting every game gives it back at the end;
- the engine's replay speed per game and the time to rebuild a finished game, in process
  (`bench.engine`, which runs alone in seconds);
- an ended game's Redis memory live and compacted, and its reads' p50 live and compacted, for
  every player count of `--titles`, and the used memory of 1,000 compacted games
  (`bench.compaction`, against a Redis of its own). 100,000 of them really stored take some
  25 minutes, too long for this run: `python -m bench.season` prints that figure alone.
The machine's load moves every absolute figure: compare the two sides of one run.
`--throughput-only` prints the C clients' comparison alone: a quick side-by-side of two trees.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import random
import statistics
import time

import orjson
import redis

from bench import compaction, cpu, engine, footprint, load, plays, stack
from bench.client import Client
from engine.games import GAMES
from workers import queue


def compare(clients: load.Clients, s: stack.Stack, args, count: int, label: str) -> int:
    """The service against the ceiling with `count` clients, each round on fresh games; how
    much Redis's used memory grew while the service's clients played (the games created)."""
    connection = redis.Redis.from_url(s.redis_url)
    grew = 0
    print(f"{count} client{'s' * (count > 1)}, {args.game} of {args.players}, "
          f"{args.seconds:g} s a side, {args.workers} workers")
    for r in range(1, args.rounds + 1):
        per_client = _dealt(s, args, count, f"{label}-{r}")
        sides = [("ceiling", s.ceiling, True), ("service", s.service, False)]
        figures, spent = {}, {}
        roles = {**s.roles, "ceiling": s.ceiling_web}
        for name, base, cycle in sides if r % 2 else sides[::-1]:
            before, at_start = footprint.used_memory(connection), cpu.seconds(roles)
            figures[name] = clients.run(base, per_client, args.seconds, cycle)
            spent[name] = {role: t - at_start[role] for role, t in cpu.seconds(roles).items()}
            if cycle:
                footprint.forget_ceiling(connection)
            else:
                grew += footprint.used_memory(connection) - before
        ceiling, service = figures["ceiling"], figures["service"]
        print(f"  round {r}  ceiling  {ceiling.line()}")
        print(f"           service  {service.line()}")
        print(f"           service/ceiling: {service.per_second / ceiling.per_second:5.2f} x "
              f"the answers a second, {service.p50_ms / ceiling.p50_ms:5.2f} x the p50")
        print("           service CPU a verdict: " + "   ".join(
            f"{role} {spent['service'][role] / service.answers * 1000:5.2f} ms"
            for role in s.roles))
        print(f"           ceiling CPU a request: web "
              f"{spent['ceiling']['ceiling'] / ceiling.answers * 1000:5.2f} ms")
    return grew


# More verdicts a second than one client of the service gets alone, waiting for each (about
# 600 on a quiet 2-core machine): what a client's games must hold, shared among the clients.
_VERDICTS_A_SECOND = 1000


def _dealt(s: stack.Stack, args, count: int, label: str) -> list[list[plays.Track]]:
    """`--games-per-client` games for each of `count` clients, and more while a client could
    post every move it holds before the clock stops (one client alone would)."""
    need = args.seconds * _VERDICTS_A_SECOND / count
    tracks = plays.prepare(s.service, args.game, args.players, count * args.games_per_client,
                           label, args.options)
    dealt = [tracks[c::count] for c in range(count)]
    while min(sum(len(t.bodies) for t in mine) for mine in dealt) < need:
        more = plays.prepare(s.service, args.game, args.players, count,
                             f"{label}-{len(dealt[0])}", args.options)
        dealt = [mine + [game] for mine, game in zip(dealt, more, strict=True)]
    return dealt


def long_game(s: stack.Stack, args) -> None:
    """Verdicts late in a long game beside verdicts early in a fresh one, posted in turn by one
    client, so that both see the same load."""
    depth, window = args.long_at, args.long_window
    late, early = plays.prepare(s.service, args.game, args.players, 2, "long", args.options)
    if len(late.bodies) < depth + window:
        print(f"a verdict late in a game: {args.game} games end before move {depth + window}")
        return
    http = Client(s.service)
    fast_forward(http, late, depth - window // 2)
    timings: dict[str, list[float]] = {"late": [], "early": []}
    for i in range(window):
        for name, track, index in (("late", late, depth - window // 2 + i), ("early", early, i)):
            began = time.perf_counter()
            status, raw = http.post(track.path(load.WAIT_S), track.bodies[index], track.token)
            timings[name].append((time.perf_counter() - began) * 1000)
            if status != 201:
                raise load.Refused(f"move {index} answered {status}: {raw[:300]!r}")
    late_ms, early_ms = (statistics.median(timings[n]) for n in ("late", "early"))
    print(f"a verdict late in a game (one client, moves {depth - window // 2}-"
          f"{depth + window // 2} of one game in turn with moves 1-{window} of a fresh one)")
    print(f"  p50 at move ~{depth} {late_ms:7.1f} ms   at move ~{window // 2} {early_ms:7.1f} ms"
          f"   ratio {late_ms / early_ms:5.2f}")


def paced(s: stack.Stack, args) -> None:
    """One client's verdicts at a person's pace: a move every `--pace` seconds, as players
    take turns, rather than one right after another's verdict."""
    (track,) = plays.prepare(s.service, args.game, args.players, 1, "paced", args.options)
    http, took = Client(s.service), []
    for body in track.bodies[:args.paced_moves]:
        time.sleep(args.pace)
        began = time.perf_counter()
        status, raw = http.post(track.path(load.WAIT_S), body, track.token)
        took.append((time.perf_counter() - began) * 1000)
        if status != 201:
            raise load.Refused(f"a paced move answered {status}: {raw[:300]!r}")
    took.sort()
    print(f"one client at a person's pace (a move every {args.pace:g} s, {len(took)} moves)")
    print(f"  p50 {statistics.median(took):7.1f} ms   p90 {took[int(len(took) * 0.9)]:7.1f} ms")


def wake_ups(s: stack.Stack, args) -> None:
    """A Redis round trip (PING) right after another and after a pause: a process woken from
    a wait pays for its wake-up on these machines, and a verdict at a person's pace wakes one
    process after another (web, Redis, worker) on its way."""
    connection = redis.Redis.from_url(s.redis_url)
    pings = []
    for pause in (0, 0.01, args.pace):
        took = []
        for _ in range(args.wake_pings):
            time.sleep(pause)
            began = time.perf_counter()
            connection.ping()
            took.append((time.perf_counter() - began) * 1e6)
        pings.append(f"{statistics.median(took):5.0f} us after {pause:g} s")
    print("a Redis round trip (PING, p50), right after another and after a pause")
    print("  " + "   ".join(pings))


def fast_forward(http: Client, track: plays.Track, upto: int) -> None:
    """Post the first `upto` moves without waiting, then wait for the last one's verdict."""
    for index in range(upto):
        wait = load.WAIT_S if index == upto - 1 else 0
        status, raw = http.post(track.path(wait), track.bodies[index], track.token)
        if status not in (201, 202):
            raise load.Refused(f"move {index} answered {status}: {raw[:300]!r}")


def audits(s: stack.Stack, args) -> str:
    """A finished game audited through a worker, a few times. Each audit claims another total:
    the same request again would be answered from the first one's record, not rebuilt.
    Returns the game's id."""
    http = Client(s.service)
    (track,) = plays.prepare(s.service, args.game, args.players, 1, "audited", args.options)
    fast_forward(http, track, len(track.bodies))
    took = []
    for claim in range(args.audits):
        began = time.perf_counter()
        report = http.call(f"/v1/games/{track.game_id}/audit?wait=10",
                           {"claimed": {"0": claim}}, track.token)
        took.append((time.perf_counter() - began) * 1000)
        if not report["ok"]:
            raise load.Refused(f"the audit found mismatches: {report['mismatches'][:3]}")
    print(f"audit of a finished {args.game} game of {args.players} ({len(track.bodies)} moves) "
          f"through a worker, {args.audits} times")
    print(f"  min {min(took):7.1f} ms   median {statistics.median(took):7.1f} ms"
          f"   max {max(took):7.1f} ms")
    return track.game_id


def audit_flood(s: stack.Stack, args, audited: str) -> None:
    """One client's verdicts, in phases that take turns: quiet, then while anonymous clients
    flood the service with audits of a finished game (each claiming another total, so each is a
    rebuild). Turns, not one quiet half and one flooded half, so that whatever else loads the
    machine loads both alike; each flooded phase is timed once the flood is under way (its
    processes started, audits answered), and each quiet one once the audits it left queued are
    done."""
    (track,) = plays.prepare(s.service, args.game, args.players, 1, "flooded", args.options)
    per_phase = min(args.flood_moves, len(track.bodies) // 2) // args.flood_turns
    queued = redis.Redis.from_url(s.redis_url)
    moves = iter(track.bodies)

    def verdicts() -> list[float]:
        # A connection of its own, opened untimed: the web closed the last one, idle between
        # phases, and opening another is no part of a verdict's time.
        http = Client(s.service)
        http.get(f"/v1/games/{track.game_id}", track.token)
        took = []
        for body in itertools.islice(moves, per_phase):
            began = time.perf_counter()
            status, raw = http.post(track.path(load.WAIT_S), body, track.token)
            took.append((time.perf_counter() - began) * 1000)
            if status != 201:
                raise load.Refused(f"a move answered {status}: {raw[:300]!r}")
        return took

    # Processes of their own: flooding threads would hold the timed client's GIL.
    forks = multiprocessing.get_context("fork")
    flooding, stop = forks.Event(), forks.Event()
    sent, refused = forks.Value("i", 0), forks.Value("i", 0)
    flooders = [forks.Process(target=_flood,
                              args=(s.service, audited, flooding, stop, sent, refused, n))
                for n in range(args.flooders)]
    for flooder in flooders:
        flooder.start()
    quiet: list[float] = []
    flooded: list[float] = []
    try:
        for _ in range(args.flood_turns):
            _settle(queued)
            quiet += verdicts()
            flooding.set()
            _under_way(sent, refused)
            flooded += verdicts()
            flooding.clear()
    finally:
        stop.set()
        flooding.set()
        for flooder in flooders:
            flooder.join(30)
    p99 = [statistics.quantiles(t, n=100)[98] for t in (quiet, flooded)]
    print(f"verdicts under an audit flood ({args.flooders} clients sent {sent.value} audits, "
          f"{refused.value} more refused, while one client posted {len(flooded)} moves; "
          f"{len(quiet)} moves quiet, taking turns {args.flood_turns} times)")
    print(f"  quiet  p50 {statistics.median(quiet):7.1f} ms   p99 {p99[0]:7.1f} ms")
    print(f"  flood  p50 {statistics.median(flooded):7.1f} ms   p99 {p99[1]:7.1f} ms"
          f"   p99 ratio {p99[1] / p99[0]:5.2f}")


def _under_way(sent, refused, timeout_s: float = 10) -> None:
    """Until the flooders' audits are being answered (or `timeout_s`)."""
    deadline, before = time.monotonic() + timeout_s, sent.value + refused.value
    while sent.value + refused.value == before and time.monotonic() < deadline:
        time.sleep(0.01)


def _settle(connection: redis.Redis, timeout_s: float = 30) -> None:
    """Until no audit waits in its queue (or `timeout_s`), and the last one taken is done."""
    deadline = time.monotonic() + timeout_s
    while connection.llen(f"rq:queue:{queue.AUDITS}") and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.1)


def _flood(base: str, audited: str, flooding, stop, sent, refused, n: int) -> None:
    """Audits of one game, each claiming a total no other flooder claims, while `flooding` is
    set and until told to stop; one turned away (429, or 503 while too many audits wait) waits a
    second (the shortest Retry-After) or a little more, as a client that heeds it does. `sent`
    counts the audits taken, `refused` the others."""
    flooder = Client(base)
    # Flooders started together and all told to wait a second would come back together, every
    # second, as no clients would: each waits up to a second more, as a client backing off does.
    jitter = random.Random(n)
    for claim in itertools.count(100_000 * (n + 1)):
        flooding.wait()
        if stop.is_set():
            return
        status, raw = flooder.post(f"/v1/games/{audited}/audit",
                                   orjson.dumps({"claimed": {"0": claim}}))
        turned_away = status in (429, 503)  # past its rate, or too many audits waiting
        if status >= 300 and not turned_away:
            raise SystemExit(f"an audit answered {status}: {raw[:300]!r}")
        counted = refused if turned_away else sent
        with counted.get_lock():
            counted.value += 1
        if turned_away:
            stop.wait(1 + jitter.random())


def service_figures(args) -> None:
    rates = {"RATE_AUDITS": args.audit_rate} if args.audit_rate else None
    with stack.running(args.workers, args.redis_port, args.web_port, rates) as s:
        connection = redis.Redis.from_url(s.redis_url)
        baseline = footprint.used_memory(connection)
        clients = load.Clients(args.client_processes)
        many = (args.clients, "many")
        counts = (many,) if args.throughput_only else ((1, "one"), many)
        try:
            played = sum(compare(clients, s, args, count, label) for count, label in counts)
        finally:
            clients.close()
        if args.throughput_only:
            return
        print("Redis memory of the stored games:")
        for line in footprint.measure(connection, baseline, played).lines():
            print("  " + line)
        long_game(s, args)
        paced(s, args)
        wake_ups(s, args)
        audit_flood(s, args, audits(s, args))
        print("Redis memory of every stored game, given back when they are deleted:")
        for line in footprint.freed(connection):
            print("  " + line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--games-per-client", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--game", default="coloretto", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--options", type=json.loads, default={},
                        help='the games\' options, as JSON (e.g. \'{"deals": 1}\')')
    parser.add_argument("--client-processes", type=int, default=4)
    parser.add_argument("--long-at", type=int, default=500)
    parser.add_argument("--long-window", type=int, default=60,
                        help="moves timed around --long-at, and as many at the start of a game")
    parser.add_argument("--paced-moves", type=int, default=40)
    parser.add_argument("--wake-pings", type=int, default=20,
                        help="Redis round trips timed after each pause")
    parser.add_argument("--pace", type=float, default=0.3,
                        help="seconds between the paced client's moves")
    parser.add_argument("--audits", type=int, default=5)
    parser.add_argument("--flooders", type=int, default=8,
                        help="clients sending audits while one client's verdicts are timed")
    parser.add_argument("--flood-moves", type=int, default=100,
                        help="moves timed quiet, and as many under the flood")
    parser.add_argument("--flood-turns", type=int, default=4,
                        help="quiet and flooded phases taking turns, the moves shared among them")
    parser.add_argument("--audit-rate",
                        help="the audits an address may ask for (TABLELOG_RATE_AUDITS, e.g. its"
                        " default 5/second;300/hour); default: out of reach, an unchecked flood")
    parser.add_argument("--playouts", type=int, default=5,
                        help="games folded per title and player count for the engine figures")
    parser.add_argument("--repeats", type=int, default=3,
                        help="passes over them; the quickest counts")
    parser.add_argument("--titles", nargs="*", default=sorted(GAMES), choices=sorted(GAMES),
                        help="the games whose engine figures are printed")
    parser.add_argument("--redis-port", type=int, help="default: a free one")
    parser.add_argument("--web-port", type=int,
                        help="the ceiling listens on the next one (default: free ones)")
    parser.add_argument("--throughput-only", action="store_true",
                        help="only the service against the ceiling with --clients clients: a"
                        " quick side-by-side of two trees")
    compaction.add_arguments(parser)
    args = parser.parse_args()
    service_figures(args)
    if args.throughput_only:
        return
    engine.print_figures(args.titles, args.playouts, args.repeats)
    print("Ended games compacted (bench.compaction):")
    compaction.print_figures(args.titles, args.compaction_reads, args.compaction_games)


if __name__ == "__main__":
    main()
