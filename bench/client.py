"""One keep-alive HTTP connection, as each simulated client holds, opened again when the server
closed it while it sat idle (gunicorn closes a keep-alive connection idle for 2 s)."""

from __future__ import annotations

import http.client
from typing import Any
from urllib.parse import urlparse

import orjson


class Client:
    def __init__(self, base: str):
        url = urlparse(base)
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)

    def post(self, path: str, body: bytes, token: str | None = None) -> tuple[int, bytes]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self._send("POST", path, body, headers)

    def get(self, path: str, token: str | None = None) -> Any:
        """GET a JSON answer, insisting on success."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        status, raw = self._send("GET", path, None, headers)
        if status >= 300:
            raise SystemExit(f"GET {path} answered {status}: {raw[:300]!r}")
        return orjson.loads(raw)

    def _send(self, method: str, path: str, body: bytes | None,
              headers: dict[str, str]) -> tuple[int, bytes]:
        try:
            return self._exchange(method, path, body, headers)
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            # Closed by the server while idle, it failed before the server read the request:
            # sent again on a new connection, it is sent once.
            self.conn.close()
            return self._exchange(method, path, body, headers)

    def _exchange(self, method: str, path: str, body: bytes | None,
                  headers: dict[str, str]) -> tuple[int, bytes]:
        self.conn.request(method, path, body, headers)
        reply = self.conn.getresponse()
        return reply.status, reply.read()

    def call(self, path: str, body: Any, token: str | None = None) -> Any:
        """POST a JSON body and read a JSON answer, insisting on success."""
        status, raw = self.post(path, orjson.dumps(body), token)
        if status >= 300:
            raise SystemExit(f"POST {path} answered {status}: {raw[:300]!r}")
        return orjson.loads(raw)
