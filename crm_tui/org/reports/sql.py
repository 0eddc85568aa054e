"""A report on a local org as one SQL statement.

The row query is SOQL with the report's conditions (`reports.row_query.where_soql`, what the
Salesforce backend sends) selecting the fields the statement reads (`read_paths`; ungrouped,
the detail columns too), compiled by the project's SOQL compiler; this module wraps it in a
CTE with positional column names and groups, buckets and summarises over it:

    WITH r(c0, c1, ...) AS (<compiled row query>)
    SELECT 0, <keys>, <names>, count(*), avg(<duration>) ... FROM r WHERE <row filters>
    GROUP BY <keys>
    UNION ALL SELECT 1, NULL..., <the same summaries> FROM r WHERE <row filters>

Durations count whole seconds (julian days, rounded), as `rows.duration` does; "more than N"
cross filters join a per-parent count of the related rows, compiled from SOQL too.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import Operator, object_of
from crm_tui.org.bulk_gc import collection_paused
from crm_tui.org.reports.definition import (
    Aggregate,
    DateGranularity,
    DurationUnit,
    ReportResult,
)
from crm_tui.org.reports.resolve import DurationRef, FieldRef, Plan, ResolvedGrouping, Value
from crm_tui.org.reports.row_query import filter_soql, read_paths, select_paths, where_soql
from crm_tui.org.reports.rows import detail_row, finish, wanted_names
from crm_tui.org.soql.compiler import CompiledQuery, compile_query
from crm_tui.org.soql.parser import parse_query
from crm_tui.org.soql.sf_errors import SalesforceError
from crm_tui.org.store.orgstore import OrgStore, q


class _Sql:
    def __init__(self, plan: Plan):
        self.plan = plan
        # the row query's select items in order (Id first), each a CTE column: grouped,
        # only what the statement reads (`read_paths`); ungrouped, the detail rows' too
        # Merged totals read the rows once and name lookups after grouping (one name per
        # group, not a join per row); a distinct count reads them twice (`_grouped_twice`).
        self.merges = bool(plan.groupings) and not any(
            s.value is not None and s.summary.aggregate is Aggregate.COUNT_DISTINCT
            for s in plan.summaries
        )
        named = _named_per_row if self.merges else (lambda ref: True)
        self.paths = (
            ["Id", *(p for p in read_paths(plan, named) if p.lower() != "id")]
            if plan.groupings
            else select_paths(plan)
        )
        text = f"SELECT {', '.join(self.paths)} FROM {plan.obj.name}" + (
            " WHERE " + " AND ".join(where_soql(plan)) if where_soql(plan) else ""
        )
        self.row_plan = _compile(text, plan)
        self.params: dict[str, object] = dict(self.row_plan.params)
        self.column = {
            path.lower(): f"c{col.index}"
            for path, col in zip(self.paths, self.row_plan.columns, strict=True)
        }
        self.id_col = "c0"
        columns = ", ".join(f"c{i}" for i in range(_width(self.row_plan)))
        # Read once (merged totals), the rows stay a subquery SQLite flattens into the
        # grouping: no copy of them, and only the columns used are read (from a covering
        # index where there is one), not every column the compiled query selects.
        once = "NOT MATERIALIZED " if self.merges else ""
        self.ctes = [f"r({columns}) AS {once}({self.row_plan.sql})"]
        # Each duration once per row, as a column: grouped and total both read it, and
        # SQLite materialises a CTE read twice instead of computing it twice.
        self.durations = {d.name.lower(): f"d{i}" for i, d in enumerate(plan.durations)}
        if plan.durations:
            seconds = ", ".join(
                f"{self._duration_sql(d)} AS d{i}" for i, d in enumerate(plan.durations)
            )
            self.ctes = [
                f"r0({columns}) AS {once}({self.row_plan.sql})",
                f"r AS {once}(SELECT *, {seconds} FROM r0)",
            ]
        self.joins: list[str] = []
        self.where: list[str] = []
        self._cross()
        self._duration_filters()

    def col(self, ref: FieldRef) -> str:
        return self.column[ref.path.lower()]

    def value(self, value: Value) -> str:
        if isinstance(value, FieldRef):
            return self.col(value)
        return self.durations[value.name.lower()]

    def _duration_sql(self, value: DurationRef) -> str:
        """Whole seconds between the two ends (as `rows.duration`), in the unit: julian
        days to seconds, rounded, since the stored times are whole seconds (half the cost
        of strftime('%s'), which formats text to cast back)."""
        start, end = self.col(value.start), self.col(value.end)
        per = 3600.0 if value.unit is DurationUnit.HOURS else 86400.0
        return (
            f"(round((julianday(substr({end}, 1, 19)) - "
            f"julianday(substr({start}, 1, 19))) * 86400) / {per})"
        )

    def bucket(self, g: ResolvedGrouping) -> str:
        v = self.value(g.value)
        gran = g.granularity
        if gran is None:
            return v
        if gran is DateGranularity.DAY:
            return f"substr({v}, 1, 10)"
        if gran is DateGranularity.WEEK:
            d = f"substr({v}, 1, 10)"
            return f"date({d}, '-' || strftime('%w', {d}) || ' days')"
        if gran is DateGranularity.MONTH:
            return f"substr({v}, 1, 7)"
        if gran is DateGranularity.QUARTER:
            return (
                f"CASE WHEN {v} IS NULL THEN NULL ELSE substr({v}, 1, 4) || '-Q' || "
                f"((CAST(substr({v}, 6, 2) AS INTEGER) + 2) / 3) END"
            )
        if gran is DateGranularity.YEAR:
            return f"substr({v}, 1, 4)"
        return f"CAST(substr({v}, 6, 2) AS INTEGER)"

    def _param(self, value: object) -> str:
        name = f"rp{len(self.params)}"
        self.params[name] = value
        return f":{name}"

    def _cross(self) -> None:
        for n, c in enumerate(self.plan.crosses):
            if c.more_than == 0:
                continue  # a semi-join in the row query
            conds = [filter_soql(f) for f in c.filters]
            text = f"SELECT {c.relationship.field} FROM {c.child.name}" + (
                " WHERE " + " AND ".join(conds) if conds else ""
            )
            child = _compile(text, self.plan)
            sql = child.sql
            for name in sorted(child.params, key=len, reverse=True):
                sql = re.sub(rf":{name}\b", f":x{n}_{name}", sql)
                self.params[f"x{n}_{name}"] = child.params[name]
            cols = ", ".join(f"c{i}" for i in range(_width(child)))
            parent = f"c{child.columns[0].index}"
            self.ctes.append(f"k{n}_rows({cols}) AS ({sql})")
            self.ctes.append(
                f"k{n}(pid, n) AS (SELECT {parent}, count(*) FROM k{n}_rows GROUP BY {parent})"
            )
            self.joins.append(f"LEFT JOIN k{n} ON k{n}.pid = r.{self.id_col}")
            test = f"coalesce(k{n}.n, 0) > {c.more_than}"
            self.where.append(test if c.with_ else f"NOT ({test})")

    def _duration_filters(self) -> None:
        for f in self.plan.filters:
            if not isinstance(f.value, DurationRef):
                continue
            v = self.value(f.value)
            op = f.operator
            if op is Operator.IS_EMPTY:
                self.where.append(f"{v} IS NULL")
            elif op is Operator.IS_NOT_EMPTY:
                self.where.append(f"{v} IS NOT NULL")
            elif op is Operator.NE:
                self.where.append(f"({v} IS NULL OR {v} != {self._param(f.argument)})")
            else:
                self.where.append(f"{v} {op.value} {self._param(f.argument)}")

    def source(self) -> str:
        where = " WHERE " + " AND ".join(self.where) if self.where else ""
        return f"FROM r {' '.join(self.joins)}{where}"

    def summaries(self) -> list[str]:
        out = []
        for s in self.plan.summaries:
            if s.value is None:
                out.append("count(*)")
                continue
            v = self.value(s.value)
            out.append(
                {
                    Aggregate.COUNT: f"count({v})",
                    Aggregate.COUNT_DISTINCT: f"count(DISTINCT {v})",
                    Aggregate.SUM: f"sum({v})",
                    Aggregate.AVG: f"avg({v})",
                    Aggregate.MIN: f"min({v})",
                    Aggregate.MAX: f"max({v})",
                }[s.summary.aggregate]
            )
        return out

    def grouped(self) -> str:
        """The groups and the grand total. The total merges the groups' partial answers
        (counts and sums add, an average is its sum over its count, extremes of extremes),
        so the rows are read once, never materialised; a distinct count does not merge,
        so with one the total reads the rows again."""
        groupings = self.plan.groupings
        if not self.merges:
            return self._grouped_twice()
        keys = [self.bucket(g) for g in groupings]
        partial: list[str] = []  # the columns of g after its keys
        shown: list[str] = []  # each summary, per group
        merged: list[str] = []  # each summary, grand total
        for s in self.plan.summaries:
            at = f"s{len(partial)}"
            if s.value is None:
                partial.append("count(*)")
                shown.append(f"g.{at}")
                merged.append(f"coalesce(sum({at}), 0)")
                continue
            v = self.value(s.value)
            agg = s.summary.aggregate
            if agg is Aggregate.AVG:
                partial += [f"sum({v})", f"count({v})"]
                n = f"s{len(partial) - 1}"
                shown.append(f"1.0 * g.{at} / g.{n}")
                merged.append(f"1.0 * sum({at}) / sum({n})")
            else:
                partial.append(f"{agg.value.lower()}({v})")  # count, sum, min, max
                shown.append(f"g.{at}")
                merged.append(
                    f"coalesce(sum({at}), 0)"
                    if agg is Aggregate.COUNT
                    else f"{'sum' if agg is Aggregate.SUM else agg.value.lower()}({at})"
                )
        key_cols = [f"k{i}" for i in range(len(keys))]
        cols = key_cols + [f"s{i}" for i in range(len(partial))]
        ctes = [
            *self.ctes,
            f"g({', '.join(cols)}) AS MATERIALIZED (SELECT {', '.join(keys + partial)} "
            f"{self.source()} "
            f"GROUP BY {', '.join(keys)})",
        ]
        names: list[str] = []
        joins: list[str] = []
        for i, g in enumerate(groupings):
            title = _title_of(g)
            if title is None:
                names.append("NULL")
                continue
            table, field = title
            names.append(f"n{i}.{q(field)}")
            joins.append(f"LEFT JOIN {q(table)} AS n{i} ON n{i}.{q('Id')} = g.k{i}")
        grouped = (
            f"SELECT 0, {', '.join([f'g.{k}' for k in key_cols] + names + shown)} "
            f"FROM g {' '.join(joins)}"
        )
        nulls = ["NULL"] * (2 * len(keys))
        total = f"SELECT 1, {', '.join(nulls + merged)} FROM g"
        return f"WITH {', '.join(ctes)} {grouped} UNION ALL {total}"

    def _grouped_twice(self) -> str:
        keys = [self.bucket(g) for g in self.plan.groupings]
        names = [
            f"max({self.column[g.value.name_path.lower()]})"
            if isinstance(g.value, FieldRef) and g.value.name_path
            else "NULL"
            for g in self.plan.groupings
        ]
        aggs = self.summaries()
        head = "WITH " + ", ".join(self.ctes)
        grouped = f"SELECT 0, {', '.join(keys + names + aggs)} {self.source()}"
        if keys:
            grouped += f" GROUP BY {', '.join(keys)}"
        nulls = ["NULL"] * (2 * len(keys))
        total = f"SELECT 1, {', '.join(nulls + aggs)} {self.source()}"
        return f"{head} {grouped} UNION ALL {total}"

    def detail(self) -> str:
        cols = [f"r.{c}" for c in self.column.values()]
        limit = self.plan.definition.row_limit + 1
        return (
            f"WITH {', '.join(self.ctes)} SELECT {', '.join(cols)} {self.source()} "
            f"ORDER BY r.{self.id_col} LIMIT {limit}"
        )


def _named_after_grouping(value: Value) -> bool:
    """A grouping by a lookup's record: its name joins the group, after grouping."""
    return isinstance(value, FieldRef) and bool(value.name_path) and value.named_by is not None


def _named_per_row(ref: FieldRef) -> bool:
    """Whether the row query reads a grouping's name (Owner.Name): only when the statement
    cannot name the group after grouping (it reads the rows twice, `_grouped_twice`)."""
    return not _named_after_grouping(ref)


def _title_of(g: ResolvedGrouping) -> tuple[str, str] | None:
    """(table, title column) naming a grouping's lookup records, if it names them."""
    if g.granularity is not None or not _named_after_grouping(g.value):
        return None
    assert isinstance(g.value, FieldRef) and g.value.named_by is not None
    return g.value.named_by, object_of(g.value.named_by).title_field


def _width(plan: CompiledQuery) -> int:
    indexes = [c.index for c in plan.columns] + [p.id_column for p in plan.parents] + [0]
    return max(indexes) + 1


def _compile(text: str, plan: Plan) -> CompiledQuery:
    try:
        return compile_query(text, parse_query(text), plan.today)
    except SalesforceError as exc:  # the definition passed resolve(): a bug, said plainly
        raise CrmTuiError(f"Report cannot run: {exc}") from None


def run_local(store: OrgStore, plan: Plan) -> ReportResult:
    """Run the plan on a local org: one statement for the groups and the grand total
    (and, ungrouped, one for the detail rows)."""
    with collection_paused():  # thousands of groups, no cycles: see `org.bulk_gc`
        return _run_local(store, plan)


def _run_local(store: OrgStore, plan: Plan) -> ReportResult:
    sql = _Sql(plan)
    conn = store.conn
    n = len(plan.groupings)
    groups: list[tuple[tuple[Any, ...], tuple[Any, ...]]] = []
    total: tuple[Any, ...] = ()
    names: dict[str, str] = {}
    records: list[dict[str, Any]] = []
    more = False
    try:
        for row in conn.execute(sql.grouped(), sql.params).fetchall():
            keys, titles, values = (
                tuple(row[1 : 1 + n]),
                row[1 + n : 1 + 2 * n],
                tuple(row[1 + 2 * n :]),
            )
            if row[0] == 1:
                total = values
                continue
            for k, t in zip(keys, titles, strict=True):
                if k is not None and t is not None:
                    names[str(k)] = str(t)
            groups.append((keys, values))
        if not plan.groupings:
            raw = conn.execute(sql.detail(), sql.params).fetchall()
            more = len(raw) > plan.definition.row_limit
            for r in raw[: plan.definition.row_limit]:
                record: dict[str, Any] = {}
                for path, value in zip(sql.paths, r, strict=True):
                    _put(record, path, value)
                records.append(record)
        for obj, wanted in wanted_names(plan, groups, records).items():
            names.update(_local_names(store, obj, wanted))
    except sqlite3.Error as exc:
        raise CrmTuiError(f"Report failed on the org file: {exc}") from None
    detail = tuple(detail_row(plan, rec, names) for rec in records)
    ids = tuple(str(rec["Id"]) for rec in records)
    return finish(plan, groups, total, names, detail, ids, more)


def _put(record: dict[str, Any], path: str, value: Any) -> None:
    parts = path.split(".")
    here = record
    for p in parts[:-1]:
        here = here.setdefault(p, {})
    here[parts[-1]] = value


def _local_names(store: OrgStore, object_name: str, ids: set[str]) -> dict[str, str]:
    obj = object_of(object_name)
    marks = ", ".join("?" * len(ids))
    rows = store.conn.execute(
        f"SELECT {q('Id')}, {q(obj.title_field)} FROM {q(obj.name)} WHERE {q('Id')} IN ({marks})",
        sorted(ids),
    ).fetchall()
    return {str(r[0]): str(r[1]) for r in rows if r[1] is not None}
