"""The reports a CRM professional builds for HTU, TCU, BRI, MTA, TII and NCR answer
generated queries with their gold answer, on both backends.

Each `*_reports` function is what a person would build from the query's text (the
period, the product, the threshold); the hidden parameters only stand in for reading it.
HTU, TCU and NCR take two or three reports, as they would in Salesforce: one to find
who qualifies (or who is tied), one to rank.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from crm_tui.org.backends.interface import Operator
from crm_tui.org.reports import (
    CrossFilter,
    DateGranularity,
    DateRange,
    Grouping,
    ReportDefinition,
    ReportFilter,
    Summary,
    SummarySort,
)
from crm_tui.org.schema.sftime import parse_datetime
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.tasks.generate import generate_taskset
from tests.org.test_backends_parametrised import open_backend, salesforce_server  # noqa: F401

PER_FAMILY = 4
OWNER = ReportFilter("Field__c", Operator.EQ, "Owner Assignment")


@pytest.fixture(scope="module", params=["local", "salesforce"])
def backend(request, small_org_path, salesforce_server):  # noqa: F811
    be = open_backend(request.param, small_org_path, salesforce_server)
    yield be
    be.close()


@pytest.fixture(scope="module")
def instances(small_org_path):
    with OrgStore.open(small_org_path) as store:
        return generate_taskset(store, per_task=6, seed=11, allow_short=True).instances


def period_range(params, field: str = "CreatedDate") -> DateRange:
    """The query's period as a report date range: its first day to the day before its end."""
    start = parse_datetime(params["start"]).date()
    last = parse_datetime(params["end"]).date() - timedelta(days=1)
    return DateRange(field, f"{start}..{last}")


def qualified(backend, params) -> set[str]:
    """Agents who managed more than N cases: Owner Assignment history rows in the period
    grouped by New Value (a User Id shown as the agent's name)."""
    result = backend.run_report(
        ReportDefinition(
            "CaseHistory__c",
            filters=(OWNER,),
            date_ranges=(period_range(params),),
            groupings=(Grouping("NewValue__c"),),
        )
    )
    return {g.keys[0].record_id for g in result.groups if g.count > params["threshold"]}


def first_qualified(result, agents: set[str]) -> str | None:
    return next((g.keys[0].record_id for g in result.groups if g.keys[0].record_id in agents), None)


def handle_time(backend, params) -> str | None:
    agents = qualified(backend, params)
    ranking = backend.run_report(
        ReportDefinition(
            "Case",
            filters=(ReportFilter("Status", Operator.EQ, "Closed"),),
            date_ranges=(period_range(params),),
            cross_filters=(  # not transferred: at most one Owner Assignment in the period
                CrossFilter(
                    "CaseHistory__c",
                    (
                        OWNER,
                        ReportFilter("CreatedDate", Operator.GE, params["start"][:10]),
                        ReportFilter("CreatedDate", Operator.LT, params["end"][:10]),
                    ),
                    with_=False,
                    more_than=1,
                ),
            ),
            groupings=(Grouping("OwnerId"),),
            summaries=(Summary.parse("AVG(Age)"),),
            sort=SummarySort("AVG(Age)", descending=params["extreme"] == "max"),
        )
    )
    return first_qualified(ranking, agents)


def transfer_count(backend, params) -> str | None:
    agents = qualified(backend, params)
    ranking = backend.run_report(
        ReportDefinition(
            "CaseHistory__c",
            filters=(OWNER, ReportFilter("OldValue__c", Operator.IS_NOT_EMPTY)),
            date_ranges=(period_range(params),),
            groupings=(Grouping("OldValue__c"),),
            sort=SummarySort("COUNT()", descending=params["extreme"] == "max"),
        )
    )
    return first_qualified(ranking, agents)


def best_region(backend, params) -> str | None:
    result = backend.run_report(
        ReportDefinition(
            "Case",
            filters=(
                ReportFilter("Status", Operator.EQ, "Closed"),
                ReportFilter("Account.ShippingState", Operator.IS_NOT_EMPTY),
            ),
            date_ranges=(period_range(params),),
            groupings=(Grouping("Account.ShippingState"),),
            summaries=(Summary.parse("AVG(Age)"),),
            sort=SummarySort("AVG(Age)", descending=False),
            top_n=1,
        )
    )
    return result.top.keys[0].label if result.top else None


def _product_cases(params, grouping: Grouping) -> ReportDefinition:
    return ReportDefinition(
        "Case",
        filters=(ReportFilter("OrderItemId__r.Product2Id", Operator.EQ, params["product_id"]),),
        date_ranges=(period_range(params),),
        groupings=(grouping,),
        sort=SummarySort("COUNT()"),
        top_n=1,
    )


def monthly_trend(backend, params) -> str | None:
    result = backend.run_report(
        _product_cases(params, Grouping("CreatedDate", DateGranularity.MONTH_OF_YEAR))
    )
    return result.top.keys[0].label if result.top else None


def top_issue(backend, params) -> str | None:
    result = backend.run_report(_product_cases(params, Grouping("IssueId__c")))
    return result.top.keys[0].record_id if result.top else None


def case_routing(backend, params) -> str | None:
    def closed_by_owner(*filters):
        return backend.run_report(
            ReportDefinition(
                "Case",
                filters=(ReportFilter("Status", Operator.EQ, "Closed"), *filters),
                groupings=(Grouping("OwnerId"),),
                sort=SummarySort("COUNT()"),
            )
        ).groups

    issue = ReportFilter("IssueId__c", Operator.EQ, params["issue_id"])
    groups = closed_by_owner(issue)
    tied = {g.keys[0].record_id for g in groups if g.count == groups[0].count}
    if len(tied) > 1:  # product expertise among the tied
        product = ReportFilter("OrderItemId__r.Product2Id", Operator.EQ, params["product_id"])
        counts = dict.fromkeys(tied, 0) | {
            g.keys[0].record_id: g.count
            for g in closed_by_owner(product)
            if g.keys[0].record_id in tied
        }
        best = max(counts.values())
        tied = {a for a, n in counts.items() if n == best}
    if len(tied) > 1:  # fewest open cases
        open_cases = backend.run_report(
            ReportDefinition(
                "Case",
                filters=(ReportFilter("Status", Operator.NE, "Closed"),),
                groupings=(Grouping("OwnerId"),),
            )
        )
        load = dict.fromkeys(tied, 0) | {
            g.keys[0].record_id: g.count for g in open_cases.groups if g.keys[0].record_id in tied
        }
        tied = {min(load, key=lambda a: load[a])}
    return tied.pop()


SOLVERS = {
    "handle_time": handle_time,
    "transfer_count": transfer_count,
    "best_region_identification": best_region,
    "monthly_trend_analysis": monthly_trend,
    "top_issue_identification": top_issue,
    "case_routing": case_routing,
}


@pytest.mark.parametrize("family", list(SOLVERS))
def test_the_report_a_professional_builds_gives_the_gold(backend, instances, family):
    items = [i for i in instances if i.task == family][:PER_FAMILY]
    assert items, f"no {family} instance generated"
    for inst in items:
        assert SOLVERS[family](backend, inst.params) == inst.answer, (inst.query, inst.params)
