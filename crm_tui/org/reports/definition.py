"""A report as data: what a person builds in a report builder, and what a run answers.

A `ReportDefinition` names a report type (an object), its columns (own fields and parent
fields through lookups, dotted as SOQL names them: `Account.ShippingState`, `Owner.Name`,
`OrderItemId__r.Product2.Name`), filters (every list-view operator, on own or parent
fields), date ranges (Salesforce's relative literals such as `LAST_N_MONTHS:3` counted
from a "today", or calendar ranges: `2024-03`, `2024-Q2`, `2024`, `2024-01-05..2024-02-10`),
cross filters ("with / without related rows matching ..., more than N"), row-level
durations (`Age` on Case: hours from CreatedDate to ClosedDate), up to three groupings
(dates by day, week, month, quarter, year or month of the year), summaries, a sort of the
groups by a summary and a top N, optionally shown as a matrix.

`ReportResult` is what a run answers, the same on every backend. Definitions load from
and dump to TOML or JSON (`load_definition`, `dump_definition`); `validate` (in
`crm_tui.org.reports.resolve`) checks one against an org's schema and raises a one-line
CrmTuiError naming the bad part.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, replace
from datetime import date
from enum import StrEnum
from pathlib import Path
from typing import Any

from crm_tui.atomic import read_regular_file
from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import Operator

__all__ = [
    "AGE",
    "MAX_GROUPINGS",
    "summary_unit",
    "Aggregate",
    "CrossFilter",
    "DateGranularity",
    "DateRange",
    "Duration",
    "DurationUnit",
    "GroupKey",
    "GroupRow",
    "Grouping",
    "ReportDefinition",
    "ReportFilter",
    "ReportResult",
    "Summary",
    "SummarySort",
    "dump_definition",
    "load_definition",
    "parse_definition",
]

MAX_GROUPINGS = 3


class DateGranularity(StrEnum):
    DAY = "day"
    WEEK = "week"  # weeks start on Sunday (en_US), labelled by that Sunday
    MONTH = "month"  # calendar month: 2024-03
    QUARTER = "quarter"  # 2024-Q2
    YEAR = "year"
    MONTH_OF_YEAR = "month_of_year"  # March, pooled across years


class Aggregate(StrEnum):
    COUNT = "COUNT"  # record count (no field)
    COUNT_DISTINCT = "COUNT_DISTINCT"
    SUM = "SUM"
    AVG = "AVG"
    MIN = "MIN"
    MAX = "MAX"


class DurationUnit(StrEnum):
    HOURS = "hours"
    DAYS = "days"


@dataclass(frozen=True)
class Duration:
    """A row-level number: `end - start` (two Date/DateTime field paths) in `unit`;
    empty when either end is empty."""

    name: str
    start: str
    end: str
    unit: DurationUnit = DurationUnit.HOURS


# Salesforce's Case Age, for closed cases: hours from opening to closing. Every Case
# report has it without declaring it.
AGE = Duration("Age", "CreatedDate", "ClosedDate", DurationUnit.HOURS)


@dataclass(frozen=True)
class ReportFilter:
    """`field` (a path, or a duration's name) compared with `value` by a list-view operator."""

    field: str
    operator: Operator
    value: Any = None


@dataclass(frozen=True)
class DateRange:
    """`field` (a Date/DateTime path) within `range`: a relative literal counted from the
    report's today (`LAST_N_MONTHS:3`, `THIS_QUARTER`, `LAST_N_DAYS:30`, ...) or a calendar
    range (`2024-03` a month, `2024-Q2` a quarter, `2024` a year, `2024-01-05..2024-02-10`
    two days, both included). Days are UTC days."""

    field: str
    range: str


@dataclass(frozen=True)
class CrossFilter:
    """Records with (or without) child rows of `child` (a child relationship name such as
    `Histories__r`, or the child object's name) matching `filters`; with `more_than`,
    only those with more than that many such rows (without: at most that many)."""

    child: str
    filters: tuple[ReportFilter, ...] = ()
    with_: bool = True
    more_than: int | None = None


@dataclass(frozen=True)
class Grouping:
    """Group rows by `field` (a path or a duration's name); a date by `granularity`
    (default: day); a lookup groups by its record and shows its name."""

    field: str
    granularity: DateGranularity | None = None


@dataclass(frozen=True)
class Summary:
    """`COUNT()` or `AGG(field)`, e.g. `AVG(Age)`, `COUNT_DISTINCT(AccountId)`."""

    aggregate: Aggregate
    field: str | None = None

    @property
    def key(self) -> str:
        return f"{self.aggregate.value}({self.field or ''})"

    @classmethod
    def parse(cls, text: str) -> Summary:
        """`COUNT()`, `count`, `avg(Age)`, ... -> Summary; CrmTuiError naming the text."""
        raw = text.strip()
        name, _, rest = raw.partition("(")
        arg = rest.rstrip(")").strip() if rest else ""
        try:
            agg = Aggregate(name.strip().upper())
        except ValueError:
            known = ", ".join(a.value for a in Aggregate)
            raise CrmTuiError(
                f"Summary {text!r}: unknown aggregate (use one of: {known})"
            ) from None
        if agg is not Aggregate.COUNT and not arg:
            raise CrmTuiError(f"Summary {text!r}: {agg.value} needs a field, e.g. {agg.value}(Age)")
        return cls(agg, arg or None)


@dataclass(frozen=True)
class SummarySort:
    """Groups ordered by the summary with this key (e.g. `AVG(Age)`)."""

    summary: str
    descending: bool = True


@dataclass(frozen=True)
class ReportDefinition:
    object_name: str
    columns: tuple[str, ...] = ()  # detail columns (ungrouped reports); default: title field
    filters: tuple[ReportFilter, ...] = ()
    date_ranges: tuple[DateRange, ...] = ()
    cross_filters: tuple[CrossFilter, ...] = ()
    durations: tuple[Duration, ...] = ()  # besides AGE, which Case reports always have
    groupings: tuple[Grouping, ...] = ()
    summaries: tuple[Summary, ...] = ()  # COUNT() is always there as well
    sort: SummarySort | None = None  # None: groups in key order
    top_n: int | None = None
    matrix: bool = False  # two groupings: rows by the first, columns by the second
    today: date | None = None  # for relative ranges; None: the org's today
    row_limit: int = 2_000  # detail rows shown when ungrouped
    name: str = ""

    @property
    def all_summaries(self) -> tuple[Summary, ...]:
        """COUNT() first (every report counts records), then the others in order."""
        count = Summary(Aggregate.COUNT)
        return (count, *(s for s in self.summaries if s != count))

    def with_(self, **changes: Any) -> ReportDefinition:
        return replace(self, **changes)


# --------------------------------------------------------------------- results
@dataclass(frozen=True)
class GroupKey:
    """One grouping's value for a group: raw `value`, what reads on screen, and the record
    Id for a lookup (or a User Id held in text, as CaseHistory__c's Old/NewValue__c)."""

    value: Any
    label: str
    record_id: str | None = None


@dataclass(frozen=True)
class GroupRow:
    keys: tuple[GroupKey, ...]
    values: tuple[
        float | int | str | None, ...
    ]  # per `ReportResult.summaries` (MIN/MAX of a date: text)

    @property
    def count(self) -> int:
        return int(self.values[0] or 0)


def summary_unit(definition: ReportDefinition, key: str) -> str | None:
    """The unit of a summary over a duration ("hours" for AVG(Age) on Case); None for a
    count or a field's values."""
    try:
        summary = Summary.parse(key)
    except (CrmTuiError, ValueError):
        return None
    if summary.field is None or summary.aggregate is Aggregate.COUNT_DISTINCT:
        return None
    durations = (
        (AGE, *definition.durations) if definition.object_name == "Case" else definition.durations
    )
    found = next((d for d in durations if d.name.lower() == summary.field.lower()), None)
    return found.unit.value if found else None


@dataclass(frozen=True)
class ReportResult:
    definition: ReportDefinition
    summaries: tuple[str, ...]  # summary keys, COUNT() first
    grouping_labels: tuple[str, ...]
    groups: tuple[GroupRow, ...]  # leaf groups (every grouping), sorted, cut to top N
    total: tuple[float | int | str | None, ...]  # grand total per summary, over every row
    columns: tuple[str, ...] = ()  # detail column paths (ungrouped reports)
    column_labels: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()  # detail rows, displayed, when ungrouped
    row_ids: tuple[str, ...] = ()  # the record Id of each detail row
    truncated: bool = False  # more detail rows (or groups past top N) than shown
    group_count: int = 0  # groups before top N
    today: date | None = None  # the day relative ranges were counted from

    @property
    def record_count(self) -> int:
        return int(self.total[0] or 0)

    @property
    def top(self) -> GroupRow | None:
        return self.groups[0] if self.groups else None

    def value(self, row: GroupRow, summary: str) -> float | int | str | None:
        """A group's summary by its key, e.g. `result.value(result.top, "AVG(Age)")`."""
        return row.values[self.summaries.index(summary)]

    def value_total(self, summary: str) -> float | int | str | None:
        """The grand total of a summary by its key."""
        return self.total[self.summaries.index(summary)]

    def matrix(
        self, summary: str = "COUNT()"
    ) -> tuple[list[GroupKey], list[GroupKey], dict[tuple[Any, Any], float | int | str | None]]:
        """Rows (first grouping's keys), columns (second's) and cells (row value, column
        value) -> the summary, for a report with two groupings."""
        if len(self.grouping_labels) < 2:
            raise CrmTuiError("A matrix needs two groupings")
        index = self.summaries.index(summary)
        rows: dict[Any, GroupKey] = {}
        cols: dict[Any, GroupKey] = {}
        cells: dict[tuple[Any, Any], float | int | str | None] = {}
        for g in self.groups:
            rows.setdefault(g.keys[0].value, g.keys[0])
            cols.setdefault(g.keys[1].value, g.keys[1])
            cells[(g.keys[0].value, g.keys[1].value)] = g.values[index]
        return list(rows.values()), sorted(cols.values(), key=_sort_key), cells


def _sort_key(key: GroupKey) -> tuple[int, str]:
    return (key.value is None, str(key.value))


# --------------------------------------------------------------------- documents
MAX_DEFINITION_BYTES = 1 << 20  # a definition is a few hundred bytes


def load_definition(path: str | Path) -> ReportDefinition:
    """A definition from a .toml or .json file; CrmTuiError naming the bad part."""
    p = Path(path)
    data = read_regular_file(p, "a report definition", MAX_DEFINITION_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CrmTuiError(
            f"{p}: not UTF-8 text (byte {exc.start}); a report definition is TOML or JSON"
        ) from None
    return parse_definition(text, "json" if p.suffix.lower() == ".json" else "toml")


def parse_definition(text: str, fmt: str = "toml") -> ReportDefinition:
    try:
        doc = json.loads(text) if fmt == "json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        raise CrmTuiError(f"Report definition is not valid {fmt.upper()}: {exc}") from None
    except RecursionError:
        raise CrmTuiError(
            f"Report definition is not valid {fmt.upper()}: nested too deeply"
        ) from None
    if not isinstance(doc, dict):
        raise CrmTuiError("Report definition must be a table (object)")
    return from_dict(doc)


def _filter(part: str, raw: Any) -> ReportFilter:
    if not isinstance(raw, dict) or "field" not in raw:
        raise CrmTuiError(f"{part}: needs field, operator and (mostly) value")
    try:
        op = Operator(raw.get("operator", "="))
    except ValueError:
        known = ", ".join(o.value for o in Operator)
        raise CrmTuiError(
            f"{part}: unknown operator {raw.get('operator')!r} (use one of: {known})"
        ) from None
    return ReportFilter(str(raw["field"]), op, raw.get("value"))


_KEYS = {
    "object",
    "name",
    "columns",
    "filters",
    "date_ranges",
    "cross_filters",
    "durations",
    "groupings",
    "summaries",
    "sort",
    "top_n",
    "matrix",
    "today",
    "row_limit",
}


def from_dict(doc: dict[str, Any]) -> ReportDefinition:
    """A definition from its document form (see `to_dict`)."""
    unknown = sorted(set(doc) - _KEYS)
    if unknown:
        raise CrmTuiError(f"Report definition: unknown key {unknown[0]!r}")
    if not isinstance(doc.get("object"), str):
        raise CrmTuiError("Report definition: 'object' (the report type) is missing")

    def items(key: str) -> list[Any]:
        value = doc.get(key, [])
        if not isinstance(value, list):
            raise CrmTuiError(f"Report definition: {key!r} must be a list")
        return value

    filters = tuple(_filter(f"Filter {i + 1}", f) for i, f in enumerate(items("filters")))
    ranges = []
    for i, r in enumerate(items("date_ranges")):
        if not isinstance(r, dict) or "field" not in r or "range" not in r:
            raise CrmTuiError(f"Date range {i + 1}: needs field and range")
        ranges.append(DateRange(str(r["field"]), str(r["range"])))
    crosses = []
    for i, c in enumerate(items("cross_filters")):
        if not isinstance(c, dict) or "child" not in c:
            raise CrmTuiError(f"Cross filter {i + 1}: needs child (a related list)")
        crosses.append(
            CrossFilter(
                str(c["child"]),
                tuple(
                    _filter(f"Cross filter {i + 1}, filter {j + 1}", f)
                    for j, f in enumerate(c.get("filters", []))
                ),
                _flag(c.get("with", True), "Cross filter with"),
                _whole(c["more_than"], "Cross filter more_than", 0)
                if c.get("more_than") is not None
                else None,
            )
        )
    durations = []
    for i, d in enumerate(items("durations")):
        if not isinstance(d, dict) or not {"name", "start", "end"} <= set(d):
            raise CrmTuiError(f"Duration {i + 1}: needs name, start and end")
        try:
            unit = DurationUnit(d.get("unit", "hours"))
        except ValueError:
            raise CrmTuiError(f"Duration {d['name']!r}: unit must be hours or days") from None
        durations.append(Duration(str(d["name"]), str(d["start"]), str(d["end"]), unit))
    groupings = []
    for i, g in enumerate(items("groupings")):
        if isinstance(g, str):
            g = {"field": g}
        if not isinstance(g, dict) or "field" not in g:
            raise CrmTuiError(f"Grouping {i + 1}: needs field")
        gran = None
        if g.get("by") is not None:
            try:
                gran = DateGranularity(str(g["by"]).lower())
            except ValueError:
                known = ", ".join(x.value for x in DateGranularity)
                raise CrmTuiError(
                    f"Grouping {g['field']!r}: unknown date grouping {g['by']!r} (use: {known})"
                ) from None
        groupings.append(Grouping(str(g["field"]), gran))
    summaries = tuple(Summary.parse(str(s)) for s in items("summaries"))
    sort = None
    if doc.get("sort") is not None:
        s = doc["sort"]
        if isinstance(s, str):
            s = {"summary": s}
        if not isinstance(s, dict) or "summary" not in s:
            raise CrmTuiError("Sort: needs summary, e.g. sort = {summary = 'AVG(Age)'}")
        descending = _flag(s.get("descending", True), "Sort descending")
        sort = SummarySort(Summary.parse(str(s["summary"])).key, descending)
    today = None
    if doc.get("today") is not None:
        try:
            today = date.fromisoformat(str(doc["today"])[:10])
        except ValueError:
            raise CrmTuiError(f"Today: {doc['today']!r} is not a day like 2024-05-01") from None
    top_n = _whole(doc["top_n"], "Top N", 1) if doc.get("top_n") is not None else None
    return ReportDefinition(
        object_name=doc["object"],
        columns=tuple(str(c) for c in items("columns")),
        filters=filters,
        date_ranges=tuple(ranges),
        cross_filters=tuple(crosses),
        durations=tuple(durations),
        groupings=tuple(groupings),
        summaries=summaries,
        sort=sort,
        top_n=top_n,
        matrix=_flag(doc.get("matrix", False), "Matrix"),
        today=today,
        row_limit=_whole(doc.get("row_limit", 2_000), "Row limit", 1),
        name=str(doc.get("name", "")),
    )


def _whole(value: object, part: str, minimum: int) -> int:
    """A whole number of at least `minimum`, or one line naming the part (TOML and JSON
    give ints; a bool is not a number here)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        wanted = "a positive whole number" if minimum == 1 else f"a whole number from {minimum}"
        raise CrmTuiError(f"{part}: needs {wanted}, not {value!r}")
    return value


def _flag(value: object, part: str) -> bool:
    """true or false, or one line naming the part ("false" as text is not quietly true)."""
    if not isinstance(value, bool):
        raise CrmTuiError(f"{part}: needs true or false, not {value!r}")
    return value


def _filter_dict(f: ReportFilter) -> dict[str, Any]:
    out: dict[str, Any] = {"field": f.field, "operator": Operator(f.operator).value}
    if f.value is not None:
        out["value"] = f.value.isoformat() if isinstance(f.value, date) else f.value
    return out


def to_dict(d: ReportDefinition) -> dict[str, Any]:
    """The document form of a definition (only the parts that differ from the defaults)."""
    out: dict[str, Any] = {}
    if d.name:
        out["name"] = d.name
    out["object"] = d.object_name
    if d.today is not None:
        out["today"] = d.today.isoformat()
    if d.columns:
        out["columns"] = list(d.columns)
    if d.filters:
        out["filters"] = [_filter_dict(f) for f in d.filters]
    if d.date_ranges:
        out["date_ranges"] = [{"field": r.field, "range": r.range} for r in d.date_ranges]
    if d.cross_filters:
        out["cross_filters"] = []
        for c in d.cross_filters:
            cd: dict[str, Any] = {"child": c.child, "with": c.with_}
            if c.more_than is not None:
                cd["more_than"] = c.more_than
            if c.filters:
                cd["filters"] = [_filter_dict(f) for f in c.filters]
            out["cross_filters"].append(cd)
    if d.durations:
        out["durations"] = [
            {"name": x.name, "start": x.start, "end": x.end, "unit": x.unit.value}
            for x in d.durations
        ]
    if d.groupings:
        out["groupings"] = [
            {"field": g.field, **({"by": g.granularity.value} if g.granularity else {})}
            for g in d.groupings
        ]
    if d.summaries:
        out["summaries"] = [s.key for s in d.summaries]
    if d.sort is not None:
        out["sort"] = {"summary": d.sort.summary, "descending": d.sort.descending}
    if d.top_n is not None:
        out["top_n"] = d.top_n
    if d.matrix:
        out["matrix"] = True
    if d.row_limit != 2_000:
        out["row_limit"] = d.row_limit
    return out


def dump_definition(d: ReportDefinition, fmt: str = "toml") -> str:
    """The definition as a TOML (default) or JSON document that `parse_definition` reads."""
    doc = to_dict(d)
    if fmt == "json":
        return json.dumps(doc, indent=2) + "\n"
    return _toml(doc)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a TOML basic string is a JSON string
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + "}"
    raise CrmTuiError(f"Cannot write {v!r} into a report definition")


def _toml(doc: dict[str, Any]) -> str:
    """A tiny TOML writer: scalars and lists first, then arrays of tables."""
    head, tables = [], []
    for k, v in doc.items():
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for item in v:
                tables.append(f"\n[[{k}]]")
                tables += [f"{ik} = {_toml_value(iv)}" for ik, iv in item.items()]
        else:
            head.append(f"{k} = {_toml_value(v)}")
    return "\n".join(head + tables) + "\n"
