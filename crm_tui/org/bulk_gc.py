"""Python's cyclic garbage collector held off while a bulk step builds many objects.

A report fetches and aggregates tens of thousands of records: dicts and tuples, none of
them in a reference cycle, which reference counting frees on its own. Each few hundred
allocations still wake the cyclic collector, and its older generations re-scan the whole
growing heap: a third of the time of a 100x report (measured with `gc.disable()`).
`collection_paused()` turns it off for the step and back on after it; nested and
concurrent steps (the loopback server answers in other threads) share one pause, and a
collector the program had turned off stays off.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0  # steps inside a pause
_resume = False  # whether the collector was on when the first step paused it


@contextmanager
def collection_paused() -> Iterator[None]:
    global _depth, _resume
    with _lock:
        if _depth == 0:
            _resume = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _resume:
                gc.enable()
