"""The followers of a game in a web process, written to by one greenlet: the game's audience.

A follower used to be woken by the hub for each batch that landed and to write the batch itself,
through gunicorn's layers: with thousands of spectators of a game the web spent much of its time
waking greenlets and passing each batch down those layers one follower at a time, and the hub's
reader, busy waking them, read a player's verdict only once every follower was woken, so both the
followers and the player waited (docs/benchmarks.md, 2026-11-28, issue 32). Here a follower that has
caught up joins its game's audience and sleeps. The audience waits on the hub as one request; for
each batch it makes the bytes once for each kind of member (its viewer, the stream's form,
gunicorn's framing) and sends them to each member's socket without waiting: a `send` a follower, no
greenlet woken.
A member whose socket would block (a slow reader, its buffer full) is handed back: its own
greenlet writes what the audience could not send, waiting as long as it must, and follows by
itself until it has caught up again. A member whose client left, whose connection has lived its
life or whose game finished is let go as well.

The audience writes in slices of `_SLICE_S` and lets the process run whatever is ready in
between (gevent's `idle`), so that a player's request and its verdict's answer wait for a
slice, not for a whole fan-out. Audiences exist only under gunicorn's gevent worker, which
offers a streamed answer's socket (`service.server.Through`); elsewhere followers wait on the
hub themselves.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

import gevent
from gevent.socket import socket

from engine import log
from store.hub import Hub, Waiter

# An audience writes this long at most before it lets the process run what else is ready.
_SLICE_S = 0.002
# An audience woken by an entry waits this long before it writes, and writes what landed
# meanwhile with it: a move's submission and its verdict, a few ms apart, reach a follower in
# one send instead of two, and the player waiting for that verdict is answered before the
# fan-out begins, not between its slices: with thousands of followers a verdict's p99 came
# back to what it is without followers (docs/benchmarks.md, 2026-11-28, "gathers 10 ms").
GATHER_S = 0.01
# An audience that got nothing for this long sends its members a heartbeat (an event stream's
# comment line), by which a proxy keeps the connection and a client that left is noticed.
HEARTBEAT_S = 5

# The environ's key for a streamed answer's way past the server's writes, where it offers one
# (`service.server.Through`).
THROUGH = "tablelog.through"

# The bytes a member is sent for a batch of entries (None: a heartbeat), the same for every
# member of its kind.
Wire = Callable[[list[dict[str, Any]] | None], bytes]


@dataclass(eq=False)
class Member:
    """A follower in its game's audience: up to which seq it has the log, and how to write to
    it. Its greenlet sleeps on `waiter` until the audience hands it back or it must end."""

    waiter: Waiter
    sock: socket
    kind: Hashable  # members of one kind are sent the same bytes
    wire: Wire
    after: int
    rest: bytes = b""  # what the audience could not send: its own greenlet sends it
    finished: bool = False  # the game finished: its stream ends
    out: bool = True  # not (or no longer) written to by the audience


@dataclass(eq=False)
class Audience:
    """The members following one game, at seq `last`, and the greenlet writing to them."""

    audiences: Audiences
    game_id: str
    last: int
    members: set[Member] = field(default_factory=set)
    waiter: Waiter = field(default_factory=Waiter)

    def admit(self, member: Member) -> bool:
        """Take a member that has the log up to where the audience is, no further or less."""
        if self.waiter.gone or member.after != self.last:
            return False
        member.out = False
        self.members.add(member)
        return True

    def leave(self, member: Member) -> None:
        """Write to the member no more; the audience ends with its last member."""
        member.out = True
        self.members.discard(member)
        if not self.members and not self.waiter.gone:
            self.audiences.closing(self)
            self.waiter.leave()

    def run(self) -> None:
        try:
            while not self.waiter.gone:
                entries = self._landed(HEARTBEAT_S)
                if entries:
                    gevent.sleep(GATHER_S)
                    entries = self._landed(0) or entries
                    self._deliver(entries)
                elif not self.waiter.gone:
                    self._heartbeat()
        finally:
            self.audiences.closing(self)
            for member in list(self.members):
                self._hand_back(member)

    def _landed(self, timeout_s: float) -> list[dict[str, Any]]:
        return self.audiences.hub.wait(self.game_id, self.last, timeout_s, self.waiter)

    def _deliver(self, landed: list[dict[str, Any]]) -> None:
        """Bring every member up to the latest entry, a slice of time at a time. What lands
        meanwhile joins the batch: the members not yet written get it in the same piece, the
        others after. Members that join meanwhile join at the latest seq: they have it."""
        first = landed[0]["seq"]
        self.last = landed[-1]["seq"]
        queue, wires = deque(self.members), {}
        waiting = set(queue)
        began = time.perf_counter()
        while queue:
            member = queue.popleft()
            waiting.discard(member)
            if member.out:  # left while the audience let others run
                continue
            key = (member.kind, member.after)
            wire = wires.get(key)
            if wire is None:
                wire = wires[key] = member.wire(landed[member.after + 1 - first:])
            member.after = self.last
            self._send(member, wire)
            if landed[-1]["type"] == log.FINISHED:
                member.finished = True
                self._hand_back(member)
            if time.perf_counter() - began >= _SLICE_S:
                gevent.idle()
                if more := self._landed(0):
                    landed += more
                    self.last = more[-1]["seq"]
                    wires.clear()  # made of the entries before
                    behind = [m for m in self.members if m.after < self.last and m not in waiting]
                    queue.extend(behind)
                    waiting.update(behind)
                began = time.perf_counter()

    def _heartbeat(self) -> None:
        """An event stream's comment line to every member, a slice of time at a time."""
        began, wires = time.perf_counter(), {}
        for member in list(self.members):
            if not member.out:
                wire = wires.get(member.kind)
                if wire is None:
                    wire = wires[member.kind] = member.wire(None)
                self._send(member, wire)
            if time.perf_counter() - began >= _SLICE_S:
                gevent.idle()
                began = time.perf_counter()

    def _send(self, member: Member, wire: bytes) -> None:
        if not wire:
            return
        try:
            sent = member.sock.send(wire, 0, 0.0)  # a timeout of 0: never waits
        except BlockingIOError:
            sent = 0
        except OSError:  # the client went away: its greenlet ends the stream
            self._hand_back(member)
            member.waiter.leave()
            return
        if sent < len(wire):
            member.rest = wire[sent:]
            self._hand_back(member)

    def _hand_back(self, member: Member) -> None:
        self.leave(member)
        member.waiter.woken.set()


class Audiences:
    """The audiences of a web process, one a followed game."""

    def __init__(self, hub: Hub):
        self.hub = hub
        self._games: dict[str, Audience] = {}

    def attend(self, game_id: str, member: Member, deadline: float) -> bool:
        """Have the game's audience write to the member until it hands the member back, the
        member's client leaves or `deadline` (monotonic) passes; what the audience could not
        send is sent here, waiting for the client as long as it takes. False when the
        audience did not take the member (it is elsewhere in the log)."""
        waiter = member.waiter
        waiter.woken.clear()
        audience = None if waiter.gone else self._joined(game_id, member)
        if audience is None:
            return False
        try:
            waiter.woken.wait(max(deadline - time.monotonic(), 0))
        finally:
            if not member.out:
                audience.leave(member)
        rest, member.rest = member.rest, b""
        if rest and not waiter.gone:
            member.sock.sendall(rest)
        return True

    def following(self) -> dict[str, int]:
        """How many followers each audience writes to."""
        return {game_id: len(a.members) for game_id, a in self._games.items()}

    def closing(self, audience: Audience) -> None:
        if self._games.get(audience.game_id) is audience:
            del self._games[audience.game_id]

    def _joined(self, game_id: str, member: Member) -> Audience | None:
        """The game's audience, once it admitted the member; None when it did not (it is
        elsewhere in the log than the member)."""
        audience = self._games.get(game_id)
        if audience is None:
            audience = self._games[game_id] = Audience(self, game_id, member.after)
            gevent.spawn(audience.run)
        return audience if audience.admit(member) else None
