"""A report definition checked against an org's schema: every path, range and summary
resolved to fields, or one CrmTuiError line naming the part that does not fit.

The resolved `Plan` is what the runners (`sql` for a local org, `rows` and `soql` for
Salesforce) work from, so they never re-read the definition's text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta

from dateutil.relativedelta import relativedelta

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import (
    ID_TEXT_FIELDS,  # text fields holding a record Id: reports show (and group by) its name
    TEXT_TYPES,
    Field,
    FieldType,
    FilterValue,
    Operator,
    SObject,
    coerce_value,
)
from crm_tui.org.reports.definition import (
    AGE,
    MAX_GROUPINGS,
    Aggregate,
    DateGranularity,
    Duration,
    DurationUnit,
    ReportDefinition,
    ReportFilter,
    Summary,
)
from crm_tui.org.schema.catalogue import ChildRelationship, child_relationships
from crm_tui.org.soql.dates import DATE_LITERALS, N_DATE_LITERALS, date_range

Describe = Callable[[str], SObject]

_DATES = (FieldType.DATE, FieldType.DATETIME)
_NUMBERS = (FieldType.NUMBER, FieldType.CURRENCY)


@dataclass(frozen=True)
class FieldRef:
    """A field reached from the report's object through zero or more lookups."""

    path: str  # canonical SOQL path: Account.ShippingState, OrderItemId__r.Product2.Name
    lookups: tuple[Field, ...]  # the lookups walked, in order
    field: Field
    owner: str  # the object that has `field`
    label: str
    named_by: str | None = None  # object whose title names the value (a lookup, or an Id in text)

    @property
    def relationships(self) -> tuple[str, ...]:
        return tuple(f.relationship for f in self.lookups)

    @property
    def name_path(self) -> str | None:
        """The SOQL path of the referenced record's title (Owner.Name) for a lookup."""
        if not self.field.is_lookup or not self.field.relationship_name or not self.named_by:
            return None
        return ".".join((*self.relationships, self.field.relationship, _title(self.named_by)))


@dataclass(frozen=True)
class DurationRef:
    name: str
    start: FieldRef
    end: FieldRef
    unit: DurationUnit

    @property
    def label(self) -> str:
        return f"{self.name} ({self.unit.value})"


Value = FieldRef | DurationRef


@dataclass(frozen=True)
class ResolvedFilter:
    value: Value
    operator: Operator
    argument: FilterValue


@dataclass(frozen=True)
class ResolvedRange:
    field: FieldRef
    start: date  # first day in
    end: date  # first day out


@dataclass(frozen=True)
class ResolvedCross:
    relationship: ChildRelationship
    child: SObject
    filters: tuple[ResolvedFilter, ...]
    with_: bool
    more_than: int  # 0: "with any"


@dataclass(frozen=True)
class ResolvedGrouping:
    value: Value
    granularity: DateGranularity | None
    label: str


@dataclass(frozen=True)
class ResolvedSummary:
    summary: Summary
    value: Value | None  # None for COUNT()

    @property
    def key(self) -> str:
        return self.summary.key


@dataclass(frozen=True)
class Plan:
    definition: ReportDefinition
    obj: SObject
    today: date
    columns: tuple[FieldRef, ...]
    filters: tuple[ResolvedFilter, ...]
    ranges: tuple[ResolvedRange, ...]
    crosses: tuple[ResolvedCross, ...]
    groupings: tuple[ResolvedGrouping, ...]
    summaries: tuple[ResolvedSummary, ...]  # COUNT() first

    @property
    def durations(self) -> tuple[DurationRef, ...]:
        """Every duration the report uses (filters, groupings, summaries)."""
        found: dict[str, DurationRef] = {}
        for v in [f.value for f in self.filters] + [g.value for g in self.groupings]:
            if isinstance(v, DurationRef):
                found[v.name] = v
        for s in self.summaries:
            if isinstance(s.value, DurationRef):
                found[s.value.name] = s.value
        return tuple(found.values())

    @property
    def field_refs(self) -> tuple[FieldRef, ...]:
        """Every field the report reads from its rows (filters, groupings, summaries,
        durations' ends, columns), once each, in a stable order."""
        refs: dict[str, FieldRef] = {}

        def add(v: Value | None) -> None:
            if isinstance(v, FieldRef):
                refs.setdefault(v.path.lower(), v)
            elif isinstance(v, DurationRef):
                add(v.start)
                add(v.end)

        for c in self.columns:
            add(c)
        for f in self.filters:
            add(f.value)
        for r in self.ranges:
            add(r.field)
        for g in self.groupings:
            add(g.value)
        for s in self.summaries:
            add(s.value)
        return tuple(refs.values())


def _title(object_name: str) -> str:
    from crm_tui.org.backends.interface import object_of

    return object_of(object_name).title_field


def resolve_path(describe: Describe, obj: SObject, path: str, part: str) -> FieldRef:
    """`Account.ShippingState` on Case -> FieldRef; CrmTuiError starting with `part`."""
    parts = [p.strip() for p in path.split(".")]
    if not all(parts):
        raise CrmTuiError(f"{part}: {path!r} is not a field path")
    here = obj
    lookups: list[Field] = []
    labels: list[str] = []
    for rel in parts[:-1]:
        lookup = here.parent_relationship_fields.get(rel.lower())
        if lookup is None or lookup.reference_to is None:
            raise CrmTuiError(f"{part}: no lookup {rel!r} on {here.name} (in {path!r})")
        lookups.append(lookup)
        labels.append(lookup.label.removesuffix(" ID").removesuffix(" Id"))
        here = describe(lookup.reference_to)
    if not here.has_field(parts[-1]):
        raise CrmTuiError(f"{part}: unknown field {parts[-1]!r} on {here.name}")
    fld = here.field(parts[-1])
    named_by = fld.reference_to if fld.is_lookup else ID_TEXT_FIELDS.get((here.name, fld.name))
    canonical = ".".join([*(lk.relationship for lk in lookups), fld.name])
    label = ": ".join([*labels, fld.label])
    return FieldRef(canonical, tuple(lookups), fld, here.name, label, named_by)


def _durations(d: ReportDefinition, obj: SObject) -> dict[str, Duration]:
    found = {AGE.name.lower(): AGE} if obj.name == "Case" else {}
    for dur in d.durations:
        found[dur.name.lower()] = dur
    return found


def resolve_value(
    describe: Describe, obj: SObject, d: ReportDefinition, name: str, part: str
) -> Value:
    """A duration's name (Age on Case, or one the definition declares) or a field path."""
    dur = _durations(d, obj).get(name.strip().lower())
    if dur is None:
        return resolve_path(describe, obj, name, part)
    ends = []
    for which, path in (("start", dur.start), ("end", dur.end)):
        ref = resolve_path(describe, obj, path, f"Duration {dur.name!r} {which}")
        if ref.field.type not in _DATES:
            raise CrmTuiError(
                f"Duration {dur.name!r}: {ref.label} ({ref.path}) is not a date or date/time"
            )
        ends.append(ref)
    return DurationRef(dur.name, ends[0], ends[1], dur.unit)


def _kind(value: Value) -> str:
    if isinstance(value, DurationRef):
        return "number"
    t = value.field.type
    if t in _NUMBERS:
        return "number"
    if t in _DATES:
        return "date"
    if t is FieldType.LONG_TEXT:
        return "long text"
    if t is FieldType.BOOLEAN:
        return "boolean"
    if t in (FieldType.ID, FieldType.LOOKUP):
        return "id"
    return "text"


def _value_label(value: Value) -> str:
    return value.label if isinstance(value, FieldRef) else value.label


def _filter(
    describe: Describe, obj: SObject, d: ReportDefinition, f: ReportFilter, part: str
) -> ResolvedFilter:
    value = resolve_value(describe, obj, d, f.field, part)
    try:
        op = Operator(f.operator)
    except ValueError:
        known = ", ".join(o.value for o in Operator)
        raise CrmTuiError(
            f"{part}: unknown operator {f.operator!r} (use one of: {known})"
        ) from None
    kind = _kind(value)
    label = _value_label(value)
    if op in (Operator.CONTAINS, Operator.STARTS_WITH) and kind not in ("text", "long text"):
        raise CrmTuiError(f"{part}: {label} is not text, so '{op}' does not apply")
    if op in (Operator.LT, Operator.LE, Operator.GT, Operator.GE) and kind == "boolean":
        raise CrmTuiError(f"{part}: {label} is true or false, so '{op}' does not apply")
    if not op.takes_value:
        return ResolvedFilter(value, op, None)
    if isinstance(value, DurationRef):
        try:
            return ResolvedFilter(value, op, float(f.value))
        except (TypeError, ValueError):
            raise CrmTuiError(f"{part}: {label} needs a number, not {f.value!r}") from None
    try:
        argument = coerce_value(value.field, f.value)
    except CrmTuiError as exc:
        raise CrmTuiError(f"{part}: {exc}") from None
    if value.field.type in TEXT_TYPES and not isinstance(argument, str):
        argument = str(argument)
    return ResolvedFilter(value, op, argument)


_MONTH = re.compile(r"^(\d{4})-(\d{1,2})$")
_QUARTER = re.compile(r"^(\d{4})-?Q([1-4])$", re.IGNORECASE)
_YEAR = re.compile(r"^(\d{4})$")


def range_days(text: str, today: date) -> tuple[date, date]:
    """A date range's days [start, end): a relative literal counted from `today`, or a
    calendar range (`2024-03`, `2024-Q2`, `2024`, `2024-01-05..2024-02-10` inclusive)."""
    raw = text.strip()
    name, _, n_text = raw.upper().partition(":")
    if name in DATE_LITERALS or name in N_DATE_LITERALS:
        try:
            return date_range(name, int(n_text) if n_text else None, today)
        except (OverflowError, ValueError) as exc:  # LAST_N_DAYS:999999999999: past 9999
            raise ValueError(str(exc)) from None
    if m := _MONTH.match(raw):
        start = date(int(m[1]), int(m[2]), 1)
        return start, start + relativedelta(months=1)
    if m := _QUARTER.match(raw):
        start = date(int(m[1]), 3 * int(m[2]) - 2, 1)
        return start, start + relativedelta(months=3)
    if m := _YEAR.match(raw):
        return date(int(m[1]), 1, 1), date(int(m[1]) + 1, 1, 1)
    if ".." in raw:
        first, _, last = raw.partition("..")
        start, end = date.fromisoformat(first.strip()), date.fromisoformat(last.strip())
        if end < start:
            raise ValueError(f"{last.strip()} comes before {first.strip()}")
        return start, end + timedelta(days=1)
    raise ValueError(
        "use a relative range (LAST_N_MONTHS:3, THIS_QUARTER, ...), a month (2024-03), "
        "a quarter (2024-Q2), a year (2024) or two days (2024-01-05..2024-02-10)"
    )


def _cross_relationship(obj: SObject, name: str, part: str) -> ChildRelationship:
    rels = child_relationships(obj.name)
    by_name = [r for r in rels if r.name.lower() == name.lower()]
    by_child = [r for r in rels if r.child.lower() == name.lower()]
    if by_name:
        return by_name[0]
    if len(by_child) == 1:
        return by_child[0]
    if by_child:
        names = ", ".join(r.name for r in by_child)
        raise CrmTuiError(f"{part}: {name} relates to {obj.name} in several ways; use {names}")
    known = ", ".join(r.name for r in rels) or "none"
    raise CrmTuiError(f"{part}: no related list {name!r} on {obj.name} (has: {known})")


def cross_filter_choices(object_name: str) -> list[str]:
    """What a cross filter on `object_name` may name: its related lists and their objects."""
    rels = child_relationships(object_name)
    return list(dict.fromkeys([*(r.name for r in rels), *(r.child for r in rels)]))


def cross_filter_fields(describe: Describe, object_name: str, child: str) -> list[str]:
    """The fields of the rows a cross filter's `child` names (a CrmTuiError if none)."""
    rel = _cross_relationship(describe(object_name), child, "Cross filter")
    return describe(rel.child).field_names


def resolve(definition: ReportDefinition, describe: Describe, today: date) -> Plan:
    """The definition resolved against the org's schema, relative ranges counted from
    `today` (the caller picks: the run's today, else the definition's, else the org's),
    or a one-line CrmTuiError naming the part (unknown field, aggregate on text, grouping on long text, >3 groupings...)."""
    d = definition
    try:
        obj = describe(d.object_name)
    except CrmTuiError as exc:
        raise CrmTuiError(f"Report type: {exc}") from None
    if len(d.groupings) > MAX_GROUPINGS:
        raise CrmTuiError(f"Groupings: at most {MAX_GROUPINGS}, not {len(d.groupings)}")
    if d.matrix and len(d.groupings) != 2:
        raise CrmTuiError(f"Matrix: needs exactly two groupings, not {len(d.groupings)}")
    if d.row_limit < 1:
        raise CrmTuiError(f"Row limit: needs a positive number, not {d.row_limit}")
    for dur in d.durations:
        if obj.has_field(dur.name):
            raise CrmTuiError(f"Duration {dur.name!r}: {obj.name} has a field of that name")
    columns = tuple(resolve_path(describe, obj, c, f"Column {c!r}") for c in d.columns) or (
        resolve_path(describe, obj, obj.title_field, "Column"),
    )
    filters = tuple(
        _filter(describe, obj, d, f, f"Filter {i + 1} ({f.field})") for i, f in enumerate(d.filters)
    )
    ranges = []
    for r in d.date_ranges:
        part = f"Date range on {r.field}"
        ref = resolve_path(describe, obj, r.field, part)
        if ref.field.type not in _DATES:
            raise CrmTuiError(f"{part}: {ref.label} is not a date or date/time")
        try:
            start, end = range_days(r.range, today)
        except ValueError as exc:
            raise CrmTuiError(f"{part}: {r.range!r}: {exc}") from None
        ranges.append(ResolvedRange(ref, start, end))
    crosses = []
    for i, c in enumerate(d.cross_filters):
        part = f"Cross filter {i + 1} ({c.child})"
        rel = _cross_relationship(obj, c.child, part)
        child = describe(rel.child)
        child_def = ReportDefinition(child.name)
        cf = tuple(
            _filter(describe, child, child_def, f, f"{part}, filter {j + 1} ({f.field})")
            for j, f in enumerate(c.filters)
        )
        if any(isinstance(f.value, FieldRef) and f.value.lookups for f in cf):
            raise CrmTuiError(f"{part}: filters on related rows take their own fields only")
        if c.more_than is not None and c.more_than < 0:
            raise CrmTuiError(f"{part}: 'more than' needs 0 or more, not {c.more_than}")
        crosses.append(ResolvedCross(rel, child, cf, c.with_, c.more_than or 0))
    groupings = []
    for g in d.groupings:
        part = f"Grouping {g.field!r}"
        value = resolve_value(describe, obj, d, g.field, part)
        kind = _kind(value)
        if kind == "long text":
            raise CrmTuiError(f"{part}: {_value_label(value)} is a long text; it cannot be grouped")
        gran = g.granularity
        if gran is not None and kind != "date":
            raise CrmTuiError(f"{part}: {_value_label(value)} is not a date; group it without 'by'")
        if kind == "date" and gran is None:
            gran = DateGranularity.DAY
        label = _value_label(value) + (f" ({gran.value.replace('_', ' ')})" if gran else "")
        groupings.append(ResolvedGrouping(value, gran, label))
    summaries = [ResolvedSummary(Summary(Aggregate.COUNT), None)]
    for s in d.all_summaries[1:]:
        part = f"Summary {s.key}"
        if s.field is None:
            raise CrmTuiError(f"{part}: needs a field")
        value = resolve_value(describe, obj, d, s.field, part)
        kind = _kind(value)
        label = _value_label(value)
        if s.aggregate in (Aggregate.SUM, Aggregate.AVG) and kind != "number":
            raise CrmTuiError(
                f"{part}: {label} is {_a(kind)}; {s.aggregate.value} needs a number, "
                "currency or duration"
            )
        if s.aggregate in (Aggregate.MIN, Aggregate.MAX) and kind not in ("number", "date"):
            raise CrmTuiError(
                f"{part}: {label} is {_a(kind)}; {s.aggregate.value} needs a number, "
                "currency, duration or date"
            )
        if kind == "long text":
            raise CrmTuiError(f"{part}: {label} is a long text; it cannot be summarised")
        summaries.append(ResolvedSummary(s, value))
    keys = [s.key for s in summaries]
    if d.sort is not None and d.sort.summary not in keys:
        raise CrmTuiError(f"Sort: {d.sort.summary} is not one of the summaries ({', '.join(keys)})")
    if d.top_n is not None and not d.groupings:
        raise CrmTuiError("Top N: needs a grouping")
    return Plan(
        d,
        obj,
        today,
        columns,
        filters,
        tuple(ranges),
        tuple(crosses),
        tuple(groupings),
        tuple(summaries),
    )


def _a(kind: str) -> str:
    return {"id": "an Id", "boolean": "true or false", "date": "a date"}.get(kind, f"{kind}")


def fields_for_report(describe: Describe, object_name: str, depth: int = 2) -> list[FieldRef]:
    """The fields a report on `object_name` can use: its own, then its parents' through
    lookups (up to `depth` lookups deep), as a column chooser lists them."""
    obj = describe(object_name)
    out: list[FieldRef] = []

    def walk(here: SObject, prefix: str) -> None:
        for fld in here.fields:
            out.append(resolve_path(describe, obj, prefix + fld.name, "Field"))
        if prefix.count(".") >= depth:
            return
        for lookup in here.lookups:
            if lookup.relationship_name and lookup.reference_to:
                try:
                    parent = describe(lookup.reference_to)
                except CrmTuiError:
                    continue
                walk(parent, f"{prefix}{lookup.relationship_name}.")

    walk(obj, "")
    return out
