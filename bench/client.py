"""One keep-alive HTTP connection, as each simulated client holds."""

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
        self.conn.request("POST", path, body, headers)
        reply = self.conn.getresponse()
        return reply.status, reply.read()

    def get(self, path: str, token: str | None = None) -> Any:
        """GET a JSON answer, insisting on success."""
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.conn.request("GET", path, headers=headers)
        reply = self.conn.getresponse()
        raw = reply.read()
        if reply.status >= 300:
            raise SystemExit(f"GET {path} answered {reply.status}: {raw[:300]!r}")
        return orjson.loads(raw)

    def call(self, path: str, body: Any, token: str | None = None) -> Any:
        """POST a JSON body and read a JSON answer, insisting on success."""
        status, raw = self.post(path, orjson.dumps(body), token)
        if status >= 300:
            raise SystemExit(f"POST {path} answered {status}: {raw[:300]!r}")
        return orjson.loads(raw)
