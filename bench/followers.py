"""Benchmark of following: many spectators of live games, and a player's verdicts meanwhile.

    .venv/bin/python -m bench.followers [--big 5000] [--games 20] [--each 100] [--moves 60]

It starts its own redis-server and the Procfile's web (gunicorn gevent, with the Procfile's
settings: `WEB_CONCURRENCY` processes of `WEB_CONNECTIONS` connections, of which follow streams
hold at most `TABLELOG_FOLLOWERS_SHARE`; `--connections` sets another) and workers
(`bench.stack`), then:
1. a player posts `--moves` moves, one every `--pace` s (`wait=5`), to a game nobody follows
   and to the game the crowd will follow, while another client plays the other games: the
   player's verdicts' p50 and p99 without followers;
2. `--big` followers of that game and `--each` of `--games` other games connect
   (`events?follow=1`, server-sent events, as a page's EventSource) from one asyncio process,
   spread over `--addresses` addresses, 127.0.0.2 on: how many were connected, how many
   refused 503 `followers-full`, and how long each waited for its answer;
3. the player posts again, to the same two games, while another client plays the other
   games: the verdicts' p50 and p99 with followers, and how long each new entry took to reach
   each follower (the time a line arrived less the entry's `at`, both this machine's clock:
   the time this process read it, and the time its socket received it);
4. how many followers were connected and got every entry, Redis's connected clients, and the
   web's memory a follower.
Throughout, `/healthz` is asked every `--probe` s on a connection of its own, opened afresh
from 127.0.0.1 each time (as a load balancer's health check): its p50 and p99 without and with
the followers (from the moment they start connecting). It prints figures and fails on nothing:
the machine's load moves every absolute figure.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import multiprocessing
import os
import re
import socket
import statistics
import struct
import time
from datetime import datetime

import redis

from bench import cpu, plays, stack
from bench.client import Client
from schemas.api import FOLLOWERS_SHARE

# Raised from its 25 s, so that no stream ends (and reconnects) while it is measured.
_FOLLOWED_S = 600
# A /healthz probe that got no answer in this long counts as this long.
_PROBE_TIMEOUT_S = 10


class Followers:
    """Open follow streams, and when each entry past `after` reached each of them.

    A follower only notes what each read got and when (`_Follower`): the lines are parsed after
    the run, so that this process, which shares the machine's cores with the service, spends as
    little as it can while it measures. When is twofold: the time the read returned, and the
    time the kernel received the bytes (SO_TIMESTAMPNS), which this process's own delays (its
    share of the cores, its other followers' reads) do not move."""

    def __init__(self, base_port: int, addresses: int):
        self.port, self.addresses = base_port, addresses
        self.connected = 0
        self.refused = 0  # 503 followers-full
        self.failed = 0
        self.answered_in: list[float] = []  # s from each one's connect to its answer
        self.streams: dict[int, _Follower] = {}  # follower index -> its stream
        self.connecting: list[asyncio.Future] = []
        # Those answered before the measure began: the others are still catching up, whose
        # entries are not new to them.
        self.measured: list[_Follower] = []

    async def follow(self, index: int, game_id: str, after: int) -> None:
        loop = asyncio.get_running_loop()
        request = (f"GET /v1/games/{game_id}/events?follow=1&after={after} HTTP/1.1\r\n"
                   f"Host: bench\r\nAccept: text/event-stream\r\n\r\n").encode()
        sock = socket.socket()
        sock.setblocking(False)
        sock.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)
        began = time.monotonic()
        try:
            # Spread over addresses, as spectators are: one address may hold only so many
            # connections to a web process (TABLELOG_CONNECTIONS_PER_ADDRESS).
            sock.bind((f"127.0.0.{2 + index % self.addresses}", 0))
            await loop.sock_connect(sock, ("127.0.0.1", self.port))
            await loop.sock_sendall(sock, request)
        except OSError:
            self.failed += 1
            sock.close()
            return
        stream = self.streams[index] = _Follower(self, sock, began)
        loop.add_reader(sock, stream.readable)

    def clear(self) -> None:
        """Forget what arrived so far: only what arrives next is measured."""
        for stream in self.streams.values():
            stream.clear()
        self.measured = [s for s in self.streams.values() if s.answered]

    def latencies(self, received: bool) -> list[float]:
        """Each entry's time to each follower: till the kernel received it, or till read."""
        return [(got[1] if received else got[0]) - _at(line)
                for s in self.measured for *got, line in s.lines()]

    def seen(self, index: int) -> set[int]:
        stream = self.streams.get(index)
        if stream is None:
            return set()
        return stream.earlier | {_field_int(line, b'"seq":') for *_, line in stream.lines()}

    def close(self) -> None:
        loop = asyncio.get_running_loop()
        for stream in self.streams.values():
            loop.remove_reader(stream.sock)
            stream.sock.close()


# Linux's socket option (and control message) for a receive's kernel time, as a timespec.
_SO_TIMESTAMPNS = 35
_TIMESPEC = struct.Struct("qq")
_Read = tuple[float, float, bytes]  # read at, received at, what


class _Follower:
    """One follow stream: each read, and the time it returned and its bytes were received."""

    def __init__(self, crowd: Followers, sock: socket.socket, began: float):
        self.crowd, self.sock, self.began = crowd, sock, began
        self.reads: list[_Read] = []
        self.earlier: set[int] = set()  # the seqs it got before the measure
        self.answered = False
        self.refusal: bytes | None = None  # what a follower not answered 200 was sent

    def readable(self) -> None:
        try:
            data, ancillary, _, _ = self.sock.recvmsg(65536, 64)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.sock)
            if self.refusal is not None:  # the server closes a refused connection: all read
                refused = self.refusal.startswith(b"HTTP/1.1 503 ") and b"followers-full" in (
                    self.refusal)
                self.crowd.refused += refused
                self.crowd.failed += not refused
            return
        read_at = received = time.time()
        for level, kind, value in ancillary:
            if (level, kind) == (socket.SOL_SOCKET, _SO_TIMESTAMPNS):
                seconds, nanoseconds = _TIMESPEC.unpack(value)
                received = seconds + nanoseconds / 1e9
        if not self.answered:
            self.answered = True
            self.crowd.answered_in.append(time.monotonic() - self.began)
            if data.startswith(b"HTTP/1.1 200 "):
                self.crowd.connected += 1
            else:
                self.refusal = b""
        if self.refusal is not None:
            # Read to its end: gunicorn sends an answer's head and its body apart.
            self.refusal += data
            return
        self.reads.append((read_at, received, data))

    def clear(self) -> None:
        found, rest = _lines(self.reads)
        self.earlier |= {_field_int(line, b'"seq":') for *_, line in found}
        self.reads = [(0.0, 0.0, rest)]  # its unfinished line, completed by a later read

    def lines(self) -> list[tuple[float, float, bytes]]:
        return _lines(self.reads)[0]


def _lines(reads: list[_Read]) -> tuple[list[tuple[float, float, bytes]], bytes]:
    """Each `data:` line read, with the times of the read that completed it; and what follows
    the last whole line."""
    found, rest = [], b""
    for read_at, received, data in reads:
        *whole, rest = (rest + data).split(b"\n")
        found += [(read_at, received, line) for line in whole if line.startswith(b"data: ")]
    return found, rest


def _field_int(line: bytes, name: bytes) -> int:
    start = line.index(name) + len(name)
    end = start
    while line[end:end + 1].isdigit():
        end += 1
    return int(line[start:end])


def _at(line: bytes) -> float:
    start = line.index(b'"at":"') + 6
    return datetime.fromisoformat(line[start:line.index(b'"', start)].decode()).timestamp()


def _play(base: str, tracks: list[plays.Track], start: int, moves: int, pace: float,
          out: multiprocessing.Queue) -> None:
    """Post moves `start`.. of each track in turn, one every `pace` s: each verdict's ms."""
    http, took = Client(base), []
    for i in range(start, start + moves):
        for track in tracks:
            time.sleep(pace)
            began = time.perf_counter()
            status, raw = http.post(track.path(5), track.bodies[i], track.token)
            took.append((time.perf_counter() - began) * 1000)
            if status != 201:
                raise SystemExit(f"move {i} answered {status}: {raw[:300]!r}")
    out.put(took)


def _played(base: str, tracks: list[plays.Track], start: int, moves: int, pace: float
            ) -> multiprocessing.Process:
    out: multiprocessing.Queue = multiprocessing.Queue()
    proc = multiprocessing.Process(target=_play, args=(base, tracks, start, moves, pace, out))
    proc.start()
    proc.out = out  # type: ignore[attr-defined]
    return proc


def _probe(port: int, every: float, stop, out: multiprocessing.Queue) -> None:
    """Ask /healthz every `every` s on a fresh connection, until `stop` is set: each one's ms
    (a timeout or a refused connection as `_PROBE_TIMEOUT_S`), and how many failed."""
    took, failed = [], 0
    while not stop.is_set():
        began = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=_PROBE_TIMEOUT_S)
        try:
            conn.request("GET", "/healthz")
            if conn.getresponse().status != 200:
                failed += 1
            took.append((time.perf_counter() - began) * 1000)
        except OSError:
            failed += 1
            took.append(_PROBE_TIMEOUT_S * 1000)
        finally:
            conn.close()
        stop.wait(every)
    out.put((took, failed))


class _Probing:
    """`_probe` in a process of its own while the block runs; `took` and `failed` after."""

    def __init__(self, port: int, every: float):
        self.stop, self.out = multiprocessing.Event(), multiprocessing.Queue()
        self.proc = multiprocessing.Process(target=_probe,
                                            args=(port, every, self.stop, self.out))
        self.took: list[float] = []
        self.failed = 0

    def __enter__(self) -> _Probing:
        self.proc.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.took, self.failed = self.out.get()
        self.proc.join()

    def __str__(self) -> str:
        return f"{_spread(self.took)}, {self.failed} failed" if self.took else "none asked"


def _spread(ms: list[float]) -> str:
    if not ms:
        return "none"
    ms = sorted(ms)
    return (f"p50 {statistics.median(ms):7.1f} ms   p99 {ms[int(len(ms) * 0.99)]:7.1f} ms"
            f"   max {ms[-1]:7.1f} ms   ({len(ms)})")


async def _crowd(port: int, addresses: int, followed: list[tuple[str, int, int]]
                 ) -> Followers:
    crowd = Followers(port, addresses)
    index = 0
    for game_id, after, count in followed:
        for _ in range(count):
            crowd.connecting.append(asyncio.ensure_future(crowd.follow(index, game_id, after)))
            index += 1
            if index % 200 == 0:
                await asyncio.sleep(0.05)
    return crowd


async def _measured(args, s: stack.Stack, player: list[plays.Track],
                    others: list[plays.Track], without: list[float]) -> None:
    port = int(s.service.rsplit(":", 1)[1])
    http = Client(s.service)
    followed = [(t.game_id, http.get(f"/v1/games/{t.game_id}")["version"], count)
                for t, count in ((player[1], args.big), *((t, args.each) for t in others))]
    memory_before = cpu.resident(s.roles)["web"]
    with _Probing(port, args.probe) as probed:
        began = time.monotonic()
        crowd = await _crowd(port, args.addresses, followed)
        total = args.big + args.each * len(others)
        while (crowd.connected + crowd.refused + crowd.failed < total
               and time.monotonic() - began < 120):
            await asyncio.sleep(0.2)
        print(f"followers: {crowd.connected} of {total} connected, {crowd.refused} refused 503"
              f" followers-full, {crowd.failed} failed or unanswered, in"
              f" {time.monotonic() - began:.1f} s, from {args.addresses} addresses")
        print(f"  each answered after its connect began: "
              f"{_spread([x * 1000 for x in crowd.answered_in])}")
        clients = redis.Redis.from_url(s.redis_url).info("clients")["connected_clients"]
        print(f"  Redis connected clients with every follower waiting: {clients}")
        grown = cpu.resident(s.roles)["web"] - memory_before
        print(f"  the web's resident memory grew {grown / 2**20:.1f} MB:"
              f" {grown / max(crowd.connected, 1) / 1024:.1f} KB a follower connected")
        await asyncio.sleep(1)
        crowd.clear()
        spent_before, own_before = cpu.seconds(s.roles), time.process_time()
        playing = _played(s.service, player, args.moves, args.moves, args.pace)
        background = _played(s.service, others, args.moves, args.moves, _background_pace(args))
        while playing.is_alive() or background.is_alive():
            await asyncio.sleep(0.2)
        await asyncio.sleep(1)
    spent = {role: t - spent_before[role] for role, t in cpu.seconds(s.roles).items()}
    own = time.process_time() - own_before
    with_followers = playing.out.get()  # type: ignore[attr-defined]
    background.out.get()  # type: ignore[attr-defined]
    crowd.close()
    latencies = crowd.latencies(received=False)
    delivered = sum(len(stream.lines()) for stream in crowd.streams.values())
    print(f"/healthz with followers (from their connecting on): {probed}")
    print(f"a player's verdicts with followers:     {_spread(with_followers)}")
    print(f"  on the game nobody follows:            {_spread(with_followers[::2])}")
    print(f"  on the game {args.big} follow:          {_spread(with_followers[1::2])}")
    print(f"a new entry reaching each follower answered before the moves "
          f"({len(crowd.measured)}):")
    print(f"  read by it:                            "
          f"{_spread([x * 1000 for x in latencies])}")
    print(f"  received by its socket (kernel time):  "
          f"{_spread([x * 1000 for x in crowd.latencies(received=True)])}")
    index, whole = 0, 0
    for game_id, after, count in followed:
        wanted = set(range(after + 1, http.get(f"/v1/games/{game_id}")["version"] + 1))
        for i in range(index, index + count):
            whole += wanted <= crowd.seen(i)
        index += count
    print(f"  entries delivered {delivered}; followers that got every entry: "
          f"{whole} of {total}")
    print("CPU seconds meanwhile: " + ", ".join(f"{role} {t:.1f}" for role, t in spent.items())
          + f", the followers' client {own:.1f}; the web's a thousand entries delivered: "
          f"{spent['web'] / max(delivered, 1) * 1000:.3f} s")
    print(f"a player's verdict p99 with followers / without: "
          f"{_p99(with_followers) / _p99(without):.2f}x")


def _p99(ms: list[float]) -> float:
    return sorted(ms)[int(len(ms) * 0.99)]


def _background_pace(args) -> float:
    """The other games' moves, one every so often in turn: each game as fast as the player."""
    return args.pace * 2 / args.games


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--big", type=int, default=5000)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--each", type=int, default=100)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--pace", type=float, default=0.25)
    parser.add_argument("--addresses", type=int, default=250)
    parser.add_argument("--probe", type=float, default=0.1, help="s between /healthz probes")
    parser.add_argument("--connections", type=int, default=None,
                        help="WEB_CONNECTIONS (default: the Procfile's)")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    if args.connections is not None:
        os.environ["WEB_CONNECTIONS"] = str(args.connections)
    os.environ["TABLELOG_FOLLOW_SECONDS"] = str(_FOLLOWED_S)
    print(_settings())
    with stack.running(args.workers, None, None) as s:
        player = plays.prepare(s.service, "coloretto", 4, 2, "player")
        others = plays.prepare(s.service, "coloretto", 4, args.games, "others")
        with _Probing(int(s.service.rsplit(":", 1)[1]), args.probe) as probed:
            alone = _played(s.service, player, 0, args.moves, args.pace)
            background = _played(s.service, others, 0, args.moves, _background_pace(args))
            took = alone.out.get()
            background.out.get()
            alone.join()
            background.join()
        print(f"/healthz without followers: {probed}")
        print(f"a player's verdicts without followers:  {_spread(took)}")
        print(f"  on the game nobody will follow:        {_spread(took[::2])}")
        print(f"  on the game {args.big} will follow:     {_spread(took[1::2])}")
        asyncio.run(_measured(args, s, player, others, took))


def _settings() -> str:
    """The web's settings as this run has them: the Procfile's, but for what is set here."""
    web = stack.procfile()["web"]
    defaults = dict(re.findall(r"\$\{(\w+):-([^}]*)\}", web))
    given = {name: os.environ.get(name, default) for name, default in defaults.items()
             if name not in ("PORT", "BIND_ADDRESS")}
    given["TABLELOG_FOLLOWERS_SHARE"] = os.environ.get("TABLELOG_FOLLOWERS_SHARE",
                                                       str(FOLLOWERS_SHARE))
    changed = [f"{name}={os.environ[name]}" for name in given if name in os.environ]
    said = f"set here: {', '.join(changed)}" if changed else "all the Procfile's defaults"
    return (f"the Procfile's web: {', '.join(f'{n}={v}' for n, v in given.items())} ({said});"
            f" raised by this benchmark: TABLELOG_FOLLOW_SECONDS={_FOLLOWED_S} (no stream"
            " reconnects while measured) and every rate limit out of reach (bench.stack)")


if __name__ == "__main__":
    main()
