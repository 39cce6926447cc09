"""The one place the command line speaks HTTP: the server's base URL, the bearer token, bounded
retries of a busy server, and every failure turned into one sentence and an exit code.

Exit codes are the issue's: 0 done, 1 a move rejected or a check that fails, 2 bad usage or no
server. Click's own usage errors exit 2 as well.
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import click
import requests

DEFAULT_URL = "http://127.0.0.1:8000"
USAGE, FAILED = 2, 1
# A busy server (429) or one whose store is failing over (503) says when to come back: wait as
# it asks, but never longer than this per try, nor more than `_RETRIES` times.
_RETRIES = 3
_LONGEST_PAUSE_S = 10.0
# Connecting is quick or nothing listens; a read may wait for a verdict (the API waits at most
# 10 s) and a followed stream stays quiet until an entry lands (a connection lasts about 25 s).
_CONNECT_S, _READ_S, _STREAM_READ_S = 5.0, 30.0, 60.0


class Failure(click.ClickException):
    """One sentence for the user, and the exit code that goes with it."""

    def __init__(self, sentence: str, exit_code: int = USAGE):
        super().__init__(sentence)
        self.exit_code = exit_code

    def show(self, file=None) -> None:
        click.echo(self.message, err=True)


class Refused(Failure):
    """The server answered with a problem (RFC 9457): its `code`, status and whole body."""

    def __init__(self, status: int, problem: dict[str, Any]):
        super().__init__(_sentence(status, problem))
        self.status, self.problem = status, problem
        self.code = problem.get("code")


def _sentence(status: int, problem: dict[str, Any]) -> str:
    detail = problem.get("detail") or problem.get("title") or f"status {status}"
    errors = problem.get("errors")
    if errors:
        detail += ": " + "; ".join(_flatten(errors))
    code = problem.get("code")
    detail = detail[0].upper() + detail[1:]
    return f"{detail.rstrip('.')}" + (f" ({code})." if code else ".")


def _flatten(errors: Any, where: str = "") -> Iterator[str]:
    """Marshmallow's nested messages as `field.sub: message`."""
    if isinstance(errors, dict):
        for key, value in errors.items():
            yield from _flatten(value, f"{where}.{key}" if where else str(key))
    elif isinstance(errors, list) and all(isinstance(e, str) for e in errors):
        yield f"{where}: {' '.join(errors)}" if where else " ".join(errors)
    else:
        yield f"{where}: {errors}"


def _pause(answer: requests.Response) -> float | None:
    """How long the server asks us to wait (seconds or an HTTP date), None if it does not."""
    value = answer.headers.get("Retry-After")
    if value is None:
        return None
    if value.strip().isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


class Client:
    """The API at `url`, as the holder of `token` (a spectator without one)."""

    def __init__(self, url: str, token: str | None = None):
        self.url, self.token = url.rstrip("/"), token
        self.session = requests.Session()

    def close(self) -> None:
        self.session.close()

    def get(self, path: str, **params: Any) -> Any:
        return self.send("GET", path, params=params).json()

    def post(self, path: str, body: Any = None, **params: Any) -> Any:
        return self.send("POST", path, json=body, params=params).json()

    def lines(self, path: str, **params: Any) -> Iterator[bytes]:
        """An NDJSON stream, a line at a time, until the server ends it."""
        headers = {"Accept": "application/x-ndjson"}
        with self.send("GET", path, params=params, headers=headers, stream=True) as answer:
            try:
                yield from (line for line in answer.iter_lines() if line)
            except requests.RequestException as error:
                raise Failure(f"The stream from {self.url} broke off: {_reason(error)}.") from None

    def send(self, method: str, path: str, *, headers: dict[str, str] | None = None,
             stream: bool = False, **kwargs: Any) -> requests.Response:
        """The answer to one request, retried while the server asks for patience; a problem
        raises `Refused`, no server `Failure`."""
        headers = {**self._auth(), **(headers or {})}
        timeout = (_CONNECT_S, _STREAM_READ_S if stream else _READ_S)
        for attempt in range(_RETRIES + 1):
            try:
                answer = self.session.request(method, self.url + path, headers=headers,
                                              stream=stream, timeout=timeout, **kwargs)
            except requests.ConnectionError:
                raise Failure(f"No tablelog server answers at {self.url}.") from None
            except requests.RequestException as error:
                raise Failure(f"The server at {self.url} failed: {_reason(error)}.") from None
            pause = _pause(answer) if answer.status_code in (429, 503) else None
            if pause is None or attempt == _RETRIES:
                break
            answer.close()
            time.sleep(min(pause, _LONGEST_PAUSE_S))
        if answer.status_code >= 400:
            raise Refused(answer.status_code, _problem(answer))
        if not stream:
            self._check_json(answer)
        return answer

    def _check_json(self, answer: requests.Response) -> None:
        try:
            answer.json()
        except ValueError:
            raise Failure(f"The server at {self.url} answered something other than JSON: "
                          f"is it a tablelog server?") from None

    def _auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


def _problem(answer: requests.Response) -> dict[str, Any]:
    try:
        body = answer.json()
    except ValueError:
        body = None
    if isinstance(body, dict):
        return body
    return {"detail": f"the server answered {answer.status_code} {answer.reason}"}


def _reason(error: requests.RequestException) -> str:
    if isinstance(error, requests.Timeout):
        return "it did not answer in time"
    return type(error).__name__
