"""One query model for both backends, and `to_soql`, the one place it becomes SOQL.

A `RecordQuery` says which records of which object, filtered, sorted, from which cursor,
how many; a `CountQuery` how many match. The Salesforce backend sends their SOQL; the
local backend runs the same text through the project's own SOQL engine. So a filter
means one thing everywhere, and what it means is Salesforce's: a bare day against a
DateTime is that whole day in UTC, `!=` also keeps records whose field is empty, "is
empty" on text is null or '', "contains" and "starts with" read % and _ as themselves.

Pages are keyset pages, never OFFSET: ORDER BY the sort field then Id, starting just
after the cursor, written so the (field, Id) index can seek straight to it; `run_page`
splits a page that crosses into or out of the sort field's NULLs at that border. A lookup
sorts by the name it shows, as Salesforce does (ORDER BY Owner.Name, Id): the cursor holds
that name, and its NULLs (no lookup: the lookup's own index) are always a stretch of their
own, so the named stretch can run from the parent's name index. No index holds a child's
parent name, though: where the planner starts from the children (many parents, such as
Order Products by price-book entry), the first page sorts every row; the local backend
finds an unfiltered named stretch's rows parent first instead (`local.parents_first`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import (
    TEXT_TYPES,
    Cursor,
    Field,
    FieldType,
    Filter,
    FilterValue,
    Operator,
    Page,
    Record,
    RelatedList,
    SObject,
    Sort,
    field_of,
    id_text_target,
    link_of,
    object_of,
    validate_filter,
)
from crm_tui.org.schema.catalogue import ChildRelationship
from crm_tui.org.schema.sftime import parse_datetime

RELATED_COUNT_CAP = 10_000  # related lists count up to here, then show "10,000+"


@dataclass(frozen=True)
class RecordQuery:
    """Up to `limit` records of an object in (sort field, Id) order, after `after`."""

    object_name: str
    filters: tuple[Filter, ...] = ()
    sort: Sort | None = None  # None: the object's default sort
    after: Cursor | None = None  # None: from the first record
    limit: int = 100
    nulls: bool | None = None  # only records whose sort field is null (True) or set (False)


@dataclass(frozen=True)
class CountQuery:
    """How many records match; with a `cap`, counting stops just past it."""

    object_name: str
    filters: tuple[Filter, ...] = ()
    cap: int | None = None


@dataclass(frozen=True)
class SortKey:
    """What a page is ordered by: a field, or for a lookup the name of its record."""

    path: str  # as ORDER BY names it: Priority, or Owner.Name for OwnerId
    field: Field  # the field holding the sort values (the parent's title for a lookup)
    lookup: Field | None = None  # the lookup sorted by its record's name

    @property
    def is_null(self) -> str:
        # A lookup's name is null when the lookup is: its own index finds those rows.
        return f"{(self.lookup or self.field).name} = null"

    @property
    def not_null(self) -> str:
        # `Owner.Name != null` lets the join run from the parent's name index.
        return f"{self.path} != null"


def sort_key(query: RecordQuery, obj: SObject) -> tuple[SortKey, bool]:
    """The sort key (checked against `obj`) and whether it runs descending."""
    fld, descending = sort_of(query, obj)
    if fld.is_lookup and fld.relationship_name and fld.reference_to:
        title = object_of(fld.reference_to).field(object_of(fld.reference_to).title_field)
        return SortKey(f"{fld.relationship_name}.{title.name}", title, fld), descending
    return SortKey(fld.name, fld), descending


def to_soql(query: RecordQuery | CountQuery, obj: SObject, source: str | None = None) -> str:
    """The query as SOQL over `obj` as the backend describes it; a CrmTuiError naming the
    field for a filter that does not fit. `source` replaces the FROM name, for a child
    sub-query (`FROM Cases` inside a query on Account)."""
    where = [condition(*validate_filter(obj, flt)) for flt in query.filters]
    if isinstance(query, CountQuery):
        limit = f" LIMIT {query.cap + 1}" if query.cap is not None else ""
        return f"SELECT COUNT() FROM {source or obj.name}{_where(where)}{limit}"
    if query.limit < 1:
        raise CrmTuiError(f"A page needs at least one row, not {query.limit}")
    key, descending = sort_key(query, obj)
    if query.nulls is not None:
        where.append(key.is_null if query.nulls else key.not_null)
    if query.after is not None:
        where.append(after(key, descending, query.after, query.nulls))
    direction = "DESC" if descending else "ASC"
    order = f"Id {direction}"
    # A lookup's empty stretch has no names to sort by: by Id alone it walks the lookup's
    # (value, Id) index, where sorting by the empty names sorted every record without one.
    if key.path != "Id" and not (query.nulls and key.lookup is not None):
        # Salesforce's default NULLS placement, spelled out
        order = f"{key.path} {direction} NULLS {'LAST' if descending else 'FIRST'}, {order}"
    # One row more than the page: it tells whether there is a next page.
    return (
        f"SELECT {', '.join(select_list(obj))} FROM {source or obj.name}{_where(where)} "
        f"ORDER BY {order} LIMIT {query.limit + 1}"
    )


def run_page(query: RecordQuery, obj: SObject, run: Callable[[str], list[dict[str, Any]]]) -> Page:
    """A page, through the backend's `run` (SOQL text -> the records it answers): the
    query's parts in turn, until one record more than the page is in hand."""
    rows: list[dict[str, Any]] = []
    for part in parts(query, obj):
        rows += run(to_soql(part, obj))
        if len(rows) > query.limit:
            break
    return with_id_text_names(page_of(query, obj, rows), obj, run, query.limit + 1)


def with_id_text_names(
    page: Page, obj: SObject, run: Callable[[str], list[dict[str, Any]]], chunk: int = 200
) -> Page:
    """The page with the names of the records its Id-holding text fields point at
    (`ID_TEXT_FIELDS`: Case History's Old/New Value hold User Ids), which SOQL cannot
    follow: one query per target object (per `chunk` Ids, what `run` returns at most)."""
    from simple_salesforce.format import format_soql  # see `literal`

    wanted: dict[str, set[str]] = {}
    id_texts = [f for f in obj.fields if id_text_target(obj.name, f.name)]
    if not id_texts:
        return page
    page = replace(page, id_text_fields=frozenset(f.name for f in id_texts))
    for fld in id_texts:
        target = id_text_target(obj.name, fld.name)
        for record in page.records:
            link = link_of(obj, fld, record.get(fld.name))
            if target and link and link not in page.names:
                wanted.setdefault(target, set()).add(link)
    for target, ids in wanted.items():
        parent = object_of(target)
        ordered = sorted(ids)
        for start in range(0, len(ordered), chunk):
            soql = format_soql(
                f"SELECT Id, {parent.title_field} FROM {parent.name} WHERE Id IN {{}}",
                ordered[start : start + chunk],
            )
            for raw in run(soql):
                if raw.get(parent.title_field) is not None:
                    page.names[str(raw["Id"])] = str(raw[parent.title_field])
    return page


def parts(query: RecordQuery, obj: SObject) -> list[RecordQuery]:
    """The queries whose answers, one after the other, make the page. A cursor on the
    near side of the sort field's NULLs (they come first ascending, last descending)
    splits it in two, the rest of this side and then the other, so each reads one stretch
    of the (field, Id) index instead of scanning past every record already shown."""
    key, descending = sort_key(query, obj)
    cursor = query.after
    if key.lookup is not None and query.nulls is None:
        # A name sort over one join would sort every row: read each stretch on its own.
        if cursor is None:
            return [replace(query, nulls=descending is False), replace(query, nulls=descending)]
        if not descending and cursor.sort_value is not None:
            return [replace(query, nulls=False)]
    if cursor is None or key.path == "Id" or query.nulls is not None:
        return [query]
    if descending and cursor.sort_value is not None:
        return [replace(query, nulls=False), replace(query, nulls=True, after=None)]
    if not descending and cursor.sort_value is None:
        return [replace(query, nulls=True), replace(query, nulls=False, after=None)]
    return [query]


def sort_of(query: RecordQuery, obj: SObject) -> tuple[Field, bool]:
    """The sort field (checked against `obj`) and whether it runs descending."""
    sort = query.sort or Sort(obj.default_sort)
    return field_of(obj, sort.field), sort.descending


def children_of(
    rel: ChildRelationship, parent_id: str, preview_rows: int
) -> tuple[RecordQuery, CountQuery]:
    """A related list as queries: its first rows, and its count capped at RELATED_COUNT_CAP.
    The rows go by Id, which walks the (lookup, Id) index: instant at any size."""
    filters = (Filter(rel.field, Operator.EQ, parent_id),)
    return (
        RecordQuery(rel.child, filters, Sort("Id"), limit=preview_rows),
        CountQuery(rel.child, filters, cap=RELATED_COUNT_CAP),
    )


# --------------------------------------------------------------------- conditions
def condition(fld: Field, op: Operator, value: FilterValue) -> str:
    """One filter (as `validate_filter` returns it) as a SOQL condition."""
    from simple_salesforce.format import format_soql  # see `literal`

    name = fld.name
    is_text = fld.type in TEXT_TYPES
    if op is Operator.IS_EMPTY:
        return f"({name} = null OR {name} = '')" if is_text else f"{name} = null"
    if op is Operator.IS_NOT_EMPTY:
        return f"({name} != null AND {name} != '')" if is_text else f"{name} != null"
    if op is Operator.CONTAINS:
        return format_soql(f"{name} LIKE '%{{:like}}%'", value)
    if op is Operator.STARTS_WITH:
        return format_soql(f"{name} LIKE '{{:like}}%'", value)
    if fld.type is FieldType.DATETIME and type(value) is date:
        # A bare day means that whole day, in UTC (as times are stored), as in Salesforce.
        start = datetime.combine(value, time())
        lo, hi = literal(fld, start), literal(fld, start + timedelta(days=1))
        return {
            Operator.EQ: f"({name} >= {lo} AND {name} < {hi})",
            Operator.NE: f"({name} < {lo} OR {name} >= {hi} OR {name} = null)",
            Operator.LT: f"{name} < {lo}",
            Operator.LE: f"{name} < {hi}",
            Operator.GT: f"{name} >= {hi}",
            Operator.GE: f"{name} >= {lo}",
        }[op]
    return f"{name} {op.value} {literal(fld, value)}"


def after(key: SortKey | Field, descending: bool, cursor: Cursor, nulls: bool | None = None) -> str:
    """Records strictly after the cursor in (key, Id) order, NULLs first ascending and
    last descending (as the ORDER BY puts them); `nulls` as in RecordQuery. A non-null
    cursor becomes a range on the key, `F >= v AND (F > v OR Id > i)`, so the (field,
    Id) index seeks to it."""
    from simple_salesforce.format import quote_soql_value  # see `literal`

    key = key if isinstance(key, SortKey) else SortKey(key.name, key)
    later_id = f"Id {'<' if descending else '>'} {quote_soql_value(cursor.record_id)}"
    if key.path == "Id":
        return later_id
    fld, name, value = key.field, key.path, cursor.sort_value
    if value is None:  # the rest of the NULLs; ascending, every value comes after them
        if nulls:
            return later_id
        rest = f"({key.is_null} AND {later_id})"
        return rest if descending else f"({rest} OR {key.not_null})"
    here = literal(fld, value)
    if fld.type is FieldType.BOOLEAN:  # SOQL has no < or > on booleans: false, then true
        beyond = [f"{name} = {literal(fld, not value)}"] if bool(value) == descending else []
        after_here = [f"({name} = {here} AND {later_id})", *beyond]
    else:
        inclusive, strict = ("<=", "<") if descending else (">=", ">")
        after_here = [f"({name} {inclusive} {here} AND ({name} {strict} {here} OR {later_id}))"]
    if descending and nulls is None:  # then every NULL
        after_here.append(key.is_null)
    return after_here[0] if len(after_here) == 1 else f"({' OR '.join(after_here)})"


def literal(fld: Field, value: Any) -> str:
    """A value of `fld` as an escaped SOQL literal: a filter's (coerced by
    `validate_filter`) or a cursor's (as records hold it)."""
    # Imported here: simple_salesforce loads requests, zeep and more, which the app's start
    # (this module comes with the local backend) does not need.
    from simple_salesforce.format import quote_soql_value

    if fld.type is FieldType.BOOLEAN:
        return quote_soql_value(bool(value))
    if fld.type in (FieldType.NUMBER, FieldType.CURRENCY):
        return format(Decimal(repr(float(value))), "f")  # never 1e+20: SOQL has no exponent
    if fld.type is FieldType.DATE:
        day = value if isinstance(value, date) else date.fromisoformat(str(value)[:10])
        return day.isoformat()
    if fld.type is FieldType.DATETIME:
        stamp = value if isinstance(value, datetime) else parse_datetime(str(value))
        millis = f".{stamp.microsecond // 1000:03d}" if stamp.microsecond else ""
        return f"{stamp:%Y-%m-%dT%H:%M:%S}{millis}Z"
    return quote_soql_value(str(value))


def _where(conditions: list[str]) -> str:
    return " WHERE " + " AND ".join(conditions) if conditions else ""


# --------------------------------------------------------------------- answers
def select_list(obj: SObject) -> list[str]:
    """Every field, then the title of each lookup's target (Account.Name): one query
    brings a page with its lookups named."""
    return [*obj.field_names, *(f"{rel}.{title}" for _, rel, title in _named_lookups(obj))]


def _named_lookups(obj: SObject) -> list[tuple[Field, str, str]]:
    """(lookup, relationship name, target's title field) of each lookup SOQL can follow."""
    return [
        (f, f.relationship_name, object_of(f.reference_to).title_field)
        for f in obj.lookups
        if f.relationship_name and f.reference_to
    ]


def page_of(query: RecordQuery, obj: SObject, rows: list[dict[str, Any]]) -> Page:
    """The records SOQL answered for `to_soql(query, obj)`, as a Page: flat records (field
    -> value), the lookups' names, and a cursor when the extra row says there is more."""
    names: dict[str, str] = {}
    lookups = _named_lookups(obj)
    records = [_flat(obj, lookups, raw, names) for raw in rows]
    next_cursor = None
    if len(records) > query.limit:
        del records[query.limit :]
        key, _ = sort_key(query, obj)
        last = rows[query.limit - 1]
        value = _nested(last, key.path) if key.lookup else records[-1][key.field.name]
        next_cursor = Cursor(value, records[-1]["Id"])
    return Page(records, next_cursor, names)


def _nested(raw: dict[str, Any], path: str) -> Any:
    """`Owner.Name` of a SOQL record (None when the lookup is empty)."""
    value: Any = raw
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _flat(
    obj: SObject,
    lookups: list[tuple[Field, str, str]],
    raw: dict[str, Any],
    names: dict[str, str],
) -> Record:
    """One SOQL record without its parents' sub-records, whose titles go into `names`."""
    for fld, rel, title in lookups:
        parent = raw.get(rel)
        if raw.get(fld.name) and isinstance(parent, dict):
            names[raw[fld.name]] = str(parent.get(title) or raw[fld.name])
    return {f.name: raw.get(f.name) for f in obj.fields}


def related_list(
    rel: ChildRelationship, child: SObject, parent_id: str, count: int, page: Page
) -> RelatedList:
    """A related list from its preview page and its count (capped by `children_of`)."""
    return RelatedList(
        rel.name,
        child.label_plural,
        child.name,
        rel.field,
        parent_id,
        min(count, RELATED_COUNT_CAP),
        count > RELATED_COUNT_CAP,
        page,
    )
