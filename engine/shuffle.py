"""The deterministic shuffle of CONTRACT.md section 8, exactly as published."""

import hashlib
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")


def byte_stream(seed: str, label: str) -> Iterator[int]:
    k = 0
    while True:
        yield from hashlib.sha256(f"{seed}|{label}|{k}".encode()).digest()
        k += 1


def uniform(stream: Iterator[int], n: int) -> int:
    """A uniform integer in [0, n), rejecting the biased top of the 32-bit range."""
    limit = 2**32 - (2**32 % n)
    while True:
        x = int.from_bytes(bytes(next(stream) for _ in range(4)), "big")
        if x < limit:
            return x % n


def shuffle(cards: Sequence[T], seed: str, label: str) -> list[T]:
    """Fisher-Yates from the end; index 0 of the result is the top card."""
    s, a = byte_stream(seed, label), list(cards)
    for i in range(len(a) - 1, 0, -1):
        j = uniform(s, i + 1)
        a[i], a[j] = a[j], a[i]
    return a
