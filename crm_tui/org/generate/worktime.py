"""When people act: agents' shifts, live chat's opening hours, customers' waking day.

All times in and out are naive UTC datetimes, as the generator stores them; local times
come from the IANA zone of the agent (User.TimeZoneSidKey) or of the customer's
ShippingState. Moving a time into a window only ever moves it forward, so the order of
events and the latent effects on durations (skill, state speed) keep their direction.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cache
from zoneinfo import ZoneInfo

# Live chat's hours as the org's channel article states them ("from 8 a.m. to 10 p.m.
# Eastern, seven days a week", kbtexts); chats start and end inside them.
CHAT_ZONE = "America/New_York"
CHAT_OPENS, CHAT_CLOSES = 8 * 60, 22 * 60
EVERY_DAY = frozenset(range(7))
WEEKDAYS = frozenset(range(5))
SUN_THU, TUE_SAT = frozenset((6, 0, 1, 2, 3)), frozenset((1, 2, 3, 4, 5))

STATE_ZONE: dict[str, str] = {
    **dict.fromkeys(
        ("CT", "FL", "GA", "IN", "KY", "MA", "MD", "ME", "MI", "NC", "NH", "NJ", "NY", "OH"),
        "America/New_York",
    ),
    **dict.fromkeys(("PA", "SC", "VA", "VT"), "America/New_York"),
    **dict.fromkeys(
        ("AL", "IA", "IL", "KS", "LA", "MN", "MO", "OK", "TN", "TX", "WI"), "America/Chicago"
    ),
    **dict.fromkeys(("CO", "ID", "NM", "UT"), "America/Denver"),
    "AZ": "America/Phoenix",
    **dict.fromkeys(("CA", "NV", "OR", "WA"), "America/Los_Angeles"),
    "HI": "Pacific/Honolulu",
}
# Customers' case openings by local hour: little at night, a morning and an evening peak.
HOUR_WEIGHTS = (0.4, 0.2, 0.1, 0.1, 0.1, 0.2, 0.6, 1.5, 3.0, 4.5, 5.0, 5.0) + (
    5.0,
    5.0,
    4.5,
    4.5,
    4.5,
    4.5,
    5.0,
    5.5,
    5.5,
    4.5,
    3.0,
    1.4,
)
WEEKEND_KEEP = 0.7  # share of weekend openings that stay on the weekend (the dip)


@dataclass(frozen=True)
class Shift:
    """An agent's working window: `start` and `length` in minutes of local time."""

    zone: str
    start: int
    length: int
    workdays: frozenset[int]


@cache
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


_UTC = ZoneInfo("UTC")


def to_local(t: datetime, zone: str) -> datetime:
    return t.replace(tzinfo=_UTC).astimezone(_zone(zone)).replace(tzinfo=None)


def to_utc(local: datetime, zone: str) -> datetime:
    return local.replace(tzinfo=_zone(zone)).astimezone(_UTC).replace(tzinfo=None)


def next_open(
    t: datetime, zone: str, start: int, end: int, days: frozenset[int], need: int = 0
) -> datetime:
    """The earliest time >= `t` inside the daily window [start, end - need) (minutes of
    local time) on one of `days`, so that `need` minutes still fit before it closes."""
    local = to_local(t, zone)
    for k in range(9):
        day = local.date() + timedelta(days=k)
        if day.weekday() not in days:
            continue
        midnight = datetime(day.year, day.month, day.day)
        opens, closes = (
            midnight + timedelta(minutes=start),
            midnight + timedelta(minutes=end - need),
        )
        if local < closes:
            return to_utc(max(local, opens), zone)
    return t  # no such window (empty day set): leave the time alone


def _settled(
    r: random.Random | None, t: datetime, moved: datetime, snap: Callable[[datetime], datetime]
) -> datetime:
    """A time that had to move lands a little after the window opens, not on the minute
    (nobody answers at 9:00:00 sharp every day); `snap` keeps it inside the window."""
    if r is None or moved == t:
        return moved
    return snap(moved + timedelta(minutes=r.randint(1, 45), seconds=r.randrange(60)))


def at_work(shift: Shift, t: datetime, r: random.Random | None = None) -> datetime:
    """The earliest time >= `t` the agent is at work (with `r`: a little later if moved)."""

    def snap(x: datetime) -> datetime:
        return next_open(x, shift.zone, shift.start, shift.start + shift.length, shift.workdays)

    return _settled(r, t, snap(t), snap)


def after_work(shift: Shift, t: datetime, minutes: float) -> datetime:
    """When `minutes` of the agent's working time after `t` have passed: work stops at the
    end of a shift and goes on at the next, so durations keep their proportions."""
    left = timedelta(minutes=minutes)
    t = at_work(shift, t)
    for _ in range(100_000):
        local = to_local(t, shift.zone)
        midnight = local.replace(hour=0, minute=0, second=0, microsecond=0)
        ends = to_utc(midnight + timedelta(minutes=shift.start + shift.length), shift.zone)
        if left <= ends - t:
            return t + left
        left -= ends - t
        t = at_work(shift, ends + timedelta(seconds=1))
    return t


def chat_start(shift: Shift, t: datetime, minutes: int, r: random.Random | None = None) -> datetime:
    """The earliest time >= `t` at which a chat of `minutes` fits both the agent's shift and
    live chat's stated hours (with `r`: a little later if moved)."""

    def snap(x: datetime) -> datetime:
        for _ in range(30):
            a = next_open(
                x, shift.zone, shift.start, shift.start + shift.length, shift.workdays, minutes
            )
            b = next_open(a, CHAT_ZONE, CHAT_OPENS, CHAT_CLOSES, EVERY_DAY, minutes)
            if a == b:
                return a
            x = b
        return x

    return _settled(r, t, snap(t), snap)


def awake(t: datetime, state: str, r: random.Random | None = None) -> datetime:
    """The earliest time >= `t` a customer of `state` writes (7:00-23:00 local; with `r`:
    a little later if moved)."""

    def snap(x: datetime) -> datetime:
        return next_open(x, STATE_ZONE.get(state, CHAT_ZONE), 7 * 60, 23 * 60, EVERY_DAY)

    return _settled(r, t, snap(t), snap)


def opening_time(r: random.Random, day: date, state: str) -> datetime:
    """When a customer of `state` opens a case on about `day`: a weekend opening moves to
    the Monday with probability 1 - WEEKEND_KEEP; the hour follows HOUR_WEIGHTS."""
    if day.weekday() >= 5 and r.random() > WEEKEND_KEEP:
        day += timedelta(days=7 - day.weekday())
    hour = r.choices(range(24), HOUR_WEIGHTS)[0]
    local = datetime(day.year, day.month, day.day, hour, r.randrange(60), r.randrange(60))
    return to_utc(local, STATE_ZONE.get(state, CHAT_ZONE))


def draw_shift(r: random.Random, zone: str) -> Shift:
    """A support agent's week: 8.5 hours starting 7:00-12:00 local (so never past 21:00),
    mostly Monday-Friday, some covering a weekend day."""
    start = r.choice((7, 8, 8, 9, 9, 10, 11, 12)) * 60
    days = r.choices((WEEKDAYS, SUN_THU, TUE_SAT), (70, 15, 15))[0]
    return Shift(zone, start, 8 * 60 + 30, days)
