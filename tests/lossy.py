"""A TCP proxy in front of a Redis, for the tests: it can lose the answer to the next append of a
submitted move, as a network cut right after Redis ran it would, and then refuse every
connection until it is restored (Redis gone, as far as its clients can tell).

It runs in threads of the test process; every socket read has a timeout and `close` ends them.
"""

from __future__ import annotations

import selectors
import socket
import threading

# The append script's first argument names the submission it writes (store.log.Writing.chained);
# no entry has a field of that name, so nothing else matches.
_APPENDING_A_SUBMISSION = b'"submitted":'


class LossyProxy:
    def __init__(self, redis_port: int):
        self.redis_port = redis_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.port = self.listener.getsockname()[1]
        self.lose_next = threading.Event()  # lose the next append's answer
        self.refuse_after = threading.Event()  # ...and then refuse connections
        self.lost = threading.Event()  # an answer was lost
        self.refusing = threading.Event()
        self.closed = threading.Event()
        self.threads = [threading.Thread(target=self._accept, daemon=True)]
        self.threads[0].start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def restore(self) -> None:
        self.refusing.clear()

    def close(self) -> None:
        self.closed.set()
        for thread in self.threads:
            thread.join(5)
        self.listener.close()

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                client, _ = self.listener.accept()
            except TimeoutError:
                continue
            if self.refusing.is_set():
                client.close()
                continue
            thread = threading.Thread(target=self._pipe, args=(client,), daemon=True)
            self.threads.append(thread)
            thread.start()

    def _pipe(self, client: socket.socket) -> None:
        upstream = socket.create_connection(("127.0.0.1", self.redis_port), timeout=5)
        with client, upstream, selectors.DefaultSelector() as selector:
            selector.register(client, selectors.EVENT_READ, upstream)
            selector.register(upstream, selectors.EVENT_READ, client)
            while not self.closed.is_set() and not self.refusing.is_set():
                for key, _ in selector.select(timeout=0.2):
                    data = key.fileobj.recv(65536)
                    if not data:
                        return
                    if key.fileobj is client and self._losing(data):
                        self._lose_answer(upstream, data)
                        return
                    key.data.sendall(data)

    def _losing(self, data: bytes) -> bool:
        return self.lose_next.is_set() and _APPENDING_A_SUBMISSION in data

    def _lose_answer(self, upstream: socket.socket, command: bytes) -> None:
        """Redis runs the command; its answer goes nowhere and the client's connection drops."""
        self.lose_next.clear()
        if self.refuse_after.is_set():
            self.refusing.set()
        upstream.sendall(command)
        upstream.recv(65536)
        self.lost.set()
