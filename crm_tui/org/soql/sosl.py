"""SOSL over the store's FTS5 `search_index`: FIND {term} IN ... RETURNING Obj(...)."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import date
from typing import Any

from crm_tui.org.schema.catalogue import get_object, has_object
from crm_tui.org.soql.compiler import compile_query
from crm_tui.org.soql.executor import API_VERSION, MAX_QUERY_CHARS, run_plan, store_today
from crm_tui.org.soql.parser import parse_search
from crm_tui.org.soql.sf_errors import SalesforceError, out_of_range
from crm_tui.org.store import search_terms
from crm_tui.org.store.orgstore import OrgStore
from crm_tui.org.store.search_terms import MAX_SEARCH_TERMS as MAX_SEARCH_TERMS  # re-exported
from crm_tui.org.store.search_terms import BadSearchTerm

DEFAULT_LIMIT = 2000


def fts_query(term: str, scope: str) -> str:
    """Translate a SOSL search term (words, "phrases", AND/OR/AND NOT, trailing *) to FTS5."""
    try:
        return search_terms.fts_query(term, scope)
    except BadSearchTerm as error:
        raise SalesforceError("MALFORMED_SEARCH", str(error)) from None


def execute_sosl(
    store: OrgStore, text: str, today: date | None = None, api_version: str = API_VERSION
) -> dict[str, Any]:
    """Run one SOSL search; returns `{"searchRecords": [...]}` or raises SalesforceError."""
    if len(text) > MAX_QUERY_CHARS:
        raise SalesforceError(
            "MALFORMED_SEARCH", f"Search is too long: over {MAX_QUERY_CHARS:,} characters"
        )
    try:
        with store.schema():
            return _execute_sosl(store, text, today, api_version)
    except (OverflowError, RecursionError) as error:  # the last net under the checks
        raise out_of_range("MALFORMED_SEARCH", error) from None


def _execute_sosl(
    store: OrgStore, text: str, today: date | None, api_version: str
) -> dict[str, Any]:
    search = parse_search(text)
    match = fts_query(search.term, search.scope)
    try:
        hits = store.conn.execute(
            "SELECT object, record_id FROM search_index WHERE search_index MATCH ? ORDER BY rank",
            (match,),
        ).fetchall()
    except sqlite3.OperationalError:
        raise SalesforceError(
            "MALFORMED_SEARCH", f"No search term found or invalid search syntax: {search.term}"
        ) from None
    rank = {record_id: i for i, (_, record_id) in enumerate(hits)}
    overall = search.limit if search.limit is not None else DEFAULT_LIMIT
    records: list[dict[str, Any]] = []
    if not search.returning:
        base = f"/services/data/v{api_version}/sobjects"
        records = [
            {"attributes": {"type": obj, "url": f"{base}/{obj}/{rid}"}, "Id": rid}
            for obj, rid in hits
        ]
        return {"searchRecords": records[:overall]}
    for spec in search.returning:
        query = spec.query
        if not has_object(query.object_name):
            raise SalesforceError(
                "INVALID_TYPE", f"sObject type '{query.object_name}' is not supported."
            )
        name = get_object(query.object_name).name
        ids = [rid for obj, rid in hits if obj == name]
        ranked = not query.order_by  # without ORDER BY, keep relevance order
        body = replace(query, limit=None, offset=None) if ranked else query
        try:
            plan = compile_query(text, body, today or store_today(store), restrict_ids=ids)
        except SalesforceError as error:
            if error.error_code == "MALFORMED_QUERY":
                raise SalesforceError("MALFORMED_SEARCH", error.message) from None
            raise
        found = run_plan(store, plan, api_version).records
        if ranked:
            found.sort(key=lambda r: rank[r["attributes"]["url"].rsplit("/", 1)[1]])
            first = query.offset or 0
            found = found[first : None if query.limit is None else first + query.limit]
        records.extend(found)
    return {"searchRecords": records[:overall]}
