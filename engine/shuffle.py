"""The deterministic shuffle of docs/api.md, Deterministic shuffles, exactly as published."""

import hashlib
import struct
from collections.abc import Iterator, Sequence
from itertools import chain, count
from typing import TypeVar

T = TypeVar("T")

# A digest is 32 bytes, eight whole words: no word of the contract's stream spans two digests.
_WORDS_OF_DIGEST = struct.Struct(">8I").unpack


def word_stream(seed: str, label: str) -> Iterator[int]:
    """The contract's byte stream (the digests of `seed|label|k` for k = 0, 1, 2, ...) read as
    the big-endian 32-bit words `uniform` takes from it: unpacked a digest at a time, since
    gathering four bytes one by one cost more than the hashing."""
    return chain.from_iterable(
        _WORDS_OF_DIGEST(hashlib.sha256(f"{seed}|{label}|{k}".encode()).digest())
        for k in count()
    )


def uniform(words: Iterator[int], n: int) -> int:
    """A uniform integer in [0, n), rejecting the biased top of the 32-bit range."""
    limit = 2**32 - (2**32 % n)
    while True:
        x = next(words)
        if x < limit:
            return x % n


def shuffle(cards: Sequence[T], seed: str, label: str) -> list[T]:
    """Fisher-Yates from the end; index 0 of the result is the top card."""
    s, a = word_stream(seed, label), list(cards)
    for i in range(len(a) - 1, 0, -1):
        j = uniform(s, i + 1)
        a[i], a[j] = a[j], a[i]
    return a
