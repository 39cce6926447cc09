"""NDJSON: the log a line an entry, streamed as it is written out."""

from collections.abc import Iterable, Iterator
from typing import Any

import orjson
from flask import Response


def ndjson(entries: Iterable[dict[str, Any]]) -> Response:
    def lines() -> Iterator[bytes]:
        for entry in entries:
            yield orjson.dumps(entry) + b"\n"

    return Response(lines(), mimetype="application/x-ndjson")
