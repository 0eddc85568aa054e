"""Periods of time that queries name, with CRMArena's semantics.

A period is [start, end) for Case queries and [start, end] for case-history counts: the
gold functions choose the inclusivity, this module only does the calendar arithmetic.
"Past N units" ends at today 00:00 UTC and starts N calendar units earlier (a quarter is
three months, the past year twelve). Named periods: a month, a quarter Q1-Q4, or a
season; "Winter YEAR" runs from Dec 1 YEAR to Mar 1 YEAR+1.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import cached_property
from typing import TypeVar

from crm_tui.org.schema.sftime import format_datetime

MONTHS = tuple(calendar.month_name[1:])
QUARTERS = {"Q1": 1, "Q2": 4, "Q3": 7, "Q4": 10}  # first month
SEASONS = {"Spring": 3, "Summer": 6, "Fall": 9, "Winter": 12}  # first month
UNIT_MONTHS = {"months": 1, "quarters": 3, "years": 12}
NUMBER_WORDS = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
)


@dataclass(frozen=True)
class Period:
    """A time span a query refers to; `label` is its canonical name ("Q4 2022", "past 3 months")."""

    start: datetime
    end: datetime
    label: str
    named: bool

    # Cached: the golds compare every row's time with these.
    @cached_property
    def sf_start(self) -> str:
        return format_datetime(self.start)

    @cached_property
    def sf_end(self) -> str:
        return format_datetime(self.end)

    @property
    def months(self) -> int:
        """Whole calendar months spanned (for window limits)."""
        from dateutil.relativedelta import relativedelta  # only here: drafts never ask

        delta = relativedelta(self.end, self.start)
        return delta.years * 12 + delta.months


def named_period(name: str, year: int) -> Period:
    """A month ("March"), a quarter ("Q2") or a season ("Winter") of `year`."""
    if name in MONTHS:
        first, length = MONTHS.index(name) + 1, 1
    elif name in QUARTERS:
        first, length = QUARTERS[name], 3
    elif name in SEASONS:
        first, length = SEASONS[name], 3
    else:
        raise ValueError(f"Unknown period name {name!r}")
    start = datetime(year, first, 1)
    return Period(start, _add_months(start, length), f"{name} {year}", named=True)


def relative_period(today: date, n: int, unit: str) -> Period:
    """The past `n` days, weeks, months, quarters or years before `today` (today excluded)."""
    end = datetime(today.year, today.month, today.day)
    if unit in UNIT_MONTHS:
        start = _add_months(end, -n * UNIT_MONTHS[unit])
    elif unit in ("days", "weeks"):
        start = add_units(end, -n, unit)
    else:
        raise ValueError(f"Unknown unit {unit!r}")
    return Period(start, end, f"past {n} {unit[:-1] if n == 1 else unit}", named=False)


def offset_before(today: date, n: int, unit: str) -> date:
    """The calendar day `n` days/weeks/months before `today` (NED's purchase day)."""
    return add_units(today, -n, unit)


_Day = TypeVar("_Day", date, datetime)


def add_units(day: _Day, n: int, unit: str) -> _Day:
    """`day` plus `n` (minus, when negative) calendar days, weeks, months or years, as
    dateutil's relativedelta adds them (done here: drafts add thousands of them)."""
    if unit == "days":
        return day + timedelta(days=n)
    if unit == "weeks":
        return day + timedelta(weeks=n)
    if unit == "months":
        return _add_months(day, n)
    if unit == "years":
        return _add_months(day, 12 * n)
    raise ValueError(f"Unknown unit {unit!r}")


def _add_months(day: _Day, months: int) -> _Day:
    """The same day `months` calendar months on, or that month's last day if it is shorter."""
    year, month = divmod(day.year * 12 + day.month - 1 + months, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return day.replace(year=year, month=month + 1, day=min(day.day, last))


def number_word(n: int) -> str:
    return NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n)


def period_phrases(period: Period) -> list[str]:
    """Ways to say the period inside a sentence: "in Q4 2022", "over the past three months"."""
    if period.named:
        name, year = period.label.split()
        if name in SEASONS:
            return [f"in {name} {year}", f"during {name} {year}"]
        if name in QUARTERS:
            return [f"in {name} {year}", f"during {name} of {year}"]
        return [f"in {name} {year}", f"during {name} {year}"]
    _, n_text, unit = period.label.split()
    n = int(n_text)
    if unit == "year":
        return ["in the past year", "over the last year", "during the past twelve months"]
    words = [f"{number_word(n)} {unit}", f"{n} {unit}"]
    return [
        f"{lead} {w}" for lead in ("in the past", "over the last", "during the past") for w in words
    ]
