"""A report run over fetched rows: the Salesforce backend's way where SOQL aggregates
cannot say it (`reports.soql_aggregate` takes the rest).

SOQL cannot subtract two dates, so a report that groups, filters or summarises a
duration (Case Age) cannot be one aggregate query; nor can "more than N related rows".
The first page of the rows says how many match (`totalSize`): past `bound` the backend
stops there and refuses, with the count and the bound (no separate COUNT() call); else it
fetches the rest and aggregates here, with the same rules as the local SQL
(`reports.rows`).

The fetch selects only what the aggregation reads (`fetch_soql`): not the fields of the
filters SOQL already applied, not the detail columns of a grouped report. A grouping by
a lookup of the report's own object names its records with one semi-join query
(`SELECT Id, Name FROM User WHERE Id IN (SELECT OwnerId FROM Case WHERE ...)`) instead of
a parent record nested in every row: one name per group rather than one per row. That
query goes out with the rows' (the backend's `send_ahead`, on a connection of its own, as
Salesforce allows concurrent calls): the server finds the names while it finds the rows.
Its further pages follow once the rows' first page says they are within the bound; past
the bound it costs that one call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import object_of
from crm_tui.org.bulk_gc import collection_paused
from crm_tui.org.reports.definition import ReportResult
from crm_tui.org.reports.resolve import FieldRef, Plan
from crm_tui.org.reports.row_query import cross_subquery, read_paths, where_soql
from crm_tui.org.reports.rows import aggregate_records, detail_row, finish, keep, wanted_names

FETCH_BOUND = 50_000  # rows a report may fetch to aggregate itself

Records = list[dict[str, Any]]


class Ahead(Protocol):
    """A query already sent: `follow()` wants all its pages, `drop()` none past the
    first, `records()` waits for them all."""

    def follow(self) -> None: ...
    def drop(self) -> None: ...
    def records(self) -> Records: ...


SendAhead = Callable[[str], Ahead]  # SOQL -> the query, sent now
# SOQL, bound, called with how many match once the first page says -> (how many match,
# their records: none when more than the bound match)
Bounded = Callable[[str, int, Callable[[int], None]], tuple[int, Records]]
Names = Callable[[str, set[str]], dict[str, str]]  # object, Ids -> Id: name


def _where(plan: Plan) -> str:
    conds = where_soql(plan)
    return " WHERE " + " AND ".join(conds) if conds else ""


def semi_join_named(plan: Plan) -> list[FieldRef]:
    """Groupings by a lookup of the report's own object, whose names one semi-join
    fetches. Not when the conditions hold a semi-join already (cross filters): SOQL
    does not nest them."""
    if any(c.more_than == 0 for c in plan.crosses):
        return []
    return [
        g.value
        for g in plan.groupings
        if isinstance(g.value, FieldRef)
        and g.granularity is None
        and not g.value.lookups
        and g.value.field.is_lookup
        and g.value.name_path
        and g.value.named_by
    ]


def fetch_soql(plan: Plan) -> str:
    """The rows to fetch: the fields groupings, summaries, duration filters and (when
    ungrouped) the detail columns read, and the children "more than N" counts."""
    by_semi_join = {ref.path.lower() for ref in semi_join_named(plan)}
    paths = read_paths(plan, lambda ref: ref.path.lower() not in by_semi_join)
    select = (paths or ["Id"]) + [cross_subquery(c) for c in plan.crosses if c.more_than > 0]
    return f"SELECT {', '.join(select)} FROM {plan.obj.name}{_where(plan)}"


def names_soql(plan: Plan, ref: FieldRef) -> str:
    """`SELECT Id, Name FROM User WHERE Id IN (SELECT OwnerId FROM Case WHERE ...)`."""
    assert ref.named_by is not None  # semi_join_named() keeps named lookups only
    title = object_of(ref.named_by).title_field
    return (
        f"SELECT Id, {title} FROM {ref.named_by} WHERE Id IN "
        f"(SELECT {ref.path} FROM {plan.obj.name}{_where(plan)})"
    )


def run_fetched(
    plan: Plan,
    bounded: Bounded,
    send_ahead: SendAhead,
    names_of: Names,
    bound: int = FETCH_BOUND,
) -> ReportResult:
    with collection_paused():  # thousands of records, no cycles: see `org.bulk_gc`
        return _run_fetched(plan, bounded, send_ahead, names_of, bound)


def _run_fetched(
    plan: Plan, bounded: Bounded, send_ahead: SendAhead, names_of: Names, bound: int
) -> ReportResult:
    named: list[tuple[FieldRef, Ahead]] = []

    def within_bound(total_rows: int) -> None:
        """The rows' first page says how many: the names' other pages are wanted when
        some rows are, within the bound."""
        for _, ahead in named:
            if 0 < total_rows <= bound:
                ahead.follow()
            else:
                ahead.drop()

    try:
        # the names go out with the rows: the server finds both at once
        named.extend((ref, send_ahead(names_soql(plan, ref))) for ref in semi_join_named(plan))
        total_rows, records = bounded(fetch_soql(plan), bound, within_bound)
    finally:
        for _, ahead in named:
            ahead.drop()  # no effect once followed; a failed fetch wants no more names
    if total_rows > bound:
        raise CrmTuiError(
            f"This report would fetch {total_rows:,} {plan.obj.label_plural.lower()} to "
            f"aggregate them (the bound is {bound:,}): narrow its filters or date range"
        )
    groups, total, names = aggregate_records(plan, records)
    if not plan.groupings:
        groups = []
    for ref, answer in named:
        assert ref.named_by is not None
        title = object_of(ref.named_by).title_field
        for rec in answer.records():
            if rec.get(title) is not None:
                names[str(rec["Id"])] = str(rec[title])
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
