"""Run compiled SOQL against an OrgStore and shape rows the way Salesforce returns them."""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from typing import Any

from crm_tui.org.schema.catalogue import FieldType, SObject
from crm_tui.org.schema.sftime import parse_date
from crm_tui.org.soql.compiler import ChildPlan, Column, CompiledQuery, compile_query
from crm_tui.org.soql.parser import parse_query
from crm_tui.org.soql.sf_errors import SalesforceError, out_of_range
from crm_tui.org.store.orgstore import OrgStore

API_VERSION = "59.0"
CHILD_BATCH = 500  # parent Ids per child sub-query statement

Record = dict[str, Any]


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


def execute_soql(
    store: OrgStore, text: str, today: date | None = None, api_version: str = API_VERSION
) -> QueryResult:
    """Run one SOQL query; raises SalesforceError (never anything else) for bad queries."""
    if len(text) > MAX_QUERY_CHARS:
        raise SalesforceError(
            "MALFORMED_QUERY", f"Query is too long: over {MAX_QUERY_CHARS:,} characters"
        )
    try:
        query = parse_query(text)
        plan = compile_query(text, query, today or store_today(store))
        return run_plan(store, plan, api_version)
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
    except sqlite3.Error as error:  # a compiler bug, still answered the Salesforce way
        raise SalesforceError(
            "UNKNOWN_EXCEPTION", f"An unexpected error occurred: {error}", status=500
        ) from error
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

    def attributes(self, sobject: SObject, record_id: str) -> dict[str, str]:
        return {"type": sobject.name, "url": f"{self.base}/{sobject.name}/{record_id}"}

    def record(self, plan: CompiledQuery, row: sqlite3.Row) -> Record:
        record: Record = {"attributes": self.attributes(plan.sobject, row[0])}
        links = {link.path: link for link in plan.parents}
        for column in plan.columns:
            target = record
            for depth, relationship in enumerate(column.key_path[:-1], 1):
                if relationship not in target:
                    link = links[column.key_path[:depth]]
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
                target[column.key_path[-1]] = _value(column, row[column.index])
        return record

    @staticmethod
    def aggregate(plan: CompiledQuery, row: sqlite3.Row) -> Record:
        record: Record = {"attributes": {"type": "AggregateResult"}}
        for column in plan.columns:
            record[column.key_path[-1]] = _value(column, row[column.index])
        return record


def _value(column: Column, raw: Any) -> Any:
    if raw is None:
        return None
    if column.function in ("COUNT", "COUNT_DISTINCT"):
        return int(raw)
    if column.function in ("SUM", "AVG"):
        return float(raw)
    if column.field is not None and column.field.type is FieldType.BOOLEAN:
        return bool(raw)
    return raw
