"""Run compiled SOQL against an OrgStore and shape rows the way Salesforce returns them."""

from __future__ import annotations

import json
import math
import sqlite3
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from json.encoder import encode_basestring_ascii
from typing import Any

from crm_tui.org.schema.catalogue import FieldType, SObject
from crm_tui.org.schema.sftime import parse_date
from crm_tui.org.soql.compiler import (
    CHILD_BATCH,
    DATE_FUNCTION_SQL,
    ChildPlan,
    Column,
    CompiledQuery,
    ParentLink,
    compile_query,
)
from crm_tui.org.soql.parser import parse_query
from crm_tui.org.soql.sf_errors import SalesforceError, out_of_range
from crm_tui.org.soql.sqlite_json import json_records
from crm_tui.org.store.orgstore import OrgStore

API_VERSION = "59.0"

Record = dict[str, Any]
Converter = Callable[[Any], Any] | None  # a stored value to its JSON value (None: as stored)


@dataclass
class QueryResult:
    """A whole SOQL answer; the REST server pages through `records`."""

    total_size: int
    records: list[Record]

    def to_json(self) -> dict[str, Any]:
        return {"totalSize": self.total_size, "done": True, "records": self.records}


def store_today(store: OrgStore) -> date:
    """The org's notion of today: `_meta.today` if the generator set one, else the clock."""
    value = store.meta("today")
    try:
        return parse_date(value) if value else date.today()
    except ValueError:
        return date.today()


MAX_QUERY_CHARS = 100_000  # Salesforce's limit on the length of a SOQL or SOSL statement


@lru_cache(maxsize=256)
def compiled(text: str, today: date, kind: str) -> CompiledQuery:
    """The plan of a SOQL query on an org of `kind` (the catalogue in use), kept for the
    next time it is asked (list views, reports and agents repeat theirs; parsing and
    compiling cost more than a small answer's SQL). Plans are only read after this. A bad
    query raises each time (errors are not kept)."""
    return compile_query(text, parse_query(text), today)


def execute_soql(
    store: OrgStore, text: str, today: date | None = None, api_version: str = API_VERSION
) -> QueryResult:
    """Run one SOQL query; raises SalesforceError (never anything else) for bad queries."""
    with store.schema():
        return _execute_soql(store, text, today, api_version)


def _execute_soql(store: OrgStore, text: str, today: date | None, api_version: str) -> QueryResult:
    if len(text) > MAX_QUERY_CHARS:
        raise SalesforceError(
            "MALFORMED_QUERY", f"Query is too long: over {MAX_QUERY_CHARS:,} characters"
        )
    try:
        plan = compiled(text, today or store_today(store), store.org_kind)
        return run_plan(store, plan, api_version)
    except (OverflowError, RecursionError) as error:  # the last net under the checks
        raise out_of_range("MALFORMED_QUERY", error) from None


@dataclass
class JsonQueryResult:
    """A whole SOQL answer with each record already JSON text (the REST server's form),
    written as `json.dumps` writes the record: the same bytes, without the dicts."""

    total_size: int
    records: list[str]

    def body(self) -> bytes:
        """The answer as `json.dumps(QueryResult.to_json())` would write it."""
        head = json.dumps({"totalSize": self.total_size, "done": True})[:-1]
        return f'{head}, "records": [{", ".join(self.records)}]}}'.encode()


# SQLite's own limits, which a query of thousands of conditions reaches: the client's query.
_SQLITE_LIMITS = ("too large", "too many", "stack overflow", "too deep")


def sqlite_failure(error: sqlite3.Error) -> SalesforceError:
    """A SQLite error the Salesforce way: a query past SQLite's limits is the client's
    (400); anything else is a bug of the compiler (500)."""
    if any(words in str(error) for words in _SQLITE_LIMITS):
        return SalesforceError(
            "MALFORMED_QUERY", f"The query is too complex to run ({error}): simplify its WHERE."
        )
    return SalesforceError(
        "UNKNOWN_EXCEPTION", f"An unexpected error occurred: {error}", status=500
    )


def execute_soql_json(
    store: OrgStore, text: str, today: date | None = None, api_version: str = API_VERSION
) -> JsonQueryResult:
    """`execute_soql`, each record as JSON text. Records are written by SQLite in the
    statement that finds them (`soql.sqlite_json`); what it cannot write (aggregates,
    REAL columns) is shaped as dicts and dumped."""
    with store.schema():
        return _execute_soql_json(store, text, today, api_version)


def _execute_soql_json(
    store: OrgStore, text: str, today: date | None, api_version: str
) -> JsonQueryResult:
    if len(text) > MAX_QUERY_CHARS:
        raise SalesforceError(
            "MALFORMED_QUERY", f"Query is too long: over {MAX_QUERY_CHARS:,} characters"
        )
    try:
        plan = compiled(text, today or store_today(store), store.org_kind)
        shaper = _Shaper(api_version)
        try:
            texts = json_records(store.conn, plan, shaper.base)
            if texts is not None:
                return JsonQueryResult(len(texts), texts)
            if plan.count_only or plan.aggregate or plan.children or not shaper.is_flat(plan):
                result = run_plan(store, plan, api_version)
                return JsonQueryResult(result.total_size, [json.dumps(r) for r in result.records])
            rows = store.conn.execute(plan.sql, plan.params).fetchall()
        except sqlite3.Error as error:  # past SQLite's limits, or a compiler bug
            raise sqlite_failure(error) from error
        return JsonQueryResult(len(rows), shaper.flat_json(plan, rows))
    except (OverflowError, RecursionError) as error:  # the last net under the checks
        raise out_of_range("MALFORMED_QUERY", error) from None


def run_plan(store: OrgStore, plan: CompiledQuery, api_version: str = API_VERSION) -> QueryResult:
    shaper = _Shaper(api_version)
    try:
        if plan.count_only:
            total = store.conn.execute(plan.sql, plan.params).fetchone()[0]
            return QueryResult(total, [])
        rows = store.conn.execute(plan.sql, plan.params).fetchall()
        if plan.aggregate:
            records = [shaper.aggregate(plan, row) for row in rows]
        else:
            records = [shaper.record(plan, row) for row in rows]
            for child in plan.children:
                _attach_children(store, shaper, child, rows, records)
    except sqlite3.Error as error:  # past SQLite's limits, or a compiler bug
        raise sqlite_failure(error) from error
    return QueryResult(len(records), records)


def _attach_children(
    store: OrgStore,
    shaper: _Shaper,
    child: ChildPlan,
    parent_rows: list[sqlite3.Row],
    parent_records: list[Record],
) -> None:
    grouped: dict[str, list[Record]] = defaultdict(list)
    parent_ids = [row[0] for row in parent_rows]
    plan = child.query
    for start in range(0, len(parent_ids), CHILD_BATCH):
        params = dict(plan.params)
        params[child.parent_ids_param] = json.dumps(parent_ids[start : start + CHILD_BATCH])
        for row in store.conn.execute(plan.sql, params):
            grouped[row[1]].append(shaper.record(plan, row))
    first = child.offset or 0
    last = None if child.limit is None else first + child.limit
    for parent_id, record in zip(parent_ids, parent_records):
        kids = grouped.get(parent_id, [])[first:last]
        record[child.relationship.name] = (
            {"totalSize": len(kids), "done": True, "records": kids} if kids else None
        )


class _Shaper:
    """Rows to Salesforce JSON: attributes, nested parents, typed values."""

    def __init__(self, api_version: str):
        self.base = f"/services/data/v{api_version}/sobjects"
        # Per plan, worked out once rather than per row (a report fetches thousands):
        # the columns as (key path, index, converter), and the parent links by path.
        self.columns: dict[int, list[tuple[tuple[str, ...], int, Converter]]] = {}
        self.flat: dict[int, bool] = {}
        self.links: dict[int, dict[tuple[str, ...], ParentLink]] = {}

    def attributes(self, sobject: SObject, record_id: str) -> dict[str, str]:
        return {"type": sobject.name, "url": f"{self.base}/{sobject.name}/{record_id}"}

    def prepare(self, plan: CompiledQuery) -> list[tuple[tuple[str, ...], int, Converter]]:
        key = id(plan)
        if key not in self.columns:
            self.columns[key] = [(c.key_path, c.index, _converter(c)) for c in plan.columns]
            self.flat[key] = all(len(c.key_path) == 1 for c in plan.columns)
            self.links[key] = {link.path: link for link in plan.parents}
        return self.columns[key]

    def is_flat(self, plan: CompiledQuery) -> bool:
        """Whether every column is the record's own field (no parent nests)."""
        self.prepare(plan)
        return self.flat[id(plan)]

    def record(self, plan: CompiledQuery, row: sqlite3.Row) -> Record:
        name = plan.sobject.name
        record: Record = {"attributes": {"type": name, "url": f"{self.base}/{name}/{row[0]}"}}
        columns = self.prepare(plan)
        if self.flat[id(plan)]:
            for key_path, index, convert in columns:
                raw = row[index]
                record[key_path[0]] = raw if raw is None or convert is None else convert(raw)
            return record
        links = self.links[id(plan)]
        for key_path, index, convert in columns:
            target = record
            for depth, relationship in enumerate(key_path[:-1], 1):
                if relationship not in target:
                    link = links[key_path[:depth]]
                    parent_id = row[link.id_column]
                    target[relationship] = (
                        None
                        if parent_id is None
                        else {"attributes": self.attributes(link.sobject, parent_id)}
                    )
                target = target[relationship]
                if target is None:
                    break
            else:
                raw = row[index]
                target[key_path[-1]] = raw if raw is None or convert is None else convert(raw)
        return record

    def flat_json(self, plan: CompiledQuery, rows: list[sqlite3.Row]) -> list[str]:
        """Each row as the JSON text of `record(plan, row)` (a plan of plain fields only)."""
        assert self.is_flat(plan)  # the caller checked
        name = plan.sobject.name
        head = '{"attributes": {"type": ' + _text(name) + ', "url": '
        url = f"{self.base}/{name}/"
        keys = [
            (", " + _text(path[0]) + ": ", index, convert)
            for path, index, convert in self.prepare(plan)
        ]
        out = []
        for row in rows:
            parts = [head, _text(url + row[0]), "}"]
            for key, index, convert in keys:
                raw = row[index]
                parts.append(key)
                parts.append(_json(raw if raw is None or convert is None else convert(raw)))
            parts.append("}")
            out.append("".join(parts))
        return out

    @staticmethod
    def aggregate(plan: CompiledQuery, row: sqlite3.Row) -> Record:
        record: Record = {"attributes": {"type": "AggregateResult"}}
        for column in plan.columns:
            record[column.key_path[-1]] = _value(column, row[column.index])
        return record


_text = encode_basestring_ascii  # a str as json.dumps writes it (ensure_ascii)


def _json(value: Any) -> str:
    """One value as json.dumps writes it."""
    kind = type(value)
    if kind is str:
        return str(_text(value))
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return int.__repr__(value)
    if kind is float and math.isfinite(value):
        return float.__repr__(value)
    return json.dumps(value)  # NaN and Infinity as json spells them; anything else


def _converter(column: Column) -> Converter:
    """How a column's stored value becomes its JSON value (None: as stored)."""
    if column.function in ("COUNT", "COUNT_DISTINCT"):
        return int
    if column.function in ("SUM", "AVG"):
        return float
    if column.function in DATE_FUNCTION_SQL and column.function != "DAY_ONLY":
        return int
    if column.field is not None and column.field.type is FieldType.BOOLEAN:
        return bool
    return None


def _value(column: Column, raw: Any) -> Any:
    convert = _converter(column)
    return raw if raw is None or convert is None else convert(raw)
