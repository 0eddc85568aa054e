"""The browser backend on a local org file (an OrgStore).

List views, records and related lists are the query model's SOQL (`query.to_soql`, the
text the Salesforce backend sends), run through the project's own SOQL engine. Its SQL
pages by keyset on the (sort field, Id) indexes the store creates, never by OFFSET, so
the thousandth page costs what the first does. Search reads the store's FTS5 index.
"""

from __future__ import annotations

import functools
import re
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import (
    Backend,
    Cursor,
    Filter,
    ObjectInfo,
    Operator,
    Page,
    RecordView,
    RelatedList,
    SearchHit,
    Sort,
    id_text_target,
    object_of,
    record_view,
)
from crm_tui.org.backends.query import (
    CountQuery,
    RecordQuery,
    SortKey,
    children_of,
    page_of,
    related_list,
    run_page,
    sort_key,
    to_soql,
    with_id_text_names,
)
from crm_tui.org.reports.definition import ReportDefinition, ReportResult
from crm_tui.org.reports.resolve import resolve
from crm_tui.org.reports.sql import run_local
from crm_tui.org.schema.catalogue import SObject, active_objects, child_relationships
from crm_tui.org.schema.ids import is_valid_id, to18
from crm_tui.org.soql import QueryResult, SalesforceError, execute_soql
from crm_tui.org.soql.compiler import compile_query
from crm_tui.org.soql.executor import run_plan, store_today
from crm_tui.org.soql.parser import parse_query
from crm_tui.org.store.orgstore import OrgError, OrgStore

# What SQLite says of a file whose bytes are wrong, as opposed to a query it cannot run.
_DAMAGE_WORDS = ("malformed", "not a database", "corrupt", "disk image")


@contextmanager
def _damage_named(store: OrgStore) -> Iterator[None]:
    """A damaged page met while browsing: one message naming the file, which the app
    shows as a notification (the SOQL engine reports SQLite's errors as UNKNOWN_EXCEPTION,
    naming no file)."""
    try:
        yield
    except (SalesforceError, sqlite3.DatabaseError) as error:
        cause = error.__cause__ if isinstance(error, SalesforceError) else error
        if not isinstance(cause, sqlite3.DatabaseError):
            raise
        reason = " ".join(str(cause).split())
        if not any(word in reason for word in _DAMAGE_WORDS):
            raise
        raise OrgError(
            f"{store.path} is damaged ({reason}): restore it from a copy, or make it "
            "again with `crm-tui org generate`"
        ) from None


RANKED_MATCH_CAP = 2_000  # searches with more matches than this skip bm25 ranking


def fts_words(text: str) -> list[str]:
    """The words of a search box: anything FTS5 would read as syntax is dropped."""
    return re.findall(r"\w+", text)


def fts_query(words: list[str], prefix: bool) -> str:
    """A safe FTS5 query matching all `words` (each quoted), the last as a prefix if asked."""
    quoted = [f'"{w}"' for w in words]
    if prefix:
        quoted[-1] += "*"
    return " ".join(quoted)


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _own_schema(
    method: Callable[Concatenate[LocalBackend, _P], _R],
) -> Callable[Concatenate[LocalBackend, _P], _R]:
    """The method with catalogue lookups answering from this backend's org (the app may
    hold orgs of both kinds, as a served org beside the one it browses)."""

    def wrapped(self: LocalBackend, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self._store.schema():
            return method(self, *args, **kwargs)

    functools.update_wrapper(wrapped, method)
    return wrapped


class LocalBackend(Backend):
    supports_soql = True
    supports_search = True
    supports_reports = True

    def __init__(self, path: str | Path):
        self._store = OrgStore.open(path)
        self._lock = threading.Lock()  # one connection, shared by worker threads
        self._name = Path(path).stem
        self._fingerprint = self._store.fingerprint

    @property
    def name(self) -> str:
        return self._name

    @property
    def fingerprint(self) -> str:
        return self._fingerprint

    @_own_schema
    def describe(self, object_name: str) -> SObject:
        return super().describe(object_name)

    @_own_schema
    def object_for_id(self, record_id: str) -> SObject | None:
        return super().object_for_id(record_id)

    def close(self) -> None:
        # Under the lock: a worker's query still running on the connection (the app
        # quit while the object list counted) ends first. SQLite's connection closed
        # under a running statement crashed the process (a segfault, not an error).
        with self._lock:
            self._store.close()

    @_own_schema
    def soql(self, text: str) -> QueryResult:
        """Run one SOQL query (the app's console); raises SalesforceError for bad ones."""
        with self._lock, _damage_named(self._store):
            return execute_soql(self._store, text)

    @_own_schema
    def run_report(self, definition: ReportDefinition, today: date | None = None) -> ReportResult:
        """Run a report as one SQL statement over the report's SOQL (`reports.sql`)."""
        with self._lock, _damage_named(self._store):
            plan = resolve(
                definition, self.describe, today or definition.today or store_today(self._store)
            )
            return run_local(self._store, plan)

    def _records(self, soql: str) -> list[dict[str, Any]]:
        """The records of the query model's SOQL, through the SOQL engine (the Salesforce
        backend sends the same text to Salesforce)."""
        return self.soql(soql).records

    def _rows(self, sql: str, params: list[Any] | tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock, _damage_named(self._store):
            return self._store.conn.execute(sql, params).fetchall()

    # ----------------------------------------------------------------- objects
    @_own_schema
    def list_objects(self) -> list[ObjectInfo]:
        return [
            ObjectInfo(o.name, o.label, o.label_plural, self.count(o.name))
            for o in (self.describe(o.name) for o in active_objects())
        ]

    def _count(self, obj: SObject, filters: tuple[Filter, ...]) -> int:
        return self.soql(to_soql(CountQuery(obj.name, filters), obj)).total_size

    # ----------------------------------------------------------------- list views
    @_own_schema
    def page(
        self,
        object_name: str,
        filters: list[Filter] | tuple[Filter, ...] = (),
        sort: Sort | None = None,
        after: Cursor | None = None,
        limit: int = 100,
    ) -> Page:
        obj = self.describe(object_name)
        query = RecordQuery(obj.name, tuple(filters), sort, after, limit)
        key, descending = sort_key(query, obj)
        target = id_text_target(obj.name, key.field.name) if key.lookup is None else None
        if target is not None:
            return self._by_name_shown(query, obj, key.field.name, target, descending)
        if key.lookup is None or query.filters:
            return run_page(query, obj, self._records)
        return run_page(query, obj, lambda soql: self._parents_first(soql, key))

    def _by_name_shown(
        self, query: RecordQuery, obj: SObject, field: str, target: str, descending: bool
    ) -> Page:
        """A page sorted by a text field that holds Ids (Case History's Old/New Value: User
        Ids), in the order of what it shows: the record's name, else the text itself
        (SQL, as SOQL cannot follow such a field). Empty values are a stretch of their own
        (the field's index, by Id), first ascending, last descending; the cursor holds
        the name shown. No index holds the names: unfiltered, the named stretch merges a
        walk of the names with one of the other values (`_merged_ids`); filtered, it
        sorts the rows the filters keep."""
        compiled = replace(query, sort=Sort(field, descending), after=None, nulls=None)
        soql = to_soql(compiled, obj)
        cursor = query.after
        if cursor is None:
            stretches = [True, False] if not descending else [False, True]
        elif cursor.sort_value is None:
            stretches = [True] if descending else [True, False]
        else:
            stretches = [False, True] if descending else [False]
        rows: list[dict[str, Any]] = []
        with self._lock:
            plan = compile_query(soql, parse_query(soql), store_today(self._store))
            for nulls in stretches:
                after = (
                    cursor
                    if (cursor is not None and (cursor.sort_value is None) == nulls)
                    else None
                )
                sql, params = shown_name_stretch(
                    plan.sql,
                    bool(query.filters),
                    field,
                    target,
                    descending,
                    nulls,
                    after,
                    query.limit + 1 - len(rows),
                )
                rows += run_plan(
                    self._store, replace(plan, sql=sql, params={**plan.params, **params})
                ).records
                if len(rows) > query.limit:
                    break
        page = with_id_text_names(page_of(query, obj, rows), obj, self._records, query.limit + 1)
        if page.next_cursor is None or page.next_cursor.sort_value is None:
            return page
        raw = str(page.next_cursor.sort_value)
        return replace(
            page, next_cursor=Cursor(page.names.get(raw, raw), page.next_cursor.record_id)
        )

    def _parents_first(self, soql: str, key: SortKey) -> list[dict[str, Any]]:
        """The records of a page sorted by a lookup's name, found by walking the parents
        in name order and each one's children through the lookup's index
        (`parents_first`): the first page reads a hundred children, not sorts them all."""
        with self._lock:
            try:
                plan = compile_query(soql, parse_query(soql), store_today(self._store))
            except SalesforceError:
                plan = None
            if plan is None or (sql := parents_first(plan.sql, key)) is None:
                return execute_soql(self._store, soql).records
            return run_plan(self._store, replace(plan, sql=sql)).records

    # ----------------------------------------------------------------- records
    def _object_for(self, record_id: str) -> SObject:
        obj = self.object_for_id(record_id)
        if obj is None:
            raise CrmTuiError(
                f"{record_id!r} is not the Id of any object in this org "
                f"(unknown key prefix {record_id[:3]!r})"
            )
        return obj

    @_own_schema
    def get_record(self, record_id: str) -> RecordView:
        record_id = to18(record_id.strip()) if len(record_id.strip()) == 15 else record_id.strip()
        obj = self._object_for(record_id)
        if not is_valid_id(record_id):  # no record can have it
            raise CrmTuiError(f"No {obj.label} with Id {record_id} in this org")
        page = self.page(obj.name, [Filter("Id", Operator.EQ, record_id)], Sort("Id"), limit=1)
        if not page.records:
            raise CrmTuiError(f"No {obj.label} with Id {record_id} in this org")
        return record_view(obj, page.records[0], page.names)

    @_own_schema
    def related(self, record_id: str, preview_rows: int = 5) -> list[RelatedList]:
        obj = self._object_for(record_id)
        if not is_valid_id(record_id):  # no record has it (get_record says so)
            return []
        lists = []
        for rel in child_relationships(obj.name):
            child = self.describe(rel.child)
            preview, count = children_of(rel, record_id, preview_rows)
            page = run_page(preview, child, self._records)
            total = self.soql(to_soql(count, child)).total_size
            lists.append(related_list(rel, child, record_id, total, page))
        return lists

    # ----------------------------------------------------------------- search
    @_own_schema
    def search(
        self, text: str, objects: list[str] | None = None, limit: int = 50
    ) -> list[SearchHit]:
        """Records matching every word, the last word whole first, then as a prefix.

        A prefix query reads the whole posting list of every term it expands to, so it
        only runs when the whole-word query leaves room in `limit`.
        """
        words = fts_words(text)
        if not words:
            return []
        scope = [self.describe(o).name for o in objects or []]
        hits = self._search(fts_query(words, prefix=False), scope, limit)
        if len(hits) < limit:
            known = {h.record_id for h in hits}
            more = self._search(fts_query(words, prefix=True), scope, limit)
            hits += [h for h in more if h.record_id not in known][: limit - len(hits)]
        return hits

    def _search(self, match: str, scope: list[str], limit: int) -> list[SearchHit]:
        """bm25 ranking scores every match, which takes seconds for a common word on a big
        org; past RANKED_MATCH_CAP matches, hits in name fields come first instead, then
        the rest, each in index order."""
        where = "WHERE search_index MATCH ?"
        if scope:
            where += f" AND object IN ({', '.join('?' * len(scope))})"
        select = (
            "SELECT rowid, object, record_id, name, "
            f"snippet(search_index, -1, '', '', '…', 12) FROM search_index {where}"
        )
        matches = self._rows(
            f"SELECT count(*) FROM (SELECT 1 FROM search_index {where} "
            f"LIMIT {RANKED_MATCH_CAP + 1})",
            [match, *scope],
        )[0][0]
        if matches <= RANKED_MATCH_CAP:
            rows = self._rows(select + " ORDER BY rank LIMIT ?", [match, *scope, limit])
        else:
            rows = self._rows(select + " LIMIT ?", [f"name : ({match})", *scope, limit])
            seen = [r[0] for r in rows]
            rows += self._rows(
                select + f" AND rowid NOT IN ({', '.join('?' * len(seen)) or 'NULL'}) LIMIT ?",
                [match, *scope, *seen, limit - len(rows)],
            )
        return [SearchHit(r[1], r[2], _one_line(r[3]) or r[2], _one_line(r[4])) for r in rows]


def parents_first(sql: str, key: SortKey) -> str | None:
    """A compiled page of the named stretch of a lookup sort (`Owner.Name != null`) that
    finds its rows parent first. No index holds a child's parent name, so the compiled
    statement scans and sorts every child (6 s for 700,000 Order Products); this one
    keeps it and adds `AND t0."Id" IN (<the page's Ids>)`, found by

        SELECT t0."Id" FROM "User" AS t3 CROSS JOIN "Case" AS t0 ON t3."Id" = t0."OwnerId"
        WHERE <the same conditions> ORDER BY <the same order> LIMIT <the same>

    CROSS JOIN makes SQLite keep that order: it walks the parents' (name, Id) index and
    each parent's children through the (lookup, Id) index, both covering, sorting only
    the Ids of the children of one name, and stops at the page's end; the outer
    statement then reads and sorts a page of rows. The inner join equals the left join
    in this stretch (named parents only). None when the statement is not of that shape
    (the null stretch), or has conditions of its own (filters: the children they keep
    are read through their own indexes, so the compiled statement stays)."""
    assert key.lookup is not None and key.lookup.reference_to is not None
    join = re.search(
        rf'FROM ("[^"]+") AS t0 .*?LEFT JOIN "{re.escape(key.lookup.reference_to)}" '
        rf'AS (t\d+) ON \2\."Id" = t0\."{re.escape(key.lookup.name)}" ',
        sql,
    )
    if join is None:
        return None
    child, alias = join.groups()
    where, order = sql.find(" WHERE ", join.end() - 1), sql.rfind(" ORDER BY ")
    if where < 0 or order < where:
        return None
    if f'{alias}."{key.field.name}" IS NOT NULL' not in sql[where:order]:
        return None
    inner = (
        f'SELECT t0."Id" FROM "{key.lookup.reference_to}" AS {alias} CROSS JOIN {child} AS t0 '
        f'ON {alias}."Id" = t0."{key.lookup.name}"{sql[where:]}'
    )
    return f'{sql[:order]} AND t0."Id" IN ({inner}){sql[order:]}'


def shown_name_stretch(
    sql: str,
    has_where: bool,
    field: str,
    target: str,
    descending: bool,
    nulls: bool,
    after: Cursor | None,
    limit: int,
) -> tuple[str, dict[str, Any]]:
    """A compiled page (its ORDER BY replaced) of one stretch of a sort by the name an
    Id-holding text field shows: its empty values (by Id) or the rest, ordered by
    `coalesce(<the target's title of the Id>, <the text>)` without case, then Id, just
    after `after` (in this stretch); with the parameters it adds."""
    column = f't0."{field}"'
    title = object_of(target).title_field
    shown = (
        f'coalesce((SELECT n."{title}" FROM "{target}" AS n WHERE n."Id" = {column}), '
        f"{column}) COLLATE NOCASE"
    )
    direction, beyond = ("DESC", "<") if descending else ("ASC", ">")
    conditions = [f"{column} IS NULL" if nulls else f"{column} IS NOT NULL"]
    params: dict[str, Any] = {}
    if after is not None:
        params["shown_id"] = after.record_id
        later = f't0."Id" {beyond} :shown_id'
        if not nulls:
            params["shown_value"] = str(after.sort_value)
            later = f"({shown} {beyond} :shown_value OR ({shown} = :shown_value AND {later}))"
        conditions.append(later)
    order = f't0."Id" {direction}' if nulls else f'{shown} {direction}, t0."Id" {direction}'
    head = sql[: sql.rindex(" ORDER BY ")]
    glue = " AND " if has_where else " WHERE "
    page = f"{' AND '.join(conditions)} ORDER BY {order} LIMIT {limit}"
    if nulls:
        return f"{head}{glue}{page}", params
    # The sort holds Ids and names only, not whole rows with their parents' names: the
    # page's Ids first, from the object alone (list filters are on its own fields).
    where = head.find(" WHERE ", head.index(" AS t0 "))
    own = head[where:] + " AND " if where >= 0 else " WHERE "
    table = head[head.index(" FROM ") + 6 : head.index(" AS t0 ")]
    ids = f'SELECT t0."Id" FROM {table} AS t0{own}{page}'
    if not has_where:
        ids = _merged_ids(table, column, target, title, descending, after is not None, limit)
    return f'{head}{glue}t0."Id" IN ({ids}) ORDER BY {order}', params


def _merged_ids(
    table: str, column: str, target: str, title: str, descending: bool, after: bool, limit: int
) -> str:
    """The Ids of an unfiltered page of the named stretch without sorting it whole: the
    values that are Ids of named records, walking the target's (name, Id) index and each
    one's rows through the field's (value, Id) index (CROSS JOIN keeps that order), and
    the other values, walking the field's (value without case, Id) index, each the first
    `limit` after the cursor (`:shown_value`, `:shown_id`), merged by name, then Id."""
    direction, beyond = ("DESC", "<") if descending else ("ASC", ">")
    name, text = f'n."{title}" COLLATE NOCASE', f"{column} COLLATE NOCASE"

    def later(shown: str) -> str:
        if not after:
            return ""
        return (
            f" AND ({shown} {beyond} :shown_value OR "
            f'({shown} = :shown_value AND t0."Id" {beyond} :shown_id))'
        )

    named = (
        f'SELECT t0."Id" AS id, n."{title}" AS shown FROM "{target}" AS n CROSS JOIN {table} '
        f'AS t0 ON {column} = n."Id" WHERE n."{title}" IS NOT NULL{later(name)} '
        f'ORDER BY {name} {direction}, t0."Id" {direction} LIMIT {limit}'
    )
    # The other values only as far as the names reach (a full page of them): the walk
    # reads no further than it must (User Ids, digits, sort before every name).
    last = (
        f"(SELECT shown FROM named ORDER BY shown COLLATE NOCASE {direction}, id {direction} "
        f"LIMIT 1 OFFSET {limit - 1})"
    )
    reach = f"coalesce({last}, '')" if descending else f"coalesce({last}, x'ff')"
    texts = (
        f'SELECT t0."Id" AS id, {column} AS shown FROM {table} AS t0 WHERE {column} IS NOT '
        f'NULL AND NOT EXISTS (SELECT 1 FROM "{target}" AS n WHERE n."Id" = {column} AND '
        f'n."{title}" IS NOT NULL){later(text)} AND {text} {">=" if descending else "<="} {reach} '
        f'ORDER BY {text} {direction}, t0."Id" {direction} LIMIT {limit}'
    )
    return (
        f"WITH named AS MATERIALIZED ({named}) SELECT id FROM (SELECT id, shown FROM named "
        f"UNION ALL SELECT * FROM ({texts})) "
        f"ORDER BY shown COLLATE NOCASE {direction}, id {direction} LIMIT {limit}"
    )


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())
