"""Rate limits: Flask-Limiter, its counters on the Redis of REDIS_URL (where RQ's queues live).

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

Refusals are 429 problems with Retry-After, the seconds until the window that refused ends.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from flask import Flask, Response, request
from flask_limiter import ApplicationLimit, Limiter
from flask_limiter.errors import RateLimitExceeded
from limits import parse_many

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


def out_of_reach() -> dict[str, str]:
    """The environment giving every limit a rate no client reaches: they still count (and cost
    what they cost), for the suite and the benchmark, whose clients share one address and play
    far faster than any person."""
    return {f"TABLELOG_{name}": "1000000/second" for name in DEFAULTS}


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


def register(app: Flask) -> None:
    config = app.config
    failed_auth = config["RATE_FAILED_AUTH"]
    refused = _Refused(max(item.get_expiry() for item in parse_many(failed_auth)))
    limiter = Limiter(
        _address,
        app=app,
        storage_uri=config.get("RATELIMIT_STORAGE_URI") or config["REDIS_URL"],
        strategy="fixed-window",
        key_prefix="tl",
        # Redis away: count in the process meanwhile, so that what needs no Redis still answers
        # (and what does answers 503 store-unavailable, service.problems), rather than a 500.
        in_memory_fallback_enabled=True,
        swallow_errors=True,
        application_limits=[
            _limit(config["RATE_PER_TOKEN"], "token", "requests with this token", _token,
                   exempt_when=_anonymous),
            _limit(config["RATE_PER_ADDRESS"], "address",
                   "requests with no token from this address", _address, exempt_when=_has_token),
            _limit(config["RATE_NEW_GAMES"], "new-games", "games created from this address",
                   _address, exempt_when=_not_creating),
            _limit(config["RATE_AUDITS"], "audits", "audits asked from this address",
                   _address, exempt_when=_not_auditing),
            _limit(failed_auth, "failed-auth", "refused tokens from this address", _address,
                   exempt_when=lambda: _anonymous() or not refused.lately(_address()),
                   deduct_when=_refused),
        ],
    )

    @app.after_request
    def _remember_refusals(response: Response) -> Response:
        if _refused(response) and _has_token():
            refused.saw(_address())
        return response

    @app.errorhandler(RateLimitExceeded)
    def _too_many(e: RateLimitExceeded) -> Response:
        window = e.limit.limit.get_expiry()
        ends = limiter.current_limit.reset_at if limiter.current_limit else time.time() + window
        # reset_at is rounded up to the next second: never past the window's own length.
        wait = min(window, max(1, math.ceil(ends - time.time())))
        answer = problem_response(429, "rate-limited", e.description)
        answer.headers["Retry-After"] = str(wait)
        return answer


def _limit(rate: str, scope: str, counted: str, key: Callable[[], str],
           **when: Callable) -> ApplicationLimit:
    return ApplicationLimit(
        rate, key_function=key, scope=scope, error_message=f"more than {rate} {counted}", **when
    )


def _address() -> str:
    return request.remote_addr or "unknown"


def _token() -> str:
    return request.headers["Authorization"]


def _anonymous() -> bool:
    return "Authorization" not in request.headers


def _has_token() -> bool:
    return "Authorization" in request.headers


def _not_creating() -> bool:
    return request.endpoint != "games.create"


def _not_auditing() -> bool:
    return request.endpoint != "audits.audit"


def _refused(response: Response) -> bool:
    return response.status_code == 401
