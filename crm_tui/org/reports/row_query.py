"""A resolved report as SOQL: the row query both backends start from.

`rows_soql` selects every field the report reads (parent fields by relationship path,
lookups' names with them) from the records its filters, date ranges and cross filters
keep. The Salesforce backend sends it (after a COUNT() that bounds the fetch); the local
backend compiles the very same text with the project's SOQL compiler and aggregates
over it in SQL, so a filter means one thing on both. Filters on durations and cross
filters with "more than N" are not SOQL; the runners apply them to the rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date

from crm_tui.org.backends.interface import FieldType
from crm_tui.org.backends.query import condition
from crm_tui.org.reports.resolve import DurationRef, FieldRef, Plan, ResolvedCross, ResolvedFilter

__all__ = [
    "cross_subquery",
    "read_paths",
    "rows_soql",
    "select_paths",
    "where_soql",
]


def _day(ref: FieldRef, day: date) -> str:
    return (
        f"{day.isoformat()}T00:00:00Z" if ref.field.type is FieldType.DATETIME else day.isoformat()
    )


def filter_soql(flt: ResolvedFilter) -> str:
    """One filter on a field path as a SOQL condition (query model semantics)."""
    assert isinstance(flt.value, FieldRef)
    return condition(replace(flt.value.field, name=flt.value.path), flt.operator, flt.argument)


def _cross_conditions(cross: ResolvedCross) -> list[str]:
    return [filter_soql(f) for f in cross.filters]


def where_soql(plan: Plan) -> list[str]:
    """The conditions SOQL can express: field filters, date ranges, and "with / without
    any related row" cross filters (as semi-joins)."""
    where = [filter_soql(f) for f in plan.filters if isinstance(f.value, FieldRef)]
    for r in plan.ranges:
        where.append(f"{r.field.path} >= {_day(r.field, r.start)}")
        where.append(f"{r.field.path} < {_day(r.field, r.end)}")
    for c in plan.crosses:
        if c.more_than == 0:
            conds = _cross_conditions(c)
            inner = f"SELECT {c.relationship.field} FROM {c.child.name}" + (
                " WHERE " + " AND ".join(conds) if conds else ""
            )
            where.append(f"Id {'IN' if c.with_ else 'NOT IN'} ({inner})")
    return where


def cross_subquery(cross: ResolvedCross) -> str:
    """`(SELECT Id FROM Histories__r WHERE ...)`: the related rows a "more than N" cross
    filter counts, as a child sub-query of the row query."""
    conds = _cross_conditions(cross)
    return f"(SELECT Id FROM {cross.relationship.name}" + (
        " WHERE " + " AND ".join(conds) + ")" if conds else ")"
    )


def select_paths(plan: Plan) -> list[str]:
    """Id, every field path the report reads, and the names of lookups among them."""
    paths = ["Id"]
    seen = {"id"}
    for ref in plan.field_refs:
        for path in (ref.path, ref.name_path):
            if path and path.lower() not in seen:
                seen.add(path.lower())
                paths.append(path)
    return paths


def read_paths(plan: Plan, named: Callable[[FieldRef], bool] = lambda ref: True) -> list[str]:
    """Id when ungrouped, then only the paths the aggregation reads: groupings (and the
    names of lookups among them, where `named` says), summaries, both ends of durations
    (also of duration filters) and, ungrouped, the detail columns. Not the fields of the
    filters SOQL applies itself: the local statement and the Salesforce fetch read less."""
    paths: list[str] = [] if plan.groupings else ["Id"]
    seen = {p.lower() for p in paths}

    def add(path: str | None) -> None:
        if path and path.lower() not in seen:
            seen.add(path.lower())
            paths.append(path)

    def read(value: FieldRef | DurationRef | None, with_name: bool) -> None:
        if isinstance(value, DurationRef):
            read(value.start, False)
            read(value.end, False)
        elif value is not None:
            add(value.path)
            if with_name and named(value):
                add(value.name_path)

    for g in plan.groupings:
        read(g.value, True)
    for s in plan.summaries:
        read(s.value, False)
    for f in plan.filters:
        if isinstance(f.value, DurationRef):
            read(f.value, False)
    if not plan.groupings:
        for c in plan.columns:
            read(c, True)
    return paths


def _where(conds: list[str]) -> str:
    return " WHERE " + " AND ".join(conds) if conds else ""


def rows_soql(plan: Plan, with_children: bool = True) -> str:
    """The row query: SELECT Id, paths..., (children counted by "more than N") FROM ..."""
    select = select_paths(plan)
    if with_children:
        select += [cross_subquery(c) for c in plan.crosses if c.more_than > 0]
    return f"SELECT {', '.join(select)} FROM {plan.obj.name}{_where(where_soql(plan))}"
