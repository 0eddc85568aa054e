"""Waiting for a condition in tests, polled, instead of sleeping a guessed time (a guess
that holds on a quiet machine fails under CI's load)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_until(
    condition: Callable[[], Any],
    what: str,
    timeout: float = 20.0,
    pause: Callable[[], Any] = lambda: time.sleep(0.1),
) -> Any:
    """The first true value of `condition()`, polled; AssertionError naming `what` after
    `timeout` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if value := condition():
            return value
        pause()
    raise AssertionError(f"waited {timeout:g} s for {what}")
