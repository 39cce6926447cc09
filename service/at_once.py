"""Places each key (a client's address) may hold at once in a web process, counted in the
process: the uploads each address has being checked (`service.uploads`) and the connections
each holds open (`service.server`). A dict under a lock, which gevent's monkey-patching makes a
greenlet's lock: no round trip."""

from __future__ import annotations

import threading
from collections.abc import Hashable


class AtOnce:
    """How many places each key holds in this process, at most `most` each."""

    def __init__(self, most: int):
        self.most = most
        self.running: dict[Hashable, int] = {}
        self.lock = threading.Lock()

    def enter(self, who: Hashable) -> bool:
        """Take one of `who`'s places, if one is free."""
        with self.lock:
            held = self.running.get(who, 0)
            if held >= self.most:
                return False
            self.running[who] = held + 1
            return True

    def leave(self, who: Hashable) -> None:
        """Give a place back; a key holding none is forgotten."""
        with self.lock:
            held = self.running.pop(who) - 1
            if held:
                self.running[who] = held
