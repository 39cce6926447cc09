"""marshmallow schemas of the HTTP API: request bodies, answers, and each game's moves."""

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from marshmallow import Schema

T = TypeVar("T")


@functools.cache
def loader(schema: type[Schema]) -> Schema:
    """One instance per schema: building a marshmallow schema costs more than loading with it,
    and loading keeps no state, so threads share the instance."""
    return schema()


def remembered(most: int, largest: int) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """An LRU of `most` answers for a function whose last argument is the bytes it reads: asked
    again the same, it answers what it answered (a refusal it raised is not remembered). Bytes
    longer than `largest` are read afresh, so what is remembered stays small whatever clients
    send."""

    def remember(read: Callable[..., T]) -> Callable[..., T]:
        cached = functools.lru_cache(maxsize=most)(read)

        @functools.wraps(read)
        def answer(*args: Any) -> T:
            return (read if len(args[-1]) > largest else cached)(*args)

        answer.cache_info = cached.cache_info  # type: ignore[attr-defined]
        return answer

    return remember
