"""Rate limits: the `limits` library's fixed windows, counted on the Redis of REDIS_URL (where
RQ's queues live).

Five limits over the whole API, each set from the environment (TABLELOG_RATE_*, README): a
token's requests (`RATE_PER_TOKEN`), the requests of an address carrying no token
(`RATE_PER_ADDRESS`), the games an address creates (`RATE_NEW_GAMES`), the audits it asks for
(`RATE_AUDITS`: each new claim is a rebuild of the whole game), and the tokens refused
(401) to an address (`RATE_FAILED_AUTH`): past that one, every request carrying a token from the
address is refused, so that guessing tokens tells nothing. Fixed windows: one INCR a count.

A counter costs a round trip to Redis, and every request carrying a token would pay two (its
token's count, and a look at its address's refusals), a large part of a move's own cost. So a
request is counted against its token only, and its address's refusals are looked at only where
this process refused that address a token within the window (`_Refused`): an honest request
pays one round trip. The price: an address's first refusal in each web process goes uncounted,
so an address guessing through P processes has P more guesses a window.

The limits are picked for a request by a few comparisons and counted with the library's own
limiter: Flask-Limiter, which did the same through its general machinery (every limit's
exemption callbacks, its own request context), cost a move about a fifth of the web's time.

Refusals are 429 problems with Retry-After, the seconds until the window that refused ends.
While Redis is away the limits count in the process.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass

from flask import Flask, Response, request
from limits import RateLimitItem, parse_many
from limits.errors import StorageError
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import FixedWindowRateLimiter

from service.problems import problem_response

# Generous for honest use: a player posts a move every few seconds, a viewer steps through a
# game at most a few dozen requests a second.
DEFAULTS = {
    "RATE_PER_TOKEN": "100/second",
    "RATE_PER_ADDRESS": "100/second",
    "RATE_NEW_GAMES": "10/second;1000/hour",
    # A person checks a claim or two; a flood of distinct claims is a flood of full rebuilds,
    # which on a small machine takes CPU from judging moves however the queues are kept apart.
    "RATE_AUDITS": "5/second;300/hour",
    "RATE_FAILED_AUTH": "30/minute",
}
# Addresses remembered as refused before the expired ones are let go.
_REMEMBERED = 10_000
# After Redis failed a count, counts stay in the process this long before Redis is tried again.
_AWAY_S = 1.0
_NAMESPACE = "tl"


def out_of_reach() -> dict[str, str]:
    """The environment giving every limit a rate no client reaches: they still count (and cost
    what they cost), for the suite and the benchmark, whose clients share one address and play
    far faster than any person."""
    return {f"TABLELOG_{name}": "1000000/second" for name in DEFAULTS}


@dataclass(frozen=True)
class _Limit:
    scope: str
    rates: tuple[RateLimitItem, ...]
    counted: str  # what is counted, for the refusal's detail

    @classmethod
    def of(cls, rate: str, scope: str, counted: str) -> _Limit:
        return cls(scope, tuple(parse_many(rate)), f"more than {rate} {counted}")


class _Refused:
    """The addresses this process refused a token to, and when, for a window's length."""

    def __init__(self, window_s: int):
        self.window_s = window_s
        self.last: dict[str, float] = {}

    def saw(self, address: str) -> None:
        now = time.monotonic()
        if len(self.last) >= _REMEMBERED:
            self.last = {a: at for a, at in self.last.items() if now - at < self.window_s}
        self.last[address] = now

    def lately(self, address: str) -> bool:
        at = self.last.get(address)
        return at is not None and time.monotonic() - at < self.window_s


class _Counter:
    """Fixed-window counts on Redis, or in the process while Redis is away."""

    def __init__(self, storage_uri: str):
        self.shared = FixedWindowRateLimiter(storage_from_string(storage_uri,
                                                                 wrap_exceptions=True))
        self.own = FixedWindowRateLimiter(MemoryStorage())
        self.away_until = 0.0

    def hit(self, rate: RateLimitItem, scope: str, key: str) -> bool:
        return self._counted("hit", rate, scope, key)

    def test(self, rate: RateLimitItem, scope: str, key: str) -> bool:
        return self._counted("test", rate, scope, key)

    def resets_at(self, rate: RateLimitItem, scope: str, key: str) -> float:
        return self._limiter().get_window_stats(rate, _NAMESPACE, scope, key).reset_time

    def _counted(self, how: str, rate: RateLimitItem, scope: str, key: str) -> bool:
        try:
            return getattr(self._limiter(), how)(rate, _NAMESPACE, scope, key)
        except StorageError:
            self.away_until = time.monotonic() + _AWAY_S
            return getattr(self.own, how)(rate, _NAMESPACE, scope, key)

    def _limiter(self) -> FixedWindowRateLimiter:
        return self.own if time.monotonic() < self.away_until else self.shared


class _Limits:
    def __init__(self, config: dict):
        self.per_token = _Limit.of(config["RATE_PER_TOKEN"], "token", "requests with this token")
        self.per_address = _Limit.of(config["RATE_PER_ADDRESS"], "address",
                                     "requests with no token from this address")
        self.on_endpoint = {
            "games.create": _Limit.of(config["RATE_NEW_GAMES"], "new-games",
                                      "games created from this address"),
            "audits.audit": _Limit.of(config["RATE_AUDITS"], "audits",
                                      "audits asked from this address"),
        }
        self.failed_auth = _Limit.of(config["RATE_FAILED_AUTH"], "failed-auth",
                                     "refused tokens from this address")
        self.refused = _Refused(max(rate.get_expiry() for rate in self.failed_auth.rates))
        self.counter = _Counter(config.get("RATELIMIT_STORAGE_URI") or config["REDIS_URL"])

    def counted(self, token: str | None, address: str) -> Iterator[tuple[_Limit, str]]:
        """The limits a request counts against, each with the key it counts under."""
        if token is None:
            yield self.per_address, address
        else:
            yield self.per_token, token
        if (limit := self.on_endpoint.get(request.endpoint)) is not None:
            yield limit, address

    def check(self) -> Response | None:
        """A 429 when the request is past a limit: counted first, refused if over."""
        token, address = request.headers.get("Authorization"), _address()
        if token is not None and self.refused.lately(address):
            for rate in self.failed_auth.rates:
                if not self.counter.test(rate, self.failed_auth.scope, address):
                    return self._refusal(self.failed_auth, rate, address)
        for limit, key in self.counted(token, address):
            for rate in limit.rates:
                if not self.counter.hit(rate, limit.scope, key):
                    return self._refusal(limit, rate, key)
        return None

    def count_refusal(self, response: Response) -> Response:
        """A token refused (401) counts against its address, once this process refused that
        address before within the window."""
        if response.status_code == 401 and "Authorization" in request.headers:
            address = _address()
            if self.refused.lately(address):
                for rate in self.failed_auth.rates:
                    self.counter.hit(rate, self.failed_auth.scope, address)
            self.refused.saw(address)
        return response

    def _refusal(self, limit: _Limit, rate: RateLimitItem, key: str) -> Response:
        window = rate.get_expiry()
        ends = self.counter.resets_at(rate, limit.scope, key)
        # The window's end is a whole second: never past the window's own length.
        wait = min(window, max(1, math.ceil(ends - time.time())))
        answer = problem_response(429, "rate-limited", limit.counted)
        answer.headers["Retry-After"] = str(wait)
        return answer


def register(app: Flask) -> None:
    if not app.config.get("RATELIMIT_ENABLED", True):
        return
    limits = _Limits(app.config)
    app.before_request(limits.check)
    app.after_request(limits.count_refusal)


def _address() -> str:
    return request.remote_addr or "unknown"
