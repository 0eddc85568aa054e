"""The browser backend on a local org file (an OrgStore).

List views page by keyset on the (sort field, Id) indexes the store creates, never by
OFFSET, so the thousandth page costs what the first does. NULLs of the sort field are
paged as their own segment (first when ascending, last when descending, as SQLite sorts
them) because a row-value comparison with NULL matches nothing.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections import defaultdict
from pathlib import Path
from typing import Any

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import (
    Backend,
    Cursor,
    FieldValue,
    Filter,
    ObjectInfo,
    Operator,
    Page,
    RecordView,
    RelatedList,
    SearchHit,
    Sort,
    display_value,
    field_of,
    object_of,
    validate_filter,
)
from crm_tui.org.schema.catalogue import (
    OBJECTS,
    SObject,
    child_relationships,
    object_for_id,
)
from crm_tui.org.schema.ids import to18
from crm_tui.org.soql import QueryResult, execute_soql
from crm_tui.org.store.orgstore import OrgStore, q

RELATED_COUNT_CAP = 10_000  # related lists count up to here, then show "10,000+"
RANKED_MATCH_CAP = 2_000  # searches with more matches than this skip bm25 ranking


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def fts_words(text: str) -> list[str]:
    """The words of a search box: anything FTS5 would read as syntax is dropped."""
    return re.findall(r"\w+", text)


def fts_query(words: list[str], prefix: bool) -> str:
    """A safe FTS5 query matching all `words` (each quoted), the last as a prefix if asked."""
    quoted = [f'"{w}"' for w in words]
    if prefix:
        quoted[-1] += "*"
    return " ".join(quoted)


class LocalBackend(Backend):
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

    def close(self) -> None:
        self._store.close()

    def soql(self, text: str) -> QueryResult:
        """Run one SOQL query (the app's console); raises SalesforceError for bad ones."""
        with self._lock:
            return execute_soql(self._store, text)

    def _rows(self, sql: str, params: list[Any] | tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._store.conn.execute(sql, params).fetchall()

    # ----------------------------------------------------------------- objects
    def list_objects(self) -> list[ObjectInfo]:
        return [ObjectInfo(o.name, o.label, o.label_plural, self.count(o.name)) for o in OBJECTS]

    def _count(self, obj: SObject, filters: tuple[Filter, ...]) -> int:
        where, params = _where(obj, filters)
        return self._rows(f"SELECT count(*) FROM {q(obj.name)}" + _and(where), params)[0][0]

    # ----------------------------------------------------------------- list views
    def page(
        self,
        object_name: str,
        filters: list[Filter] | tuple[Filter, ...] = (),
        sort: Sort | None = None,
        after: Cursor | None = None,
        limit: int = 100,
    ) -> Page:
        obj = object_of(object_name)
        if limit < 1:
            raise CrmTuiError(f"A page needs at least one row, not {limit}")
        sort = sort or Sort(obj.default_sort)
        sort_field = field_of(obj, sort.field)
        col, direction = q(sort_field.name), "DESC" if sort.descending else "ASC"
        after_op = "<" if sort.descending else ">"
        where, params = _where(obj, filters)

        # Segments in display order; each is (is-null segment?).
        segments = (
            [False]
            if sort_field.name == "Id"
            else ([False, True] if sort.descending else [True, False])
        )
        if after is not None:
            segments = segments[segments.index(after.sort_value is None) :]

        records: list[dict[str, Any]] = []
        for null_segment in segments:
            clauses, args = list(where), list(params)
            if sort_field.name != "Id":
                clauses.append(f"{col} IS {'' if null_segment else 'NOT '}NULL")
            if after is not None and (after.sort_value is None) == null_segment:
                if null_segment:
                    clauses.append(f"Id {after_op} ?")
                    args.append(after.record_id)
                else:
                    clauses.append(f"({col}, Id) {after_op} (?, ?)")
                    args += [after.sort_value, after.record_id]
                after = None  # later segments start from their beginning
            sql = (
                f"SELECT * FROM {q(obj.name)}{_and(clauses)} "
                f"ORDER BY {col} {direction}, Id {direction} LIMIT ?"
            )
            rows = self._rows(sql, [*args, limit + 1 - len(records)])
            records += [dict(r) for r in rows]
            if len(records) > limit:
                break

        next_cursor = None
        if len(records) > limit:
            del records[limit:]
            last = records[-1]
            next_cursor = Cursor(last[sort_field.name], last["Id"])
        return Page(records, next_cursor, self._names(obj, records))

    def _names(self, obj: SObject, records: list[dict[str, Any]]) -> dict[str, str]:
        """Display names of every record the lookups point at: one query per target object."""
        wanted: dict[str, set[str]] = defaultdict(set)
        for fld in obj.lookups:
            wanted[fld.reference_to].update(r[fld.name] for r in records if r.get(fld.name))
        names: dict[str, str] = {}
        for target_name, ids in wanted.items():
            if not ids:
                continue
            target = object_of(target_name)
            marks = ", ".join("?" * len(ids))
            rows = self._rows(
                f"SELECT Id, {q(target.title_field)} FROM {q(target.name)} WHERE Id IN ({marks})",
                sorted(ids),
            )
            names.update({r[0]: r[1] or r[0] for r in rows})
        return names

    # ----------------------------------------------------------------- records
    def _object_for(self, record_id: str) -> SObject:
        obj = object_for_id(record_id)
        if obj is None:
            raise CrmTuiError(
                f"{record_id!r} is not the Id of any object in this org "
                f"(unknown key prefix {record_id[:3]!r})"
            )
        return obj

    def get_record(self, record_id: str) -> RecordView:
        record_id = to18(record_id.strip()) if len(record_id.strip()) == 15 else record_id.strip()
        obj = self._object_for(record_id)
        rows = self._rows(f"SELECT * FROM {q(obj.name)} WHERE Id = ?", [record_id])
        if not rows:
            raise CrmTuiError(f"No {obj.label} with Id {record_id} in this org")
        record = dict(rows[0])
        names = self._names(obj, [record])
        fields = [
            FieldValue(
                f.name,
                f.label,
                f.type,
                record[f.name],
                display_value(f, record[f.name], names),
                record[f.name] if f.is_lookup and record[f.name] else None,
            )
            for f in obj.fields
        ]
        title = str(record[obj.title_field] or record_id)
        return RecordView(obj.name, record_id, title, fields)

    def related(self, record_id: str, preview_rows: int = 5) -> list[RelatedList]:
        obj = self._object_for(record_id)
        lists = []
        for rel in child_relationships(obj.name):
            child = object_of(rel.child)
            capped = self._rows(
                f"SELECT count(*) FROM (SELECT 1 FROM {q(child.name)} WHERE {q(rel.field)} = ? "
                f"LIMIT {RELATED_COUNT_CAP + 1})",
                [record_id],
            )[0][0]
            # Sorting children by Id walks the (lookup, Id) index: instant at any size.
            preview = self.page(
                child.name,
                [Filter(rel.field, Operator.EQ, record_id)],
                Sort("Id"),
                limit=preview_rows,
            )
            lists.append(
                RelatedList(
                    rel.name,
                    child.name,
                    rel.field,
                    record_id,
                    min(capped, RELATED_COUNT_CAP),
                    capped > RELATED_COUNT_CAP,
                    preview,
                )
            )
        return lists

    # ----------------------------------------------------------------- search
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
        scope = [object_of(o).name for o in objects or []]
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


def _where(obj: SObject, filters: list[Filter] | tuple[Filter, ...]) -> tuple[list[str], list]:
    """SQL conditions and bound values; identifiers come only from the catalogue."""
    clauses: list[str] = []
    params: list[Any] = []
    for flt in filters:
        fld, op, value = validate_filter(obj, flt)
        col = q(fld.name)
        if op is Operator.IS_EMPTY:
            clauses.append(f"({col} IS NULL OR {col} = '')")
        elif op is Operator.IS_NOT_EMPTY:
            clauses.append(f"({col} IS NOT NULL AND {col} != '')")
        elif op is Operator.CONTAINS:
            clauses.append(f"{col} LIKE ? ESCAPE '\\'")
            params.append(f"%{_escape_like(value)}%")
        elif op is Operator.STARTS_WITH:
            clauses.append(f"{col} LIKE ? ESCAPE '\\'")
            params.append(f"{_escape_like(value)}%")
        elif op is Operator.NE:  # as in SOQL, "not x" also matches empty fields
            clauses.append(f"({col} IS NULL OR {col} != ?)")
            params.append(value)
        else:
            clauses.append(f"{col} {op.value} ?")
            params.append(value)
    return clauses, params


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())


def _and(clauses: list[str]) -> str:
    return " WHERE " + " AND ".join(clauses) if clauses else ""
