"""Wall and active time of an attempt, derived from its event log alone.

Active time counts the spans between consecutive events while the attempt is running:
opened (or resumed after a pause), not paused, and the app focused. The span that ends
at an `opened` event never counts: it covers time the attempt was not on screen, such
as a process that died. So after kill -9 the attempt keeps the active time up to its
last event; the TUI writes a heartbeat every HEARTBEAT_S seconds while running, which
caps what a crash can lose (a kill seven seconds into a query once lost all seven). Spans are measured on the monotonic clock (immune to wall
clock changes); wall time is last event minus first `opened`, on the wall clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from crm_tui.study.store.models import EventKind


class Stamped(Protocol):
    """What timing reads of an event (an `Event` row, or just these columns of it)."""

    @property
    def kind(self) -> str: ...
    @property
    def wall(self) -> datetime: ...
    @property
    def monotonic_ms(self) -> int: ...
    @property
    def app_session(self) -> str | None: ...


# One small event a second: a kill at any moment loses at most about a second of active
# time (a 45-minute query writes some 2,700 rows, a few milliseconds each).
HEARTBEAT_S = 1

_STOPS = {EventKind.CLOSED, EventKind.ANSWER_SUBMITTED, EventKind.SKIPPED, EventKind.EXPIRED}


@dataclass(frozen=True)
class Timing:
    opened_at: datetime | None  # wall stamp of the first `opened`
    wall_ms: int
    active_ms: int
    running: bool  # the clock was counting when the last event was written
    last_monotonic_ms: int
    last_app_session: str | None

    def live_active_ms(self, now_monotonic_ms: int, app_session: str) -> int:
        """Active time now, for this process's own running attempt (its timer)."""
        if not self.running or self.last_app_session != app_session:
            return self.active_ms
        return self.active_ms + max(0, now_monotonic_ms - self.last_monotonic_ms)


def derive(events: Sequence[Stamped]) -> Timing:
    """Timing from an attempt's events in the order they were written."""
    if not events:
        return Timing(None, 0, 0, False, 0, None)
    active = 0
    running = paused = False
    focused = True
    previous: Stamped | None = None
    for event in events:
        counting = running and not paused and focused
        if previous is not None and counting and event.kind != EventKind.OPENED:
            active += max(0, event.monotonic_ms - previous.monotonic_ms)
        match event.kind:
            case EventKind.OPENED:
                running, paused, focused = True, False, True
            case EventKind.PAUSED:
                paused = True
            case EventKind.RESUMED:
                paused = False
            case EventKind.FOCUS_LOST:
                focused = False
            case EventKind.FOCUS_REGAINED:
                focused = True
            case kind if kind in _STOPS:
                running = False
        previous = event
    first_open = next((e for e in events if e.kind == EventKind.OPENED), events[0])
    wall_ms = round((events[-1].wall - first_open.wall).total_seconds() * 1000)
    return Timing(
        opened_at=first_open.wall,
        wall_ms=max(0, wall_ms),
        active_ms=active,
        running=running and not paused and focused,
        last_monotonic_ms=events[-1].monotonic_ms,
        last_app_session=events[-1].app_session,
    )
