"""The deterministic shuffle of CONTRACT.md section 8, exactly as published."""

import hashlib
from collections.abc import Iterator, Sequence
from itertools import chain, count, islice
from typing import TypeVar

T = TypeVar("T")


def byte_stream(seed: str, label: str) -> Iterator[int]:
    """The bytes of the digests of `seed|label|k` for k = 0, 1, 2, ...: the contract's
    generator, with its bytes handed out by itertools rather than one `yield` each."""
    return chain.from_iterable(
        hashlib.sha256(f"{seed}|{label}|{k}".encode()).digest() for k in count()
    )


def uniform(stream: Iterator[int], n: int) -> int:
    """A uniform integer in [0, n), rejecting the biased top of the 32-bit range."""
    limit = 2**32 - (2**32 % n)
    while True:
        # The next four bytes, as the contract's `bytes(next(stream) for _ in range(4))`
        # reads them, taken in one call: every deal draws dozens of words.
        x = int.from_bytes(bytes(islice(stream, 4)), "big")
        if x < limit:
            return x % n


def shuffle(cards: Sequence[T], seed: str, label: str) -> list[T]:
    """Fisher-Yates from the end; index 0 of the result is the top card."""
    s, a = byte_stream(seed, label), list(cards)
    for i in range(len(a) - 1, 0, -1):
        j = uniform(s, i + 1)
        a[i], a[j] = a[j], a[i]
    return a
