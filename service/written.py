"""An answer as a WSGI server is handed it: a status, headers and a body, made once.

A view turns it into a Flask `Response` (`response`). The move lane (`service.move_lane`) hands it
to the WSGI server as it is: building a Response and having Werkzeug finalize it was a large share
of a move's CPU on the lane (docs/benchmarks.md, 2026-12-06). Werkzeug would add nothing to these
answers but their Content-Length, which is written here too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from flask import Response
from werkzeug.http import HTTP_STATUS_CODES


class Written(NamedTuple):
    status: int
    body: bytes
    headers: tuple[tuple[str, str], ...]  # the Content-Type among them; ASCII values only

    def response(self) -> Response:
        return Response(self.body, status=self.status, headers=list(self.headers))

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]
                 ) -> Iterable[bytes]:
        start_response(_STATUS_LINES[self.status],
                       [*self.headers, ("Content-Length", str(len(self.body)))])
        return [self.body]


# As Werkzeug writes them.
_STATUS_LINES = {code: f"{code} {phrase.upper()}" for code, phrase in HTTP_STATUS_CODES.items()}
