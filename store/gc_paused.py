"""The cyclic garbage collector paused while much is made at once."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def uncollected() -> Iterator[None]:
    """No cyclic garbage collection for a while. A rebuild makes tens of thousands of
    containers (the log's entries, a state per step, the verdicts recomputed) that hold no
    cycles and that reference counting frees when it ends; the collector would walk them again
    and again meanwhile, and now and then the whole heap: a part of an audit's time, and more of
    decoding a span of a compacted log, spent finding no garbage (docs/benchmarks.md,
    2026-12-06, figures moved out of the code)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
