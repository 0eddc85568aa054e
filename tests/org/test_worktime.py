"""When the generator's people act (worktime): shifts, chat hours, waking hours, curves."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta

from crm_tui.org.generate import worktime as wt

# 9:00-17:30 Pacific, Monday to Friday
SHIFT = wt.Shift("America/Los_Angeles", 9 * 60, 8 * 60 + 30, wt.WEEKDAYS)


def local(t: datetime, zone: str = "America/Los_Angeles") -> datetime:
    return wt.to_local(t, zone)


def test_at_work_moves_a_night_or_weekend_time_to_the_next_shift_start():
    friday_night = wt.to_utc(datetime(2024, 3, 8, 22, 0), SHIFT.zone)
    moved = wt.at_work(SHIFT, friday_night)
    assert local(moved) == datetime(2024, 3, 11, 9, 0)  # Monday (across the DST change)
    inside = wt.to_utc(datetime(2024, 3, 12, 10, 30), SHIFT.zone)
    assert wt.at_work(SHIFT, inside) == inside


def test_a_moved_time_lands_a_little_after_the_opening_inside_the_shift():
    r = random.Random(1)
    night = wt.to_utc(datetime(2024, 3, 12, 3, 0), SHIFT.zone)
    for _ in range(50):
        moved = local(wt.at_work(SHIFT, night, r))
        assert datetime(2024, 3, 12, 9, 1) <= moved <= datetime(2024, 3, 12, 9, 46)


def test_after_work_counts_only_working_time():
    monday_4pm = wt.to_utc(datetime(2024, 6, 3, 16, 0), SHIFT.zone)
    # 90 minutes left on Monday, the other 60 on Tuesday morning
    done = wt.after_work(SHIFT, monday_4pm, 150)
    assert local(done) == datetime(2024, 6, 4, 10, 0)
    # a whole week of work is five shifts: back at the same time a week later
    week = wt.after_work(SHIFT, monday_4pm, 5 * SHIFT.length)
    assert local(week) == datetime(2024, 6, 10, 16, 0)


def test_a_chat_fits_the_agents_shift_and_the_stated_chat_hours():
    # an Eastern agent working 6:00-14:30: chats only from 8:00 Eastern
    early = wt.Shift("America/New_York", 6 * 60, 8 * 60 + 30, wt.EVERY_DAY)
    start = wt.chat_start(early, wt.to_utc(datetime(2024, 1, 5, 6, 10), early.zone), 60)
    assert local(start, early.zone) == datetime(2024, 1, 5, 8, 0)
    # too late for a 60-minute chat before the shift ends at 14:30: the next day
    late = wt.chat_start(early, wt.to_utc(datetime(2024, 1, 5, 13, 45), early.zone), 60)
    assert local(late, early.zone) == datetime(2024, 1, 6, 8, 0)


def test_customers_write_awake_and_open_fewer_cases_at_weekends():
    night = wt.to_utc(datetime(2024, 5, 1, 2, 0), "America/Chicago")
    assert local(wt.awake(night, "TX"), "America/Chicago") == datetime(2024, 5, 1, 7, 0)
    r = random.Random(3)
    saturday = date(2024, 5, 4)
    opened = [wt.opening_time(r, saturday, "TX") for _ in range(2000)]
    on_weekend = sum(1 for t in opened if local(t, "America/Chicago").weekday() >= 5)
    assert 0.6 < on_weekend / len(opened) < 0.8  # WEEKEND_KEEP, the rest on Monday
    hours = [local(t, "America/Chicago").hour for t in opened]
    assert sum(1 for h in hours if h < 6) < 0.05 * len(hours) < sum(1 for h in hours if h == 12)


def test_shifts_end_before_nine_at_night():
    r = random.Random(5)
    for _ in range(200):
        shift = wt.draw_shift(r, "America/Denver")
        assert shift.start + shift.length <= 21 * 60
        assert len(shift.workdays) == 5
    assert timedelta(minutes=SHIFT.length) == timedelta(hours=8, minutes=30)
