"""Rate limits: fixed windows, counted on the game store's Redis (`store.counts`).

Five limits over the whole API, each set from the environment (TABLELOG_RATE_*, README): a
token's requests (`RATE_PER_TOKEN`), the requests of an address carrying no token
(`RATE_PER_ADDRESS`), the games an address creates (`RATE_NEW_GAMES`), the audits it asks for
(`RATE_AUDITS`: each new claim is a rebuild of the whole game), and the tokens refused
(401) to an address (`RATE_FAILED_AUTH`): past that one, every request carrying a token from the
address is refused, so that guessing tokens tells nothing. Fixed windows: one INCR a count.

A count costs a round trip to Redis, and every request carrying a token would pay two (its
token's count, and a look at its address's refusals), a large part of a move's own cost. So a
request is counted against its token only, and its address's refusals are looked at only where
this process refused that address a token within the window (`_Refused`): an honest request
pays one count. The price: an address's first refusal in each web process goes uncounted,
so an address guessing through P processes has P more guesses a window. A request about a game
pays no round trip of its own for its counts: they are taken with the game's context
(`service.web.about_game`), which it reads first anyway, or, for a move to a game its web
process knows, by the move's append (`service.auth.RememberedGames`, `Asked.take`). Every
rate of every limit it counts against is counted, refused or not.

The `limits` library parses the rates and counts in the process while Redis is away, or full
(it then refuses the counts' INCR but answers reads: a read about a game is answered all the
same).
Refusals are 429 problems with Retry-After, the seconds until the window that refused ends.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TypeVar

from flask import Flask, Response, current_app, request
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from redis.exceptions import RedisClusterException, RedisError

from service.problems import Problem
from store import keys
from store.counts import Count, Counts

T = TypeVar("T")

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


@dataclass(frozen=True)
class Counted:
    """One rate of a limit, as one request counts against it."""

    limit: _Limit
    rate: RateLimitItem
    key: str  # what is counted: a token's digest or an address
    hit: bool  # the request counts; else its count is only looked at
    game_id: str | None = None  # the game a token's requests are about (`store.keys.rate_count`)
    count: Count = field(init=False)  # where it is counted, made once

    def __post_init__(self) -> None:
        window_s, most = self.rate.get_expiry(), self.rate.amount
        key = keys.rate_count(self.limit.scope, self.key, most, window_s, self.game_id)
        object.__setattr__(self, "count", Count(key, window_s, self.hit, most))

    def allows(self, count: int) -> bool:
        return self.count.allows(count)


class _Counter:
    """Counts on the game store's Redis, or in the process while it is away."""

    def __init__(self, shared: Counts):
        self.shared = shared
        self.own = MemoryStorage()
        self.away_until = 0.0

    def take(self, counts: Sequence[Count]) -> list[int]:
        return self._either(lambda: self.shared.take(counts),
                            lambda: [self._own(count) for count in counts])

    def lapses_in_s(self, count: Count) -> float:
        return self._either(lambda: self.shared.lapses_in_s(count),
                            lambda: self.own.get_expiry(count.key) - time.time())

    def taken_here(self, counts: Sequence[Count]) -> list[int]:
        """Counts Redis refused to store (it is full), counted in the process instead, as
        the next ones are for a while, as while Redis is away."""
        self.away_until = time.monotonic() + _AWAY_S
        return [self._own(count) for count in counts]

    def _own(self, count: Count) -> int:
        return self.own.incr(count.key, count.window_s) if count.hit else self.own.get(count.key)

    def _either(self, shared: Callable[[], T], own: Callable[[], T]) -> T:
        if time.monotonic() >= self.away_until:
            try:
                return shared()
            except (RedisError, RedisClusterException):
                self.away_until = time.monotonic() + _AWAY_S
        return own()


class _Limits:
    def __init__(self, config: dict, counts: Counts):
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
        self.counter = _Counter(counts)

    def counted(self, game_id: str | None = None) -> list[Counted]:
        """What this request counts against (`counted_for`)."""
        return self.counted_for(request.headers.get("Authorization"), address(),
                                request.endpoint, game_id)

    def counted_for(self, token: str | None, address: str, endpoint: str | None,
                    game_id: str | None = None) -> list[Counted]:
        """What a request with this Authorization header, from this address, to this endpoint
        counts against: its token's requests (or its address's, without a token), its
        endpoint's own limit, and a look at its address's refused tokens.

        A token's count for a request about a game lives under that game's hash tag: a token
        is good for one game only, and the append of a move to it can take the count itself,
        on a Redis Cluster too (`store.log`)."""
        counted = []
        if token is not None and self.refused.lately(address):
            counted += _rates(self.failed_auth, address, hit=False)
        if token is None:
            counted += _rates(self.per_address, address)
        else:
            # Counted by its digest: a key's name is written to the append-only file, and a
            # token there would be anyone's who can read the data folder or a backup.
            counted += self.tokens_rates(token, game_id)
        if (limit := self.on_endpoint.get(endpoint)) is not None:
            counted += _rates(limit, address)
        return counted

    @lru_cache(maxsize=4096)  # noqa: B019 (one _Limits an app, living as long as it)
    def tokens_rates(self, token: str, game_id: str | None) -> list[Counted]:
        """A token's rates, the same for each of its requests: made once, not per request."""
        return _rates(self.per_token, _digest(token), game_id=game_id)

    def check(self) -> None:
        """Before a request: a 429 when it is past a limit. A request about a game is counted
        with its game's context instead, in the same round trip (`taken_with_context`)."""
        if _taken_with_context():
            return
        counted = self.counted()
        self.refuse_past(counted, self.counter.take([c.count for c in counted]))

    def refuse_past(self, counted: Sequence[Counted], counts: Sequence[int]) -> None:
        """A 429 (raised) when a count is past its rate."""
        for one, count in zip(counted, counts, strict=True):
            if not one.allows(count):
                raise self.refusal(one)

    def count_refusal(self, response: Response) -> Response:
        """A token refused (401) counts against its address, once this process refused that
        address before within the window."""
        if response.status_code == 401 and "Authorization" in request.headers:
            refused = address()
            if self.refused.lately(refused):
                self.counter.take([c.count for c in _rates(self.failed_auth, refused)])
            self.refused.saw(refused)
        return response

    def refusal(self, refused: Counted) -> Problem:
        window = refused.rate.get_expiry()
        # Never past the window's own length, nor under a second.
        wait = min(window, max(1, math.ceil(self.counter.lapses_in_s(refused.count))))
        return Problem(429, "rate-limited", refused.limit.counted,
                       headers={"Retry-After": str(wait)})


def _digest(authorization: str) -> str:
    return hashlib.sha256(authorization.encode()).hexdigest()[:32]


def _rates(limit: _Limit, key: str, hit: bool = True, game_id: str | None = None
           ) -> list[Counted]:
    return [Counted(limit, rate, key, hit, game_id) for rate in limit.rates]


def taken_with_context(view: Callable[..., T]) -> Callable[..., T]:
    """Mark a view whose request is counted with its game's context (`asked`)."""
    view.limits_taken_with_context = True  # type: ignore[attr-defined]
    return view


def _taken_with_context() -> bool:
    view = current_app.view_functions.get(request.endpoint or "")
    return getattr(view, "limits_taken_with_context", False)


class Asked:
    """The counts a request about a game takes, made once: with the game's context
    (`service.auth.callers_game`), or with its move's append (`take`), or, should the move be
    refused before its append, by `settle`."""

    def __init__(self, counted: Sequence[Counted] = (), limits: _Limits | None = None,
                 game_id: str | None = None):
        self.counted, self.limits = tuple(counted), limits
        self.counts = tuple(c.count for c in self.counted)
        # Every count lives under the game's hash tag: the append of a move can take them.
        self.with_append = all(c.game_id == game_id for c in self.counted)
        self.taken = False

    def refuse_past(self, taken: Sequence[int] | None) -> None:
        """A 429 (raised) when a count is past its rate; `taken` None: Redis refused to store
        the counts (full), and they are counted in the process."""
        if self.limits is not None:
            if taken is None:
                taken = self.limits.counter.taken_here(self.counts)
            self.limits.refuse_past(self.counted, taken)

    def take(self) -> tuple[Count, ...]:
        """The counts, for the move's append to take."""
        self.taken = self.limits is not None
        return self.counts

    def settle(self) -> None:
        """Take the counts now unless they were (a 429, raised, when one is past its rate)."""
        if not self.taken and self.limits is not None:
            self.taken = True
            self.refuse_past(self.limits.counter.take(self.counts))

    def refusal(self, index: int) -> Problem:
        """The 429 of the count at `index`, which the append found past its rate."""
        assert self.limits is not None
        return self.limits.refusal(self.counted[index])


UNLIMITED = Asked()  # never taken: it counts nothing


def asked(game_id: str) -> Asked:
    """For a view marked `taken_with_context`: the counts its request about `game_id` takes
    (none when the limits are off)."""
    limits: _Limits | None = current_app.extensions.get("limits")
    return UNLIMITED if limits is None else Asked(limits.counted(game_id), limits, game_id)


def asked_of(app: Flask, token: str | None, address: str | None, endpoint: str,
             game_id: str) -> Asked:
    """`asked`, for a request read off its WSGI environment rather than Flask's."""
    limits: _Limits | None = app.extensions.get("limits")
    if limits is None:
        return UNLIMITED
    return Asked(limits.counted_for(token, address or _UNKNOWN, endpoint, game_id), limits,
                 game_id)


def register(app: Flask) -> None:
    if not app.config.get("RATELIMIT_ENABLED", True):
        return
    limits = _Limits(app.config, app.extensions["store"].counts)
    app.extensions["limits"] = limits
    app.before_request(limits.check)
    app.after_request(limits.count_refusal)


def address() -> str:
    """The address a request came from, as every per-address limit counts it."""
    return request.remote_addr or _UNKNOWN


_UNKNOWN = "unknown"  # the address of a request whose server named none
