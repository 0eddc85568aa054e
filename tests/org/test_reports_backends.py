"""Every report gives the same result on both backends, whichever way the Salesforce
backend runs it: one SOQL aggregate query, or rows fetched and aggregated in Python.

The local backend runs each report as one SQL statement over the org file; the Salesforce
backend talks to the loopback server through simple-salesforce. Each case names the path
the Salesforce backend must take, and the calls it may make, so a report that silently
falls back to fetching rows fails here.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from crm_tui.org.backends.interface import Operator
from crm_tui.org.reports import (
    Aggregate,
    CrossFilter,
    DateGranularity,
    DateRange,
    Grouping,
    ReportDefinition,
    ReportFilter,
    ReportResult,
    Summary,
    SummarySort,
    soql_aggregate,
)
from crm_tui.org.reports.resolve import resolve
from tests.org.test_backends_parametrised import open_backend, salesforce_server  # noqa: F401

OWNER = ReportFilter("Field__c", Operator.EQ, "Owner Assignment")
TODAY = date(2025, 1, 15)

# name -> (definition, path the Salesforce backend takes, API calls it makes)
REPORTS: dict[str, tuple[ReportDefinition, str, int]] = {
    "cases by owner": (
        ReportDefinition("Case", groupings=(Grouping("OwnerId"),), sort=SummarySort("COUNT()")),
        "aggregate",
        1,  # Owner.Name is grouped with OwnerId: no name look-ups
    ),
    "closed cases of a year by owner, status filter and semi-join": (
        ReportDefinition(
            "Case",
            filters=(ReportFilter("Status", Operator.EQ, "Closed"),),
            date_ranges=(DateRange("ClosedDate", "2023"),),
            cross_filters=(CrossFilter("CaseHistory__c", (OWNER,)),),
            groupings=(Grouping("OwnerId"), Grouping("Priority")),
            top_n=5,
        ),
        "aggregate",
        1,
    ),
    "state by quarter, distinct accounts (matrix)": (
        ReportDefinition(
            "Case",
            groupings=(
                Grouping("Account.ShippingState"),
                Grouping("CreatedDate", DateGranularity.QUARTER),
            ),
            summaries=(Summary(Aggregate.COUNT_DISTINCT, "AccountId"),),
            matrix=True,
        ),
        "aggregate",
        2,  # the distinct grand total is its own query
    ),
    "three levels with dates' extremes": (
        ReportDefinition(
            "Case",
            groupings=(
                Grouping("Status"),
                Grouping("Priority"),
                Grouping("CreatedDate", DateGranularity.YEAR),
            ),
            summaries=(
                Summary(Aggregate.MIN, "CreatedDate"),
                Summary(Aggregate.MAX, "ClosedDate"),
            ),
        ),
        "aggregate",
        1,
    ),
    "order items: sums, averages and extremes by parent fields": (
        ReportDefinition(
            "OrderItem",
            groupings=(
                Grouping("Order.EffectiveDate", DateGranularity.MONTH),
                Grouping("Product2.IsActive"),
            ),
            summaries=(
                Summary(Aggregate.SUM, "Quantity"),
                Summary(Aggregate.AVG, "UnitPrice"),
                Summary(Aggregate.MIN, "UnitPrice"),
                Summary(Aggregate.MAX, "Quantity"),
            ),
            sort=SummarySort("AVG(UnitPrice)"),
        ),
        "aggregate",
        1,
    ),
    "history rows by the user who gave the case away (names looked up)": (
        ReportDefinition(
            "CaseHistory__c",
            filters=(OWNER, ReportFilter("OldValue__c", Operator.IS_NOT_EMPTY)),
            groupings=(Grouping("OldValue__c"),),
            sort=SummarySort("COUNT()"),
            top_n=3,
        ),
        "aggregate",
        2,  # the users' names: Old Value is text holding a User Id
    ),
    **{
        f"orders by {gran.value}": (
            ReportDefinition(
                "Order",
                groupings=(Grouping("EffectiveDate", gran),),
                summaries=(Summary(Aggregate.COUNT, "AccountId"),),
            ),
            "aggregate",
            1,
        )
        for gran in DateGranularity
    },
    "cases by week of a date/time (days merged into Sunday weeks)": (
        ReportDefinition(
            "Case",
            groupings=(Grouping("ClosedDate", DateGranularity.WEEK),),
            summaries=(Summary(Aggregate.MAX, "CreatedDate"),),
            date_ranges=(DateRange("ClosedDate", "2023-Q4"),),
        ),
        "aggregate",
        1,
    ),
    # ------------------------------------------------------------- fetched
    "average Age by owner": (
        ReportDefinition(
            "Case",
            filters=(ReportFilter("Status", Operator.EQ, "Closed"),),
            date_ranges=(DateRange("ClosedDate", "2023"),),
            groupings=(Grouping("OwnerId"),),
            summaries=(Summary(Aggregate.AVG, "Age"),),
            sort=SummarySort("AVG(Age)", descending=False),
        ),
        "fetched",
        0,
    ),
    "distinct accounts by week (does not merge)": (
        ReportDefinition(
            "Case",
            groupings=(Grouping("CreatedDate", DateGranularity.WEEK),),
            summaries=(Summary(Aggregate.COUNT_DISTINCT, "AccountId"),),
        ),
        "fetched",
        0,
    ),
    "by a number (SOQL cannot group it)": (
        ReportDefinition("OrderItem", groupings=(Grouping("Quantity"),)),
        "fetched",
        0,
    ),
    "more than one owner assignment": (
        ReportDefinition(
            "Case",
            cross_filters=(CrossFilter("CaseHistory__c", (OWNER,), more_than=1),),
            groupings=(Grouping("Priority"),),
            summaries=(Summary(Aggregate.COUNT, "ClosedDate"),),  # not empty: closed ones
        ),
        "fetched",
        0,
    ),
    "ungrouped detail rows": (
        ReportDefinition(
            "Case",
            columns=("CaseNumber", "Owner.Name"),
            filters=(ReportFilter("Priority", Operator.EQ, "High"),),
            row_limit=20,
        ),
        "fetched",
        0,
    ),
}


@pytest.fixture(scope="module")
def backends(small_org_path, salesforce_server):  # noqa: F811
    local = open_backend("local", small_org_path, salesforce_server)
    remote = open_backend("salesforce", small_org_path, salesforce_server)
    remote.describe("User")  # whose names reports look up: described once, before counting
    yield local, remote
    local.close()
    remote.close()


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and a == pytest.approx(b, rel=1e-9)
    return bool(a == b)


def assert_same_result(local: ReportResult, remote: ReportResult) -> None:
    assert remote.summaries == local.summaries
    assert remote.grouping_labels == local.grouping_labels
    assert remote.group_count == local.group_count
    assert remote.truncated == local.truncated
    assert [g.keys for g in remote.groups] == [g.keys for g in local.groups]
    for r, g in zip(remote.groups, local.groups, strict=True):
        assert all(map(_same, r.values, g.values)), (g.keys, r.values, g.values)
    assert all(map(_same, remote.total, local.total)), (remote.total, local.total)
    assert remote.rows == local.rows
    assert remote.row_ids == local.row_ids


@pytest.mark.parametrize("name", list(REPORTS))
def test_same_result_on_both_backends_by_the_expected_path(backends, name):
    definition, path, calls = REPORTS[name]
    local, remote = backends
    expected = local.run_report(definition, today=TODAY)
    resolve(definition, remote.describe, TODAY)  # describes cached: only the report counts
    before = remote.usage.calls
    got = remote.run_report(definition, today=TODAY)
    assert remote.last_report_path == path
    if path == "aggregate":
        assert remote.usage.calls - before == calls
    else:  # at least one page of rows (the first says how many: no COUNT() first)
        assert remote.usage.calls - before >= 1
    assert expected.record_count > 0 and (expected.groups or expected.rows)
    assert_same_result(expected, got)


def test_the_plan_says_which_reports_soql_can_aggregate(backends):
    _, remote = backends
    for name, (definition, path, _) in REPORTS.items():
        plan = resolve(definition, remote.describe, TODAY)
        query = soql_aggregate.aggregate_query(plan)
        assert (query is not None) == (path == "aggregate"), name


def test_the_aggregate_query_is_one_soql_statement_with_merging_partials(backends):
    _, remote = backends
    definition = REPORTS["order items: sums, averages and extremes by parent fields"][0]
    query = soql_aggregate.aggregate_query(resolve(definition, remote.describe, TODAY))
    assert query is not None and query.total_soql is None
    assert query.soql == (
        "SELECT CALENDAR_YEAR(Order.EffectiveDate) g0_0, CALENDAR_MONTH(Order.EffectiveDate) "
        "g0_1, Product2.IsActive g1_0, COUNT(Id) a0, SUM(Quantity) a1, SUM(UnitPrice) a2, "
        "COUNT(UnitPrice) b2, MIN(UnitPrice) a3, MAX(Quantity) a4 FROM OrderItem "
        "GROUP BY CALENDAR_YEAR(Order.EffectiveDate), CALENDAR_MONTH(Order.EffectiveDate), "
        "Product2.IsActive LIMIT 2000"
    )


def test_more_groups_than_one_answer_holds_fall_back_to_fetching(backends, monkeypatch):
    local, remote = backends
    monkeypatch.setattr(soql_aggregate, "MAX_GROUP_ROWS", 5)
    definition = REPORTS["cases by owner"][0]
    got = remote.run_report(definition, today=TODAY)
    assert remote.last_report_path == "fetched"
    assert got.group_count > 5
    assert_same_result(local.run_report(definition, today=TODAY), got)


def test_grand_average_is_over_rows_not_a_mean_of_group_means(backends):
    local, remote = backends
    definition = ReportDefinition(
        "OrderItem",
        groupings=(Grouping("Product2.IsActive"),),
        summaries=(Summary(Aggregate.AVG, "UnitPrice"),),
    )
    got = remote.run_report(definition, today=TODAY)
    assert remote.last_report_path == "aggregate"
    counts = [g.count for g in got.groups]
    means = [got.value(g, "AVG(UnitPrice)") for g in got.groups]
    weighted = sum(c * m for c, m in zip(counts, means, strict=True)) / sum(counts)
    assert got.value_total("AVG(UnitPrice)") == pytest.approx(weighted)
    assert_same_result(local.run_report(definition, today=TODAY), got)


def test_the_fetch_path_is_bounded_by_its_first_page_not_a_count_call(backends):
    """The rows' first page says how many match (totalSize): no COUNT() call goes first.
    Average Age by owner on the small org: one page of rows, one of the owners' names."""
    _, remote = backends
    definition = REPORTS["average Age by owner"][0]
    resolve(definition, remote.describe, TODAY)  # describes cached: only the report counts
    before = remote.usage.calls
    got = remote.run_report(definition, today=TODAY)
    assert remote.last_report_path == "fetched"
    assert got.record_count < 2_000  # one page
    assert remote.usage.calls - before == 2
