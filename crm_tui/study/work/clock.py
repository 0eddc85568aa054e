"""Every time the study layer reads goes through a `Clock`, so tests can fix it exactly."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def wall(self) -> datetime:
        """The current wall-clock time, timezone-aware UTC."""

    def monotonic_ms(self) -> int:
        """Milliseconds on a clock that never goes back (shared by processes on one boot)."""


class SystemClock:
    def wall(self) -> datetime:
        return datetime.now(UTC)

    def monotonic_ms(self) -> int:
        return time.monotonic_ns() // 1_000_000


class FakeClock:
    """A clock that moves only when told: `advance(seconds=...)` moves both readings."""

    def __init__(self, start: datetime | None = None, monotonic_ms: int = 1_000_000):
        self._wall = start or datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
        self._mono = monotonic_ms

    def wall(self) -> datetime:
        return self._wall

    def monotonic_ms(self) -> int:
        return self._mono

    def advance(self, seconds: float = 0, ms: int = 0) -> None:
        step = round(seconds * 1000) + ms
        self._wall += timedelta(milliseconds=step)
        self._mono += step


def as_utc(stamp: datetime) -> datetime:
    """A stamp read back from a store as aware UTC: SQLite hands back naive datetimes,
    which were written in UTC; PostgreSQL hands back aware ones, maybe in another zone."""
    return stamp.replace(tzinfo=UTC) if stamp.tzinfo is None else stamp.astimezone(UTC)
