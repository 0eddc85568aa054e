"""Salesforce's wire formats: DateTime `2022-03-16T15:15:00.000+0000`, Date `2022-03-16`.

All stored times are UTC; the fixed-width format sorts lexically in time order.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

DATETIME_FORMAT = "%Y-%m-%dT%H:%M:%S.000+0000"


def format_datetime(value: datetime) -> str:
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value.strftime(DATETIME_FORMAT)


def format_date(value: date | datetime) -> str:
    return value.strftime("%Y-%m-%d")


def parse_datetime(text: str) -> datetime:
    """Parse Salesforce's DateTime (also `...Z` and plain ISO forms) into naive UTC."""
    t = text.strip()
    if t.endswith("Z"):
        t = t[:-1] + "+00:00"
    elif len(t) >= 5 and t[-5] in "+-" and t[-4:].isdigit():
        t = t[:-2] + ":" + t[-2:]
    value = datetime.fromisoformat(t)
    if value.tzinfo is not None:
        value = value.astimezone(UTC).replace(tzinfo=None)
    return value


def parse_date(text: str) -> date:
    return date.fromisoformat(text.strip()[:10])
