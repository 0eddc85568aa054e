"""A report run over fetched rows: the Salesforce backend's way.

SOQL cannot subtract two dates, so a report that groups, filters or summarises a
duration (Case Age) cannot be one aggregate query; nor can "more than N related rows".
The backend counts the rows first and refuses, with the count and the bound, before
fetching more than `bound`; then fetches the row query (`reports.row_query.rows_soql`) and
aggregates here, with the same rules as the local SQL (`reports.rows`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crm_tui.errors import CrmTuiError
from crm_tui.org.reports.definition import ReportResult
from crm_tui.org.reports.resolve import Plan
from crm_tui.org.reports.row_query import count_soql, rows_soql
from crm_tui.org.reports.rows import aggregate_records, detail_row, finish, keep, wanted_names

FETCH_BOUND = 50_000  # rows a report may fetch to aggregate itself

Rows = Callable[[str, int], list[dict[str, Any]]]  # SOQL, how many -> records
Count = Callable[[str], int]  # SELECT COUNT() ... -> total
Names = Callable[[str, set[str]], dict[str, str]]  # object, Ids -> Id: name


def run_fetched(
    plan: Plan, rows: Rows, count: Count, names_of: Names, bound: int = FETCH_BOUND
) -> ReportResult:
    total_rows = count(count_soql(plan))
    if total_rows > bound:
        raise CrmTuiError(
            f"This report would fetch {total_rows:,} {plan.obj.label_plural.lower()} to "
            f"aggregate them (the bound is {bound:,}): narrow its filters or date range"
        )
    records = rows(rows_soql(plan), total_rows) if total_rows else []
    groups, total, names = aggregate_records(plan, records)
    if not plan.groupings:
        groups = []
    detail: list[dict[str, Any]] = []
    more = False
    if not plan.groupings:
        kept = sorted((r for r in records if keep(plan, r)), key=lambda r: str(r["Id"]))
        more = len(kept) > plan.definition.row_limit
        detail = kept[: plan.definition.row_limit]
    for obj, wanted in wanted_names(plan, groups, detail).items():
        names.update(names_of(obj, wanted))
    shown = tuple(detail_row(plan, r, names) for r in detail)
    ids = tuple(str(r["Id"]) for r in detail)
    return finish(plan, groups, total, names, shown, ids, more)
