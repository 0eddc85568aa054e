"""SOQL date functions (CALENDAR_YEAR, DAY_ONLY, ...) in GROUP BY, SELECT, WHERE and
ORDER BY over the tiny org, with exact answers and Salesforce-shaped errors."""

from __future__ import annotations

import pytest

from crm_tui.org.soql import SalesforceError, execute_soql
from crm_tui.org.store.orgstore import OrgStore
from tests.helpers.soql_org import TODAY, build_tiny_org


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with OrgStore.open(build_tiny_org(tmp_path_factory.mktemp("soqldates") / "org.sqlite")) as s:
        yield s


def rows(store, soql):
    return [
        {k: v for k, v in r.items() if k != "attributes"}
        for r in execute_soql(store, soql, today=TODAY).records
    ]


def test_group_by_year_and_month_with_implicit_aliases(store):
    got = rows(
        store,
        "SELECT CALENDAR_YEAR(CreatedDate), CALENDAR_MONTH(CreatedDate) m, COUNT(Id) "
        "FROM Case GROUP BY CALENDAR_YEAR(CreatedDate), CALENDAR_MONTH(CreatedDate) "
        "ORDER BY CALENDAR_YEAR(CreatedDate), CALENDAR_MONTH(CreatedDate)",
    )
    assert got == [
        {"expr0": 2023, "m": 12, "expr1": 1},
        {"expr0": 2024, "m": 2, "expr1": 1},
        {"expr0": 2024, "m": 4, "expr1": 1},
        {"expr0": 2024, "m": 5, "expr1": 3},
    ]


def test_quarters_days_and_a_where_on_a_date_function(store):
    quarters = rows(
        store,
        "SELECT CALENDAR_YEAR(CreatedDate) y, CALENDAR_QUARTER(CreatedDate) q, COUNT(Id) n "
        "FROM Case GROUP BY CALENDAR_YEAR(CreatedDate), CALENDAR_QUARTER(CreatedDate) "
        "ORDER BY CALENDAR_YEAR(CreatedDate) DESC, CALENDAR_QUARTER(CreatedDate) DESC",
    )
    assert quarters == [
        {"y": 2024, "q": 2, "n": 4},
        {"y": 2024, "q": 1, "n": 1},
        {"y": 2023, "q": 4, "n": 1},
    ]
    days = rows(
        store,
        "SELECT DAY_ONLY(ClosedDate) d, COUNT(Id) n FROM Case "
        "WHERE CALENDAR_YEAR(ClosedDate) = 2024 GROUP BY DAY_ONLY(ClosedDate) "
        "HAVING COUNT(Id) > 0 ORDER BY DAY_ONLY(ClosedDate)",
    )
    assert days == [
        {"d": "2024-01-02", "n": 1},
        {"d": "2024-05-15", "n": 1},
        {"d": "2024-05-16", "n": 1},
    ]


def test_day_and_week_numbers_of_a_date_and_hours_of_a_datetime(store):
    got = rows(
        store,
        "SELECT EffectiveDate, DAY_IN_MONTH(EffectiveDate) dm, DAY_IN_WEEK(EffectiveDate) dw, "
        "DAY_IN_YEAR(EffectiveDate) dy, WEEK_IN_MONTH(EffectiveDate) wm, "
        "WEEK_IN_YEAR(EffectiveDate) wy FROM Order GROUP BY EffectiveDate, "
        "DAY_IN_MONTH(EffectiveDate), DAY_IN_WEEK(EffectiveDate), DAY_IN_YEAR(EffectiveDate), "
        "WEEK_IN_MONTH(EffectiveDate), WEEK_IN_YEAR(EffectiveDate) ORDER BY EffectiveDate",
    )
    # 2024-03-10 is a Sunday (day 1 of the week), the 70th day of a leap year
    assert got == [
        {"EffectiveDate": "2024-03-10", "dm": 10, "dw": 1, "dy": 70, "wm": 2, "wy": 10},
        {"EffectiveDate": "2024-05-01", "dm": 1, "dw": 4, "dy": 122, "wm": 1, "wy": 18},
    ]
    hours = rows(
        store,
        "SELECT HOUR_IN_DAY(CreatedDate) h, COUNT(Id) n FROM Case "
        "WHERE CALENDAR_MONTH(CreatedDate) = 5 GROUP BY HOUR_IN_DAY(CreatedDate) "
        "ORDER BY HOUR_IN_DAY(CreatedDate)",
    )
    assert hours == [{"h": 8, "n": 1}, {"h": 9, "n": 1}, {"h": 23, "n": 1}]


@pytest.mark.parametrize(
    "soql, message",
    [
        (
            "SELECT DAY_ONLY(EffectiveDate) FROM Order GROUP BY DAY_ONLY(EffectiveDate)",
            "DAY_ONLY() needs a dateTime field, and EffectiveDate is a date",
        ),
        (
            "SELECT CALENDAR_YEAR(Subject) FROM Case GROUP BY CALENDAR_YEAR(Subject)",
            "CALENDAR_YEAR() needs a date or dateTime field, and Subject is a string",
        ),
        (
            "SELECT CALENDAR_YEAR(CreatedDate) FROM Case GROUP BY CALENDAR_MONTH(CreatedDate)",
            "Field must be grouped or aggregated: CALENDAR_YEAR(CreatedDate)",
        ),
        (
            "SELECT CALENDAR_YEAR(CreatedDate) FROM Case",
            "CALENDAR_YEAR() in the SELECT list needs a GROUP BY",
        ),
        (
            "SELECT COUNT(Id) FROM Case GROUP BY Status ORDER BY CALENDAR_YEAR(CreatedDate)",
            "Ordered field must be grouped or aggregated: CALENDAR_YEAR(CreatedDate)",
        ),
    ],
)
def test_misused_date_functions_are_malformed_queries(store, soql, message):
    with pytest.raises(SalesforceError) as caught:
        execute_soql(store, soql, today=TODAY)
    assert caught.value.error_code == "MALFORMED_QUERY"
    assert caught.value.message.rstrip().endswith(message)
