"""Report values row by row, and the one place raw group answers become a ReportResult.

The Salesforce backend fetches rows (SOQL cannot subtract dates, so it cannot group or
average a duration) and aggregates them here; the local backend aggregates in SQL and
hands its raw groups to `finish` as well, so both label, sort and cut groups alike.
Values follow the SQL runner exactly: durations count whole seconds (`strftime('%s')`),
date buckets are UTC days, weeks start on Sunday.
"""

from __future__ import annotations

import calendar
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from itertools import repeat
from operator import itemgetter, sub, truediv
from typing import Any

from crm_tui.org.backends.interface import (
    FieldType,
    Operator,
    display_value,
)
from crm_tui.org.reports.definition import (
    Aggregate,
    DateGranularity,
    DurationUnit,
    GroupKey,
    GroupRow,
    ReportResult,
)
from crm_tui.org.reports.resolve import (
    DurationRef,
    FieldRef,
    Plan,
    ResolvedFilter,
    ResolvedGrouping,
    Value,
)

EMPTY_LABEL = "(empty)"
Number = float | int | None


# --------------------------------------------------------------------- raw values
def nested(record: dict[str, Any], path: str) -> Any:
    """A value of a SOQL record by relationship path (Account.ShippingState)."""
    here: Any = record
    for part in path.split("."):
        if not isinstance(here, dict):
            return None
        here = here.get(part)
    return here


def normal(ref: FieldRef, raw: Any) -> Any:
    """A field's value as both runners hold it: numbers float, booleans bool, else text."""
    if raw is None:
        return None
    t = ref.field.type
    if t in (FieldType.NUMBER, FieldType.CURRENCY):
        return float(raw)
    if t is FieldType.BOOLEAN:
        return bool(raw)
    return raw if isinstance(raw, str) else str(raw)


def seconds(text: str) -> int:
    """Whole seconds since the epoch of a stored Date or DateTime (as strftime('%s'))."""
    stamp = datetime.fromisoformat(text[:19]) if len(text) > 10 else datetime.fromisoformat(text)
    return int((stamp - datetime(1970, 1, 1)).total_seconds())


def duration(dur: DurationRef, start: Any, end: Any) -> float | None:
    if not start or not end:
        return None
    diff = seconds(str(end)) - seconds(str(start))
    return diff / (3600.0 if dur.unit is DurationUnit.HOURS else 86400.0)


def bucket(granularity: DateGranularity | None, value: Any) -> Any:
    """A date or date/time's group (UTC day, Sunday week, 2024-03, 2024-Q1, 2024, month 3)."""
    if value is None or granularity is None:
        return value
    text = str(value)
    if granularity is DateGranularity.DAY:
        return text[:10]
    if granularity is DateGranularity.WEEK:
        day = date.fromisoformat(text[:10])
        return (day - timedelta(days=(day.weekday() + 1) % 7)).isoformat()
    if granularity is DateGranularity.MONTH:
        return text[:7]
    if granularity is DateGranularity.QUARTER:
        return f"{text[:4]}-Q{(int(text[5:7]) + 2) // 3}"
    if granularity is DateGranularity.YEAR:
        return text[:4]
    return int(text[5:7])  # MONTH_OF_YEAR


def compare(op: Operator, value: Any, argument: Any) -> bool:
    """A duration filter on one row, with SOQL's null rules (only != and "is empty" keep
    rows whose value is empty)."""
    if op is Operator.IS_EMPTY:
        return value is None
    if op is Operator.IS_NOT_EMPTY:
        return value is not None
    if value is None:
        return op is Operator.NE
    return bool(
        {
            Operator.EQ: value == argument,
            Operator.NE: value != argument,
            Operator.LT: value < argument,
            Operator.LE: value <= argument,
            Operator.GT: value > argument,
            Operator.GE: value >= argument,
        }[op]
    )


# --------------------------------------------------------------------- aggregating
@dataclass
class _Acc:
    count: int = 0
    values: list[list[Any]] | None = None


def _row_value(value: Value, record: dict[str, Any]) -> Any:
    if isinstance(value, DurationRef):
        return duration(value, nested(record, value.start.path), nested(record, value.end.path))
    return normal(value, nested(record, value.path))


def _summarise(aggregate: Aggregate, values: list[Any]) -> Number | str:
    present = [v for v in values if v is not None] if None in values else values
    if aggregate is Aggregate.COUNT:  # COUNT(): every row counts 1; COUNT(f): f not empty
        return len(present)
    if aggregate is Aggregate.COUNT_DISTINCT:
        return len(set(present))
    if not present:
        return None
    if aggregate is Aggregate.SUM:
        return float(sum(present))
    if aggregate is Aggregate.AVG:
        return float(sum(present)) / len(present)
    extreme: float | int | str = min(present) if aggregate is Aggregate.MIN else max(present)
    return extreme


def _summaries(aggregate: Aggregate, column: list[Any], groups: list[list[Any]]) -> list[Any]:
    """`_summarise` of each group's values (`groups`, drawn from `column`). A column of
    floats only, as durations are, is summarised by C-level maps: the same sums, in the
    same order, as `_summarise` adds them."""
    if set(map(type, column)) != {float}:
        return [_summarise(aggregate, values) for values in groups]
    if aggregate is Aggregate.AVG:
        return list(map(truediv, map(sum, groups), map(len, groups)))
    by_map: dict[Aggregate, Callable[[list[Any]], Any]] = {
        Aggregate.COUNT: len,
        Aggregate.SUM: sum,
        Aggregate.MIN: min,
        Aggregate.MAX: max,
    }
    if aggregate in by_map:
        return list(map(by_map[aggregate], groups))
    return [_summarise(aggregate, values) for values in groups]


def _stamp(text: str) -> datetime:
    return datetime.fromisoformat(text[:19])  # whole seconds, as `seconds`


def _reader(value: Value) -> Callable[[dict[str, Any]], Any]:
    """A function reading `value` from a SOQL record as `_row_value` does, built once
    per report rather than per row (path split, type and unit looked up once)."""
    if isinstance(value, DurationRef):
        start, end = _reader(value.start), _reader(value.end)
        per = 3600.0 if value.unit is DurationUnit.HOURS else 86400.0
        if "." not in value.start.path and "." not in value.end.path:
            return _own_span(value.start.path, value.end.path, per)

        def span(record: dict[str, Any]) -> float | None:
            first, last = start(record), end(record)
            if not first or not last:
                return None
            # whole seconds apart: the same number as seconds(last) - seconds(first)
            return (_stamp(str(last)) - _stamp(str(first))).total_seconds() / per

        return span
    ref = value
    parts = ref.path.split(".")
    name = parts[0] if len(parts) == 1 else None
    path = ref.path
    if ref.field.type in (FieldType.NUMBER, FieldType.CURRENCY, FieldType.BOOLEAN):
        return lambda record: normal(ref, record.get(name) if name else nested(record, path))

    def text(record: dict[str, Any]) -> Any:
        raw = record.get(name) if name else nested(record, path)
        return raw if raw is None or type(raw) is str else str(raw)

    return text


def _own_span(start: str, end: str, per: float) -> Callable[[dict[str, Any]], float | None]:
    """`span` between two fields of the record itself (Case Age): read per row of tens of
    thousands, so without the path and type steps of the general reader."""
    parse = datetime.fromisoformat

    def span(record: dict[str, Any]) -> float | None:
        first, last = record.get(start), record.get(end)
        if not first or not last:
            return None
        # whole seconds apart: the same number as seconds(last) - seconds(first)
        return (parse(str(last)[:19]) - parse(str(first)[:19])).total_seconds() / per

    return span


_FIRST_19 = itemgetter(slice(0, 19))  # a stamp's whole seconds, as `_stamp` reads them
_TEXT_KINDS = {str, type(None)}


def _column(value: Value, records: list[dict[str, Any]]) -> list[Any]:
    """`_reader(value)` applied to every record, in order. A span between two of the
    record's own fields (Case Age, read for each of tens of thousands of rows) is worked
    out by C-level maps over the whole column, the same operations as `_own_span`; any
    value that is not a stamp text (an open case's empty ClosedDate) sends the column
    back to the reader, which knows the empty cases."""
    if isinstance(value, DurationRef) and "." not in value.start.path and "." not in value.end.path:
        per = 3600.0 if value.unit is DurationUnit.HOURS else 86400.0
        parse = datetime.fromisoformat
        try:
            starts = map(parse, map(_FIRST_19, map(itemgetter(value.start.path), records)))
            ends = map(parse, map(_FIRST_19, map(itemgetter(value.end.path), records)))
            seconds_apart = map(timedelta.total_seconds, map(sub, ends, starts))
            return list(map(truediv, seconds_apart, repeat(per)))
        except (KeyError, TypeError, ValueError):
            pass
    return list(map(_reader(value), records))


def _own_text_keys(plan: Plan, records: list[dict[str, Any]]) -> list[Any] | None:
    """Each record's value of the one grouping when it is a text (or Id) field of the
    record itself, read by a C-level map: what `_key_reader` reads, without a tuple and
    two calls per row. None when the grouping is another kind, or a value is not text."""
    if len(plan.groupings) != 1:
        return None
    g = plan.groupings[0]
    ref = g.value
    if (
        g.granularity is not None
        or not isinstance(ref, FieldRef)
        or "." in ref.path
        or ref.field.type in (FieldType.NUMBER, FieldType.CURRENCY, FieldType.BOOLEAN)
    ):
        return None
    try:
        keys = list(map(itemgetter(ref.path), records))
    except KeyError:
        return None
    return keys if set(map(type, keys)) <= _TEXT_KINDS else None


def _key_reader(plan: Plan) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """A function giving a record's group key (bucketed)."""
    parts = [(_reader(g.value), g.granularity) for g in plan.groupings]
    if len(parts) == 1:
        read, granularity = parts[0]
        if granularity is None:
            return lambda record: (read(record),)  # the common case, without the loop
        return lambda record: (bucket(granularity, read(record)),)

    def key(record: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(
            read(record) if granularity is None else bucket(granularity, read(record))
            for read, granularity in parts
        )

    return key


def _note_names(
    plan: Plan,
    members: dict[tuple[Any, ...], list[int]],
    kept: list[dict[str, Any]],
    names: dict[str, str],
) -> None:
    """The names of lookup values (Owner.Name next to OwnerId) that the groups' first
    records hold: one look per group, not per row."""
    for i, g in enumerate(plan.groupings):
        name_path = g.value.name_path if isinstance(g.value, FieldRef) else None
        if g.granularity is not None or not name_path:
            continue
        if kept and name_path.split(".")[0] not in kept[0]:
            continue  # not fetched (the fetch names them by a semi-join): no look per group
        for key, rows in members.items():
            raw = key[i]
            if raw is not None and str(raw) not in names:
                title = nested(kept[rows[0]], name_path)
                if title is not None:
                    names[str(raw)] = str(title)


def aggregate_records(
    plan: Plan, records: Iterable[dict[str, Any]]
) -> tuple[list[tuple[tuple[Any, ...], tuple[Any, ...]]], tuple[Any, ...], dict[str, str]]:
    """(raw group keys, summaries) per group, the grand total and the names of lookup
    values, from SOQL-shaped records (after duration filters and "more than N").

    Column by column: each summary's values read once per row, in row order (the grand
    total sums them in that order, as the SQL runner does), then picked per group."""
    names: dict[str, str] = {}
    check = bool(duration_filters(plan)) or any(c.more_than > 0 for c in plan.crosses)
    kept = [r for r in records if keep(plan, r)] if check else list(records)
    members: dict[tuple[Any, ...], list[int]] = {}
    own_keys = _own_text_keys(plan, kept)
    if own_keys is not None:  # one text grouping (owners): grouped by the bare value
        by_value: defaultdict[Any, list[int]] = defaultdict(list)
        for i, value in enumerate(own_keys):
            by_value[value].append(i)
        members = {(value,): rows for value, rows in by_value.items()}
    else:
        for i, key in enumerate(map(_key_reader(plan), kept)):
            rows = members.get(key)
            if rows is None:
                members[key] = [i]
            else:
                rows.append(i)
    _note_names(plan, members, kept, names)
    columns: list[list[Any] | None] = []
    for s in plan.summaries:
        if s.value is None:
            columns.append(None)  # COUNT(): the group's size
        else:
            columns.append(_column(s.value, kept))
    aggregates = [s.summary.aggregate for s in plan.summaries]
    # summary by summary over all groups, then zipped into each group's tuple: thousands
    # of groups (owners) without a generator per group
    per_summary = [
        [len(rows) for rows in members.values()]
        if col is None
        else _summaries(agg, col, [list(map(col.__getitem__, rows)) for rows in members.values()])
        for agg, col in zip(aggregates, columns, strict=True)
    ]
    out = list(zip(members, zip(*per_summary, strict=True), strict=True))
    total = tuple(
        len(kept) if col is None else _summarise(agg, col)
        for agg, col in zip(aggregates, columns, strict=True)
    )
    return out, total, names


def keep(plan: Plan, record: dict[str, Any]) -> bool:
    """The row filters SOQL could not apply: on durations, and "more than N" related rows."""
    for f in plan.filters:
        if isinstance(f.value, DurationRef) and not compare(
            f.operator, _row_value(f.value, record), f.argument
        ):
            return False
    for c in plan.crosses:
        if c.more_than > 0:
            children = record.get(c.relationship.name)
            n = len(children.get("records", [])) if isinstance(children, dict) else 0
            if (n > c.more_than) != c.with_:
                return False
    return True


def duration_filters(plan: Plan) -> list[ResolvedFilter]:
    return [f for f in plan.filters if isinstance(f.value, DurationRef)]


# --------------------------------------------------------------------- results
def key_label(g: ResolvedGrouping, raw: Any, names: dict[str, str]) -> GroupKey:
    if raw is None:
        return GroupKey(None, EMPTY_LABEL)
    if g.granularity is DateGranularity.MONTH_OF_YEAR:
        return GroupKey(int(raw), calendar.month_name[int(raw)])
    if g.granularity is not None:
        return GroupKey(str(raw), str(raw))
    if isinstance(g.value, DurationRef):
        return GroupKey(float(raw), f"{float(raw):,.2f}")
    value = normal(g.value, raw)
    if g.value.named_by:
        return GroupKey(value, names.get(str(value), str(value)), str(value))
    return GroupKey(value, display_value(g.value.field, value))


def _labeller(g: ResolvedGrouping, names: dict[str, str]) -> Callable[[Any], GroupKey]:
    """`key_label` for one grouping, built once per report: a lookup's thousands of
    groups (owners) are labelled without its checks per group."""
    ref = g.value
    if g.granularity is not None or not isinstance(ref, FieldRef) or not ref.named_by:
        return lambda raw: key_label(g, raw, names)

    def named(raw: Any) -> GroupKey:
        if raw is None:
            return GroupKey(None, EMPTY_LABEL)
        text = raw if type(raw) is str else str(normal(ref, raw))  # Ids: text already
        return GroupKey(text, names.get(text, text), text)

    return named


def _label_column(
    g: ResolvedGrouping, names: dict[str, str], column: list[Any]
) -> tuple[list[GroupKey], list[Any]]:
    """Each raw value's GroupKey and its `_key_order`. A lookup's values, all Ids (text),
    are labelled and ordered by C-level maps: what `_labeller`'s `named` and
    `_key_order` make of each, for thousands of owners."""
    ref = g.value
    named = g.granularity is None and isinstance(ref, FieldRef) and ref.named_by
    if named and set(map(type, column)) == {str}:
        labels: list[str] = list(map(names.get, column, column))
        keys = list(map(GroupKey, column, labels, column))
        return keys, list(zip(repeat(False), map(str.lower, labels), column))
    keys = list(map(_labeller(g, names), column))
    return keys, list(map(_key_order, keys))


def _key_order(key: GroupKey) -> tuple[bool, Any, str]:
    # flat tuples: sorting thousands of groups builds one per group
    if key.value is None:
        return (True, "", "")
    if key.record_id is not None or isinstance(key.value, str):
        return (False, key.label.lower(), str(key.value))  # by the name shown, as Salesforce
    return (False, key.value, "")


def _value_order(value: Any) -> tuple[bool, Any]:
    return (value is None, value if value is not None else 0)


def _clean(aggregate: Aggregate, value: Any) -> Number | str:
    if value is None:
        return None
    if aggregate in (Aggregate.COUNT, Aggregate.COUNT_DISTINCT):
        return int(value)
    if isinstance(value, str):
        return value
    return float(value)


def _as_count(value: Any) -> int | None:
    return None if value is None else int(value)


def _as_value(value: Any) -> float | str | None:
    return value if value is None or isinstance(value, str) else float(value)


_COUNT_KINDS = {int, type(None)}
_VALUE_KINDS = {float, str, type(None)}


def _cleaned(count: bool, column: list[Any]) -> list[Any]:
    """A summary's values over all groups, as `_clean` makes each (`_as_count` for
    counts, else `_as_value`); returned as they are when they already are so."""
    if set(map(type, column)) <= (_COUNT_KINDS if count else _VALUE_KINDS):
        return column
    return list(map(_as_count if count else _as_value, column))


def finish(
    plan: Plan,
    groups: Sequence[tuple[tuple[Any, ...], tuple[Any, ...]]],
    total: tuple[Any, ...],
    names: dict[str, str],
    columns: tuple[tuple[str, ...], ...] = (),
    row_ids: tuple[str, ...] = (),
    more_rows: bool = False,
) -> ReportResult:
    """The result from raw groups (raw key values, raw summaries), whichever runner made
    them: keys labelled, groups sorted (by the summary asked, then by key) and cut to top N."""
    aggs = [s.summary.aggregate for s in plan.summaries]
    counts = [a in (Aggregate.COUNT, Aggregate.COUNT_DISTINCT) for a in aggs]
    d = plan.definition
    # Column by column (a grouping's labels, a summary's values), then the groups' order
    # as a permutation of their indices, sorted by keys read through C-level lookups: a
    # lookup's thousands of groups (owners) without a lambda and a row object each per
    # comparison key, and a row built only for the groups that are kept.
    n = len(groups) if plan.groupings else 0
    key_columns = list(zip(*(key for key, _ in groups))) if n else [()] * len(plan.groupings)
    labelled: list[list[GroupKey]] = []
    key_orders: list[list[Any]] = []
    for g, raw_column in zip(plan.groupings, key_columns, strict=True):
        keys, key_order = _label_column(g, names, list(raw_column))
        labelled.append(keys)
        key_orders.append(key_order)
    value_columns = (
        [
            _cleaned(count, list(column))
            for count, column in zip(counts, zip(*(values for _, values in groups)), strict=True)
        ]
        if n and aggs
        else []
    )
    orders: list[Any] = key_orders[0] if len(labelled) == 1 else list(zip(*key_orders))
    order = sorted(range(n), key=orders.__getitem__)
    if d.sort is not None and n:
        column = value_columns[[s.key for s in plan.summaries].index(d.sort.summary)]
        present = [j for j in order if column[j] is not None]
        absent = [j for j in order if column[j] is None]
        # by the value alone: the same order as `_value_order`'s (False, value)
        present.sort(key=column.__getitem__, reverse=d.sort.descending)
        order = present + absent
    group_count = n  # ungrouped: no groups, on every runner
    if d.top_n is not None:
        order = order[: d.top_n]
    value_rows = list(zip(*value_columns)) if value_columns else [()] * n
    if len(labelled) == 1:
        keys_of = labelled[0]
        rows = [GroupRow((keys_of[j],), value_rows[j]) for j in order]
    else:
        rows = [GroupRow(tuple(keys[j] for keys in labelled), value_rows[j]) for j in order]
    return ReportResult(
        definition=d,
        summaries=tuple(s.key for s in plan.summaries),
        grouping_labels=tuple(g.label for g in plan.groupings),
        groups=tuple(rows) if plan.groupings else (),
        total=tuple(_clean(a, v) for a, v in zip(aggs, total, strict=True)),
        columns=tuple(c.path for c in plan.columns),
        column_labels=tuple(c.label for c in plan.columns),
        rows=columns,
        row_ids=row_ids,
        truncated=more_rows or len(rows) < group_count,
        group_count=group_count,
        today=plan.today,
    )


def detail_row(plan: Plan, record: dict[str, Any], names: dict[str, str]) -> tuple[str, ...]:
    """One ungrouped row, displayed (lookups by name)."""
    out = []
    for c in plan.columns:
        value = normal(c, nested(record, c.path))
        if c.name_path and value is not None:
            title = nested(record, c.name_path)
            if title is not None:
                names[str(value)] = str(title)
        shown = display_value(c.field, value, names)
        if c.named_by and not c.field.is_lookup and value is not None:
            shown = names.get(str(value), shown)
        out.append(shown)
    return tuple(out)


def wanted_names(
    plan: Plan,
    groups: Sequence[tuple[tuple[Any, ...], tuple[Any, ...]]],
    records: Iterable[dict[str, Any]] = (),
) -> dict[str, set[str]]:
    """Ids held in text fields (CaseHistory__c's Old/NewValue__c hold User Ids) that the
    groups or detail rows show, by the object whose names they need."""
    wanted: dict[str, set[str]] = {}
    for i, g in enumerate(plan.groupings):
        if isinstance(g.value, FieldRef) and g.value.named_by and not g.value.name_path:
            for key, _ in groups:
                if key[i] is not None:
                    wanted.setdefault(g.value.named_by, set()).add(str(key[i]))
    text_cols = [c for c in plan.columns if c.named_by and not c.name_path]
    for record in records:
        for c in text_cols:
            value = nested(record, c.path)
            if value and c.named_by:
                wanted.setdefault(c.named_by, set()).add(str(value))
    return wanted
