"""SOQL date literals (TODAY, LAST_N_DAYS:n, THIS_QUARTER, ...) as [start, end) day ranges.

Weeks start on Sunday (the en_US locale) and days are UTC days, since the store keeps
times in UTC.
"""

from __future__ import annotations

from datetime import date, timedelta

from dateutil.relativedelta import relativedelta

UNITS = ("DAY", "WEEK", "MONTH", "QUARTER", "YEAR")
_PLURAL = {
    "DAYS": "DAY",
    "WEEKS": "WEEK",
    "MONTHS": "MONTH",
    "QUARTERS": "QUARTER",
    "YEARS": "YEAR",
}

# Literals without a number: name -> (unit, first period offset, number of periods).
_FIXED = {
    "YESTERDAY": ("DAY", -1, 1),
    "TODAY": ("DAY", 0, 1),
    "TOMORROW": ("DAY", 1, 1),
    "LAST_90_DAYS": ("DAY", -90, 91),
    "NEXT_90_DAYS": ("DAY", 1, 90),
}
for _unit in ("WEEK", "MONTH", "QUARTER", "YEAR"):
    _FIXED[f"LAST_{_unit}"] = (_unit, -1, 1)
    _FIXED[f"THIS_{_unit}"] = (_unit, 0, 1)
    _FIXED[f"NEXT_{_unit}"] = (_unit, 1, 1)

DATE_LITERALS = frozenset(_FIXED)
N_DATE_LITERALS = frozenset(
    [f"{kind}_N_{plural}" for kind in ("LAST", "NEXT") for plural in _PLURAL]
    + [f"N_{plural}_AGO" for plural in _PLURAL]
)


def _period_start(day: date, unit: str) -> date:
    if unit == "DAY":
        return day
    if unit == "WEEK":
        return day - timedelta(days=(day.weekday() + 1) % 7)  # back to Sunday
    if unit == "MONTH":
        return day.replace(day=1)
    if unit == "QUARTER":
        return date(day.year, 3 * ((day.month - 1) // 3) + 1, 1)
    return date(day.year, 1, 1)


def _shift(day: date, unit: str, periods: int) -> date:
    if unit == "DAY":
        return day + timedelta(days=periods)
    if unit == "WEEK":
        return day + timedelta(weeks=periods)
    months = {"MONTH": 1, "QUARTER": 3, "YEAR": 12}[unit]
    return day + relativedelta(months=months * periods)


def date_range(name: str, n: int | None, today: date) -> tuple[date, date]:
    """The days [start, end) that the literal `name` (with `n` for the :n forms) covers."""
    if name in _FIXED:
        unit, first, count = _FIXED[name]
    else:
        if n is None:
            raise ValueError(f"the date literal {name} needs a number: {name}:n")
        kind, _, rest = name.partition("_N_")
        if name.endswith("_AGO"):  # N_DAYS_AGO:n: the one period n periods back
            unit, first, count = _PLURAL[name[2:-4]], -n, 1
        elif kind == "LAST":  # days include today; longer units end before the current one
            unit = _PLURAL[rest]
            first, count = (-n, n + 1) if unit == "DAY" else (-n, n)
        else:
            unit, first, count = _PLURAL[rest], 1, n
    try:
        start = _shift(_period_start(today, unit), unit, first)
        return start, _shift(start, unit, count)
    except (OverflowError, ValueError):  # past year 9999 or before year 1
        raise OverflowError(f"{name}:{n} reaches past the calendar (years 1 to 9999)") from None
