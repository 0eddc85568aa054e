"""The fetch path's column-wise aggregation gives what the row-by-row reading gives.

`reports.rows` reads a report's own-field span (Case Age) and a text grouping (owners)
over whole columns with C-level maps, and orders groups as a permutation of their
indices; odd values (an open case's empty ClosedDate, a date-only stamp, an owner Id
that is not text, a missing owner) must still give the row-by-row answer.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime
from typing import Any

from crm_tui.org.backends.interface import object_of
from crm_tui.org.reports import Grouping, ReportDefinition, Summary, SummarySort
from crm_tui.org.reports.resolve import resolve
from crm_tui.org.reports.rows import _column, _reader, aggregate_records, finish

TODAY = date(2025, 1, 15)


def _plan(descending: bool = False, top_n: int | None = None) -> Any:
    definition = ReportDefinition(
        "Case",
        groupings=(Grouping("OwnerId"),),
        summaries=(Summary.parse("AVG(Age)"), Summary.parse("MAX(Age)")),
        sort=SummarySort("AVG(Age)", descending=descending),
        top_n=top_n,
    )
    return resolve(definition, object_of, TODAY)


def _case(owner: Any, created: str, closed: str | None) -> dict[str, Any]:
    return {
        "attributes": {"type": "Case", "url": "/services/data/v59.0/sobjects/Case/x"},
        "OwnerId": owner,
        "CreatedDate": created,
        "ClosedDate": closed,
    }


CLOSED = [
    _case("005A", "2023-01-01T08:00:00.000+0000", "2023-01-02T09:30:15.000+0000"),
    _case("005B", "2023-02-01T00:00:00.000+0000", "2023-02-01T06:00:00.000+0000"),
    _case("005A", "2023-03-01T10:00:00.000+0000", "2023-03-01T10:00:01.000+0000"),
    _case("005C", "2023-04-01", "2023-04-03"),  # date-only stamps
    _case("005B", "2023-05-01T00:00:00.000+0000", "2023-05-03T12:00:00.000+0000"),
]


def _hours(created: str, closed: str) -> float:
    start = datetime.fromisoformat(created[:19])
    return (datetime.fromisoformat(closed[:19]) - start).total_seconds() / 3600.0


def _by_hand(records: list[dict[str, Any]]) -> dict[Any, list[float | None]]:
    ages: dict[Any, list[float | None]] = defaultdict(list)
    for r in records:
        closed = r["ClosedDate"]
        ages[r["OwnerId"]].append(_hours(r["CreatedDate"], closed) if closed else None)
    return ages


def test_age_column_equals_the_row_reader_with_and_without_empty_stamps():
    plan = _plan()
    age = plan.summaries[1].value
    for records in (CLOSED, [*CLOSED, _case("005D", "2023-06-01T00:00:00.000+0000", None)]):
        assert _column(age, records) == list(map(_reader(age), records))
    assert _column(age, CLOSED) == [_hours(r["CreatedDate"], r["ClosedDate"]) for r in CLOSED]


def test_groups_and_totals_equal_a_row_by_row_count_with_odd_values():
    plan = _plan()
    odd = [
        *CLOSED,
        _case("005D", "2023-06-01T00:00:00.000+0000", None),  # open: no Age
        _case(None, "2023-07-01T00:00:00.000+0000", "2023-07-02T00:00:00.000+0000"),
    ]
    numbers = [*CLOSED, _case(5, "2023-08-01T00:00:00.000+0000", "2023-08-01T01:00:00.000+0000")]
    for records in (CLOSED, odd, numbers):
        groups, total, _ = aggregate_records(plan, records)
        expected = {}
        for owner, ages in _by_hand(records).items():
            present = [a for a in ages if a is not None]
            avg = sum(present) / len(present) if present else None
            key = owner if owner is None or isinstance(owner, str) else str(owner)
            expected[(key,)] = (len(ages), avg, max(present) if present else None)
        assert dict(groups) == expected
        every = [a for ages in _by_hand(records).values() for a in ages if a is not None]
        assert total[0] == len(records) and max(every) == total[2]


def test_groups_are_ordered_by_the_summary_then_the_name_with_empty_values_last():
    records = [
        *CLOSED,  # average Age: 005A 12.75 h, 005B 33 h, 005C 48 h
        _case("005D", "2023-06-01T00:00:00.000+0000", None),  # none
        _case("005E", "2023-01-01T00:00:00.000+0000", "2023-01-01T06:00:00.000+0000"),  # 6 h
        _case("005F", "2023-01-05T00:00:00.000+0000", "2023-01-05T06:00:00.000+0000"),  # 6 h
    ]
    names = {"005A": "Zoe", "005B": "amy", "005C": "Bob", "005D": "Dan", "005E": "Al"}
    names["005F"] = "aaron"  # ties with Al: by the name shown, case-insensitively
    expected = {
        False: ["aaron", "Al", "Zoe", "amy", "Bob", "Dan"],
        True: ["Bob", "amy", "Zoe", "aaron", "Al", "Dan"],
    }
    for descending, labels in expected.items():
        plan = _plan(descending)
        result = finish(plan, *aggregate_records(plan, records)[:2], names)
        assert [row.keys[0].label for row in result.groups] == labels
        assert [row.keys[0].record_id for row in result.groups][-1] == "005D"
        assert result.groups[-1].values == (1, None, None)
        assert result.group_count == 6 and not result.truncated
    plan = _plan(top_n=2)
    top = finish(plan, *aggregate_records(plan, records)[:2], names)
    assert [row.keys[0].label for row in top.groups] == ["aaron", "Al"]
    assert top.truncated and top.group_count == 6
