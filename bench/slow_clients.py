"""Slow clients against the Procfile's web: a benchmark script printing figures, never a test.

    .venv/bin/python -m bench.slow_clients [--one 2000] [--many 200] [--seconds 30]

It starts its own redis-server, the Procfile's web (gunicorn's gevent workers, 2 x 1,000
connections), a judging worker and an auditor (`bench.stack`), then, for `--quiet` seconds and
then for `--seconds` while slow clients press it, asks for `/healthz` and posts a move
(`?wait=5`) every `--every` seconds, each on a fresh connection from an address of its own
(127.0.0.250 and 127.0.0.251), and prints their latency (p50, p99, max) in both phases.

The slow clients (`Trickle`, in a process of their own): `--one` connections from 127.0.0.1
and one from each of `--many` other addresses (127.0.0.2 on), each a `POST /v1/replays/verify`
announcing a body of 1,000 bytes and sending one byte of it every `--drip` seconds, each opened
again `--reopen` seconds after the server closed it. What the server answered them is printed.
127.0.0.x addresses are all loopback on Linux: a socket bound to one connects from it.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import multiprocessing
import selectors
import socket
import statistics
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from bench import cpu, plays, stack

_BODY = 1000
_HEAD = (b"POST /v1/replays/verify HTTP/1.1\r\nHost: tablelog\r\n"
         b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n{" % _BODY)


@dataclass
class _Held:
    source: str
    opened: float
    dripped: float
    answer: bytes = b""


@dataclass
class Trickle:
    """Slow-body connections to `address`, driven from one thread with non-blocking sockets:
    each sends a request head announcing a body and one byte of it every `drip` seconds, and
    is opened again `reopen` seconds after the server closed it (never, when None)."""

    address: tuple[str, int]
    drip: float
    reopen: float | None = None
    statuses: collections.Counter = field(default_factory=collections.Counter)
    # Seconds from opening to the server's answer, by status.
    answered_in: dict[int, list[float]] = field(default_factory=dict)
    failed: int = 0  # connections the server did not accept within 5 s
    held: dict[socket.socket, _Held] = field(default_factory=dict)
    _selector: selectors.BaseSelector = field(default_factory=selectors.DefaultSelector)
    _reopening: list[tuple[float, str]] = field(default_factory=list)

    def open(self, source: str) -> None:
        sock = socket.socket()
        sock.bind((source, 0))
        sock.settimeout(5)
        try:
            sock.connect(self.address)
            sock.sendall(_HEAD)
        except OSError:
            sock.close()
            self.failed += 1
            return
        sock.setblocking(False)
        now = time.monotonic()
        self.held[sock] = _Held(source, now, now)
        self._selector.register(sock, selectors.EVENT_READ)

    def run(self, until: float) -> None:
        """Drip, read answers and open closed connections again until `until` (monotonic)."""
        while (now := time.monotonic()) < until:
            for key, _ in self._selector.select(timeout=min(0.05, until - now)):
                self._read(key.fileobj)
            now = time.monotonic()
            for sock, held in list(self.held.items()):
                if now - held.dripped >= self.drip:
                    held.dripped = now
                    self._send_byte(sock)
            while self._reopening and self._reopening[0][0] <= now:
                self.open(self._reopening.pop(0)[1])

    def close(self) -> None:
        for sock in list(self.held):
            self._forget(sock)
        self._selector.close()

    def _send_byte(self, sock: socket.socket) -> None:
        try:
            sock.send(b" ")
        except BlockingIOError:
            pass
        except OSError:
            self._read(sock)

    def _read(self, sock: socket.socket) -> None:
        held = self.held.get(sock)
        if held is None:
            return
        try:
            got = sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            got = b""
        held.answer += got
        if got:
            return
        # Closed by the server: what it answered first, if anything.
        status = int(held.answer.split(b" ", 2)[1]) if held.answer[:5] == b"HTTP/" else 0
        self.statuses[status] += 1
        self.answered_in.setdefault(status, []).append(time.monotonic() - held.opened)
        self._forget(sock)
        if self.reopen is not None:
            self._reopening.append((time.monotonic() + self.reopen, held.source))

    def _forget(self, sock: socket.socket) -> None:
        self._selector.unregister(sock)
        del self.held[sock]
        sock.close()


def sources(one: int, many: int) -> list[str]:
    """`one` connections from 127.0.0.1, then one from each of 127.0.0.2 on (`many`)."""
    return ["127.0.0.1"] * one + [f"127.0.0.{2 + n}" for n in range(many)]


def _press(address: tuple[str, int], args: argparse.Namespace, report) -> None:
    """The slow clients' process: open them over `--ramp` seconds, hold them, report."""
    trickle = Trickle(address, args.drip, args.reopen)
    opening = sources(args.one, args.many)
    began = time.monotonic()
    end = began + args.seconds
    for index, source in enumerate(opening):
        trickle.open(source)
        if index % 100 == 99:
            trickle.run(min(end, began + args.ramp * (index + 1) / len(opening)))
    trickle.run(end)
    now = time.monotonic()
    oldest = max((now - h.opened for h in trickle.held.values()), default=0.0)
    report.send((dict(trickle.statuses), {s: _spread(t) for s, t in trickle.answered_in.items()},
                 trickle.failed, len(trickle.held), oldest))
    trickle.close()


@dataclass
class _Probe:
    """Latencies of one kind of request, each on a fresh connection from `source`."""

    source: str
    took: list[float] = field(default_factory=list)
    failures: collections.Counter = field(default_factory=collections.Counter)

    def ask(self, address: tuple[str, int], method: str, path: str, body: bytes | None = None,
            token: str | None = None) -> None:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        began = time.perf_counter()
        try:
            conn = http.client.HTTPConnection(*address, timeout=10,
                                              source_address=(self.source, 0))
            conn.request(method, path, body, headers)
            answer = conn.getresponse()
            answer.read()
            conn.close()
            status = answer.status
        except OSError as error:
            status = type(error).__name__
        self.took.append(time.perf_counter() - began)
        if status not in (200, 201):
            self.failures[status] += 1


def _probe(address: tuple[str, int], track: plays.Track, every: float, until: float,
           moves: list[bytes]) -> tuple[_Probe, _Probe]:
    health, move = _Probe("127.0.0.250"), _Probe("127.0.0.251")
    while time.monotonic() < until and moves:
        began = time.monotonic()
        health.ask(address, "GET", "/healthz")
        move.ask(address, "POST", track.path(5), moves.pop(0), track.token)
        time.sleep(max(0.0, every - (time.monotonic() - began)))
    return health, move


def _spread(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (f"p50 {statistics.median(ordered) * 1000:7.1f} ms   p99 {p99 * 1000:7.1f} ms   "
            f"max {ordered[-1] * 1000:7.1f} ms")


def _line(name: str, probe: _Probe) -> str:
    failed = f"   not 2xx: {dict(probe.failures)}" if probe.failures else ""
    return f"    {name:8} {len(probe.took):4} asked   {_spread(probe.took)}{failed}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--one", type=int, default=2000, help="slow connections from 127.0.0.1")
    parser.add_argument("--many", type=int, default=200, help="addresses with one each")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--quiet", type=float, default=10)
    parser.add_argument("--ramp", type=float, default=5, help="seconds to open them all")
    parser.add_argument("--drip", type=float, default=2)
    parser.add_argument("--reopen", type=float, default=1)
    parser.add_argument("--every", type=float, default=0.1)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    with stack.running(args.workers, None, None) as running:
        url = urlsplit(running.service)
        address = (url.hostname, url.port)
        (track,) = plays.prepare(running.service, "coloretto", 4, 1, "slow-clients")
        moves = list(track.bodies)
        print(f"the Procfile's web (2 gunicorn processes x 1,000 connections), {args.workers} "
              f"worker(s); a probe every {args.every:g} s, each on a fresh connection")
        web = {"web": running.roles["web"]}
        spent = cpu.seconds(web)["web"]
        quiet = _probe(address, track, args.every, time.monotonic() + args.quiet, moves)
        print(f"  quiet, {args.quiet:g} s: the web's CPU "
              f"{(cpu.seconds(web)['web'] - spent) / args.quiet:4.2f} s a second")
        print(_line("/healthz", quiet[0]))
        print(_line("move", quiet[1]))
        here, there = multiprocessing.get_context("fork").Pipe()
        press = multiprocessing.get_context("fork").Process(target=_press,
                                                             args=(address, args, there))
        spent = cpu.seconds(web)["web"]
        press.start()
        pressed = _probe(address, track, args.every, time.monotonic() + args.seconds, moves)
        statuses, answered_in, failed, still, oldest = here.recv()
        press.join(30)
        print(f"  while {args.one} slow bodies from 127.0.0.1 and one each from {args.many} "
              f"other addresses press it ({args.seconds:g} s; a byte every {args.drip:g} s, "
              f"each opened again {args.reopen:g} s after it was closed): the web's CPU "
              f"{(cpu.seconds(web)['web'] - spent) / args.seconds:4.2f} s a second")
        print(_line("/healthz", pressed[0]))
        print(_line("move", pressed[1]))
        print(f"  the slow connections: answered {statuses} (0: closed unanswered), "
              f"{failed} not accepted within 5 s; {still} open at the end, the oldest opened "
              f"{oldest:.1f} s before")
        for status, spread in sorted(answered_in.items()):
            print(f"    {status} after   {spread}")
        if not moves:
            print("  (the game ran out of moves before the clock: raise --every)")


if __name__ == "__main__":
    main()
