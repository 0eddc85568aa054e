"""A report as one SOQL aggregate query: the Salesforce backend's way when SOQL can say it.

When every grouping and summary is something SOQL groups and aggregates itself (fields
and parent fields, dates through CALENDAR_YEAR / CALENDAR_QUARTER / CALENDAR_MONTH /
DAY_ONLY, COUNT, COUNT_DISTINCT, SUM / AVG / MIN / MAX of numbers, MIN / MAX of dates),
the backend sends

    SELECT OwnerId g0, Owner.Name n0, COUNT(Id) c, SUM(Amount) s1, COUNT(Amount) k1
    FROM Case WHERE <the row query's conditions> GROUP BY OwnerId, Owner.Name LIMIT 2000

and builds the result from its rows, never fetching a record. Each SOQL row carries
partial sums that merge: weeks (Sunday weeks, which WEEK_IN_YEAR is not) are merged from
days here, and the grand total is merged from every row (AVG as SUM over COUNT, never a
mean of means). COUNT_DISTINCT does not merge: its grand total is a second aggregate
query without GROUP BY, and it cannot be merged into weeks.

Durations (Case Age), groupings on numbers or unbucketed date/times (which SOQL cannot
group) and "more than N related rows" stay on the fetch path (`reports.fetch`), as does
a report of more groups than one aggregate answer holds (Salesforce answers GROUP BY
queries in one batch of at most 2,000 rows, without a query locator).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from crm_tui.org.backends.interface import FieldType
from crm_tui.org.reports.definition import Aggregate, DateGranularity, ReportResult
from crm_tui.org.reports.resolve import DurationRef, FieldRef, Plan, ResolvedGrouping
from crm_tui.org.reports.row_query import where_soql
from crm_tui.org.reports.rows import bucket, finish, normal, wanted_names

MAX_GROUP_ROWS = 2_000  # one batch: GROUP BY answers have no query locator

Rows = Callable[[str, int], list[dict[str, Any]]]  # SOQL, how many -> records
Names = Callable[[str, set[str]], dict[str, str]]  # object, Ids -> Id: name

# A date grouping as SOQL date functions (in order), by granularity; DAY on a Date field
# groups the field itself, on a DateTime DAY_ONLY. Weeks group by day, merged here.
_DATE_PARTS = {
    DateGranularity.MONTH: ("CALENDAR_YEAR", "CALENDAR_MONTH"),
    DateGranularity.QUARTER: ("CALENDAR_YEAR", "CALENDAR_QUARTER"),
    DateGranularity.YEAR: ("CALENDAR_YEAR",),
    DateGranularity.MONTH_OF_YEAR: ("CALENDAR_MONTH",),
}
_UNGROUPABLE = (FieldType.NUMBER, FieldType.CURRENCY, FieldType.LONG_TEXT)


@dataclass(frozen=True)
class AggregateQuery:
    """The SOQL of a report's aggregate path, and where each part of a row is."""

    plan: Plan
    soql: str
    total_soql: str | None  # COUNT_DISTINCT's grand totals (no GROUP BY), when grouped
    keys: tuple[tuple[str, ...], ...]  # per grouping: the aliases of its parts
    names: tuple[str | None, ...]  # per grouping: the alias of its lookup's name
    merges: bool  # SOQL groups finer than the report's (weeks from days)


def _day_expr(ref: FieldRef) -> str:
    return f"DAY_ONLY({ref.path})" if ref.field.type is FieldType.DATETIME else ref.path


def _grouping_parts(g: ResolvedGrouping) -> tuple[str, ...] | None:
    """The SOQL expressions a grouping groups by, or None when SOQL cannot group it."""
    ref = g.value
    if not isinstance(ref, FieldRef) or ref.field.type in _UNGROUPABLE:
        return None
    if g.granularity is None:
        return None if ref.field.type is FieldType.DATETIME else (ref.path,)
    if g.granularity in (DateGranularity.DAY, DateGranularity.WEEK):
        return (_day_expr(ref),)
    return tuple(f"{fn}({ref.path})" for fn in _DATE_PARTS[g.granularity])


def aggregate_query(plan: Plan) -> AggregateQuery | None:
    """The report as one aggregate SOQL query, or None when SOQL cannot express a part
    (then the backend fetches rows: `reports.fetch.run_fetched`)."""
    if not plan.groupings or plan.durations or any(c.more_than > 0 for c in plan.crosses):
        return None
    select: list[str] = []
    group_by: list[str] = []
    aliases: dict[str, str] = {}  # SOQL expression -> its alias, each grouped once

    def grouped(expr: str, alias: str) -> str:
        if expr.lower() not in aliases:
            aliases[expr.lower()] = alias
            select.append(f"{expr} {alias}")
            group_by.append(expr)
        return aliases[expr.lower()]

    keys: list[tuple[str, ...]] = []
    names: list[str | None] = []
    merges = False
    for i, g in enumerate(plan.groupings):
        parts = _grouping_parts(g)
        if parts is None:
            return None
        merges = merges or g.granularity is DateGranularity.WEEK
        keys.append(tuple(grouped(p, f"g{i}_{j}") for j, p in enumerate(parts)))
        name_path = g.value.name_path if isinstance(g.value, FieldRef) else None
        names.append(grouped(name_path, f"n{i}") if name_path else None)
    distinct: list[str] = []
    for i, s in enumerate(plan.summaries):
        if s.value is None:
            select.append(f"COUNT(Id) a{i}")
            continue
        assert not isinstance(s.value, DurationRef)  # durations returned None above
        path, agg = s.value.path, s.summary.aggregate
        if agg is Aggregate.COUNT_DISTINCT:
            if merges:
                return None  # distinct counts of days do not add up to weeks
            select.append(f"COUNT_DISTINCT({path}) a{i}")
            distinct.append(f"COUNT_DISTINCT({path}) a{i}")
        elif agg is Aggregate.AVG:
            select += [f"SUM({path}) a{i}", f"COUNT({path}) b{i}"]
        elif agg is Aggregate.COUNT:
            select.append(f"COUNT({path}) a{i}")
        else:
            select.append(f"{agg.value}({path}) a{i}")
    where = where_soql(plan)
    tail = f" FROM {plan.obj.name}" + (" WHERE " + " AND ".join(where) if where else "")
    soql = f"SELECT {', '.join(select)}{tail} GROUP BY {', '.join(group_by)}"
    return AggregateQuery(
        plan,
        f"{soql} LIMIT {MAX_GROUP_ROWS}",
        f"SELECT {', '.join(distinct)}{tail}" if distinct else None,
        tuple(keys),
        tuple(names),
        merges,
    )


def _key(g: ResolvedGrouping, values: list[Any]) -> Any:
    """A report group's raw key (as `rows.bucket` makes it) from its SOQL parts."""
    if any(v is None for v in values):
        return None
    assert isinstance(g.value, FieldRef)  # _grouping_parts let only fields through
    gran = g.granularity
    if gran is None:
        return normal(g.value, values[0])
    if gran is DateGranularity.MONTH:
        return f"{int(values[0]):04d}-{int(values[1]):02d}"
    if gran is DateGranularity.QUARTER:
        return f"{int(values[0]):04d}-Q{int(values[1])}"
    if gran is DateGranularity.YEAR:
        return f"{int(values[0]):04d}"
    if gran is DateGranularity.MONTH_OF_YEAR:
        return int(values[0])
    return bucket(gran, str(values[0]))  # DAY, WEEK


class _Partial:
    """One group's summaries as partial answers that merge: counts and sums add (AVG
    keeps its sum and its count apart), MIN and MAX keep the extreme."""

    def __init__(self, plan: Plan):
        self.aggregates = [
            Aggregate.COUNT if s.value is None else s.summary.aggregate for s in plan.summaries
        ]
        self.first: list[Any] = [None] * len(plan.summaries)  # count, sum or extreme
        self.counted = [0] * len(plan.summaries)  # AVG: the values its sum adds

    def add(self, row: dict[str, Any]) -> None:
        for i, agg in enumerate(self.aggregates):
            value, have = row.get(f"a{i}"), self.first[i]
            if value is None:
                continue
            if agg in (Aggregate.COUNT, Aggregate.COUNT_DISTINCT):
                self.first[i] = (have or 0) + int(value)
            elif agg in (Aggregate.SUM, Aggregate.AVG):
                self.first[i] = (have or 0.0) + float(value)
                self.counted[i] += int(row.get(f"b{i}") or 0)
            else:  # MIN, MAX of numbers, or of dates as text
                pick = min if agg is Aggregate.MIN else max
                self.first[i] = value if have is None else pick(have, value)

    def values(self) -> tuple[Any, ...]:
        out: list[Any] = []
        for i, agg in enumerate(self.aggregates):
            value = self.first[i]
            if agg in (Aggregate.COUNT, Aggregate.COUNT_DISTINCT):
                out.append(value or 0)
            elif agg is Aggregate.AVG:
                out.append(value / self.counted[i] if self.counted[i] else None)
            else:
                out.append(value)
        return tuple(out)


def run_aggregated(query: AggregateQuery, rows: Rows, names_of: Names) -> ReportResult | None:
    """The report from its aggregate query's rows; None when they may not all fit in one
    answer (the caller then fetches rows instead)."""
    plan = query.plan
    answer = rows(query.soql, MAX_GROUP_ROWS)
    if len(answer) >= MAX_GROUP_ROWS:
        return None
    groups: dict[tuple[Any, ...], _Partial] = {}
    total = _Partial(plan)
    names: dict[str, str] = {}
    for row in answer:
        key = tuple(
            _key(g, [row.get(alias) for alias in parts])
            for g, parts in zip(plan.groupings, query.keys, strict=True)
        )
        for raw, alias in zip(key, query.names, strict=True):
            if alias and raw is not None and row.get(alias) is not None:
                names[str(raw)] = str(row[alias])
        groups.setdefault(key, _Partial(plan)).add(row)
        total.add(row)
    totals = list(total.values())
    if query.total_soql is not None:
        whole = (rows(query.total_soql, 1) or [{}])[0]
        for i, agg in enumerate(total.aggregates):
            if agg is Aggregate.COUNT_DISTINCT:
                totals[i] = int(whole.get(f"a{i}") or 0)
    raw_groups = [(key, partial.values()) for key, partial in groups.items()]
    for obj, wanted in wanted_names(plan, raw_groups).items():
        names.update(names_of(obj, wanted))
    return finish(plan, raw_groups, tuple(totals), names)
