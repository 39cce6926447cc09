"""The process's heap, while much is made at once."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def uncollected() -> Iterator[None]:
    """No cyclic garbage collection for a while. A rebuild makes tens of thousands of
    containers (the log's entries, a state per step, the verdicts recomputed) that hold no
    cycles and that reference counting frees when it ends; the collector would walk them again
    and again meanwhile: some 300 passes an audit of a finished 4-player Coloretto game, 2 ms,
    and now and then a full one of the whole heap, 35 ms. Decoding a span of a compacted log
    makes some 2,000 (a seventh of its time)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
