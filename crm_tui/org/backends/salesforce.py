"""The browser backend on a live Salesforce org, through simple-salesforce (read-only).

Objects and fields are the catalogue's, narrowed to what the org's describe reports (an
org without a field simply lacks that column). List views page by keyset in SOQL, never
OFFSET (capped at 2,000 by Salesforce): ORDER BY the sort field and Id, with a WHERE that
starts just after the last row. Lookups come back named through relationship fields in
the same SELECT. Every value reaches SOQL and SOSL escaped; every failure becomes a
CrmTuiError with no credential in it.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

import requests
from simple_salesforce import Salesforce
from simple_salesforce.exceptions import (
    SalesforceError,
    SalesforceExpiredSession,
    SalesforceMalformedRequest,
    SalesforceRefusedRequest,
)
from simple_salesforce.format import format_soql, quote_soql_value

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import (
    Backend,
    Cursor,
    FieldValue,
    Filter,
    ObjectInfo,
    Operator,
    Page,
    Record,
    RecordView,
    RelatedList,
    SearchHit,
    Sort,
    display_value,
    field_of,
    object_of,
    validate_filter,
)
from crm_tui.org.backends.sf_connection import REDACTED, SalesforceCredentials, connect
from crm_tui.org.schema.catalogue import (
    OBJECTS,
    Field,
    FieldType,
    SObject,
    child_relationships,
    object_for_id,
)
from crm_tui.org.schema.ids import is_valid_id, to18
from crm_tui.org.schema.sftime import parse_datetime
from crm_tui.org.soql.executor import QueryResult

CONSOLE_ROWS = 2_000  # a console shows rows to read, not to export
RELATED_COUNT_CAP = 10_000  # as the local backend: related lists show "10,000+"
SOSL_RESERVED = set("?&|!{}[]()^~*:\\\"'+-")
_TEXT_TYPES = {
    FieldType.TEXT,
    FieldType.LONG_TEXT,
    FieldType.PICKLIST,
    FieldType.EMAIL,
    FieldType.PHONE,
}


@dataclass
class ApiUsage:
    """Calls this backend made, and the org's daily API usage from `Sforce-Limit-Info`."""

    calls: int = 0
    org_used: int | None = None
    org_limit: int | None = None

    def __str__(self) -> str:
        org = f"; org today {self.org_used:,}/{self.org_limit:,}" if self.org_limit else ""
        return f"{self.calls:,} Salesforce API calls{org}"


class SalesforceBackend(Backend):
    def __init__(self, credentials: SalesforceCredentials, session: requests.Session | None = None):
        self._credentials = credentials
        self._session = session
        self._lock = threading.Lock()  # one client; re-login swaps its headers
        self.usage = ApiUsage()
        self._sf: Salesforce = connect(credentials, session)
        self._org_objects: dict[str, dict[str, Any]] | None = None
        self._described: dict[str, SObject] = {}
        org = self._query("SELECT Id FROM Organization")["records"]
        if not org or not isinstance(org[0], dict) or "Id" not in org[0]:
            raise CrmTuiError(
                "Salesforce did not tell crm-tui the org's Id "
                "(SELECT Id FROM Organization came back empty)"
            )
        org_id = org[0]["Id"]
        self._instance = self._sf.sf_instance
        self._fingerprint = f"salesforce-{org_id}@{self._instance}"

    @property
    def name(self) -> str:
        return self._instance

    @property
    def fingerprint(self) -> str:
        return self._fingerprint

    def close(self) -> None:
        self._sf.session.close()

    # ----------------------------------------------------------------- calls
    def _call(self, what: str, method: str, *args: Any, **kwargs: Any) -> Any:
        """One API call with its faults turned into CrmTuiErrors (secrets redacted).

        A dropped keep-alive connection is retried once; an expired session logs in
        again once when there is a password to log in with.
        """
        retried = relogged = False
        while True:
            try:
                with self._lock:
                    self.usage.calls += 1
                    answer = getattr(self._sf, method)(*args, **kwargs)
                    self._note_usage()
                return answer
            except requests.ConnectionError as exc:
                if not retried:
                    retried = True
                    continue
                raise self._error(
                    f"Cannot reach Salesforce at {self._sf.sf_instance} "
                    f"({what}): {type(exc).__name__}. Check the network and "
                    "try again."
                ) from None
            except requests.Timeout:
                raise self._error(
                    f"Salesforce at {self._sf.sf_instance} did not answer in "
                    f"time ({what}); try again."
                ) from None
            except SalesforceExpiredSession:
                if self._credentials.uses_password and not relogged:
                    relogged = True
                    with self._lock:
                        self._sf = connect(self._credentials, self._session)
                    continue
                raise self._error(
                    "The Salesforce session has expired or is invalid "
                    f"({what}): set a fresh SALESFORCE_SESSION_ID, or use "
                    "username, password and security token."
                ) from None
            except SalesforceRefusedRequest as exc:
                codes = _error_codes(exc)
                if "REQUEST_LIMIT_EXCEEDED" in codes:
                    raise self._error(
                        f"The org's API request limit is used up ({what}): "
                        f"{_error_text(exc)}. Try again later."
                    ) from None
                raise self._error(f"Salesforce refused {what}: {_error_text(exc)}") from None
            except SalesforceMalformedRequest as exc:
                raise self._error(f"Salesforce rejected {what}: {_error_text(exc)}") from None
            except SalesforceError as exc:
                raise self._error(
                    f"Salesforce answered HTTP {exc.status} to {what}: {_error_text(exc)}"
                ) from None
            except (ValueError, KeyError, TypeError, IndexError):
                # Non-JSON bodies, or 401 bodies the client cannot read.
                raise self._error(
                    f"Salesforce sent an answer crm-tui cannot read ({what}); try again."
                ) from None

    def _error(self, message: str) -> CrmTuiError:
        """A CrmTuiError without the configured secrets or the session from the login."""
        message = self._credentials.redact(message)
        if self._sf.session_id:
            message = message.replace(self._sf.session_id, REDACTED)
        return CrmTuiError(message)

    def _note_usage(self) -> None:
        usage = getattr(self._sf, "api_usage", {}).get("api-usage")
        if usage is not None:
            self.usage.org_used, self.usage.org_limit = usage.used, usage.total

    def _query(self, soql: str) -> dict[str, Any]:
        """One page of a SOQL query (`query`, so COUNT() keeps its totalSize)."""
        answer = self._call("a query", "query", soql)
        return _checked(answer, "a query", records=list, totalSize=int)

    def soql(self, text: str) -> QueryResult:
        """Run one SOQL query for the app's console: its total and first CONSOLE_ROWS rows."""
        answer = self._query(text)
        return QueryResult(answer["totalSize"], self._follow(answer, CONSOLE_ROWS))

    def _rows(self, soql: str, wanted: int) -> list[dict[str, Any]]:
        """The first `wanted` records, following nextRecordsUrl past a server page."""
        return self._follow(self._query(soql), wanted)

    def _follow(self, answer: dict[str, Any], wanted: int) -> list[dict[str, Any]]:
        records = list(answer["records"])
        while len(records) < wanted and not answer.get("done", True):
            answer = _checked(
                self._call(
                    "a query", "query_more", answer["nextRecordsUrl"], identifier_is_url=True
                ),
                "a query",
                records=list,
            )
            records += answer["records"]
        return records[:wanted]

    # ----------------------------------------------------------------- describe
    def _org_object_names(self) -> dict[str, dict[str, Any]]:
        if self._org_objects is None:
            answer = _checked(self._call("describe", "describe"), "describe", sobjects=list)
            self._org_objects = {
                o["name"].lower(): o
                for o in answer["sobjects"]
                if isinstance(o, dict) and "name" in o
            }
        return self._org_objects

    def describe(self, object_name: str) -> SObject:
        """The catalogue object narrowed to the fields this org has, with its labels."""
        obj = object_of(object_name)
        if obj.name not in self._described:
            if obj.name.lower() not in self._org_object_names():
                raise CrmTuiError(f"This Salesforce org has no {obj.name} object")
            what = f"describe {obj.name}"
            answer = _checked(
                self._call(what, "restful", f"sobjects/{obj.name}/describe"), what, fields=list
            )
            org_fields = {
                f["name"].lower(): f
                for f in answer["fields"]
                if isinstance(f, dict) and "name" in f
            }
            fields = tuple(
                replace(f, label=org_fields[f.name.lower()].get("label", f.label))
                for f in obj.fields
                if f.name.lower() in org_fields
            )
            self._described[obj.name] = replace(
                obj,
                label=answer.get("label", obj.label),
                label_plural=answer.get("labelPlural", obj.label_plural),
                fields=fields,
                _by_name={},
            )
        return self._described[obj.name]

    def _has_object(self, name: str) -> bool:
        return name.lower() in self._org_object_names()

    def list_objects(self) -> list[ObjectInfo]:
        return [
            ObjectInfo(o.name, o.label, o.label_plural, self.count(o.name))
            for o in map(self.describe, (o.name for o in OBJECTS if self._has_object(o.name)))
        ]

    # ----------------------------------------------------------------- SOQL pieces
    def _select(self, obj: SObject) -> str:
        """Every field, plus the display name of each lookup's target (Account.Name)."""
        columns = list(obj.field_names)
        for fld in self._named_lookups(obj):
            columns.append(f"{fld.relationship_name}.{object_of(fld.reference_to).title_field}")
        return ", ".join(columns)

    def _named_lookups(self, obj: SObject) -> list[Field]:
        return [f for f in obj.lookups if f.relationship_name and self._has_object(f.reference_to)]

    def _record(self, obj: SObject, raw: dict[str, Any], names: dict[str, str]) -> Record:
        """A flat record like the local store's; parents' names go into `names`."""
        for fld in self._named_lookups(obj):
            parent = raw.get(fld.relationship_name)
            if raw.get(fld.name) and isinstance(parent, dict):
                title = object_of(fld.reference_to).title_field
                names[raw[fld.name]] = str(parent.get(title) or raw[fld.name])
        return {f.name: raw.get(f.name) for f in obj.fields}

    def _where(self, obj: SObject, filters: list[Filter] | tuple[Filter, ...]) -> list[str]:
        return [_condition(*validate_filter(obj, flt)) for flt in filters]

    # ----------------------------------------------------------------- list views
    def _count(self, obj: SObject, filters: tuple[Filter, ...]) -> int:
        soql = f"SELECT COUNT() FROM {obj.name}" + _and(self._where(obj, filters))
        return self._query(soql)["totalSize"]

    def page(
        self,
        object_name: str,
        filters: list[Filter] | tuple[Filter, ...] = (),
        sort: Sort | None = None,
        after: Cursor | None = None,
        limit: int = 100,
    ) -> Page:
        obj = self.describe(object_name)
        if limit < 1:
            raise CrmTuiError(f"A page needs at least one row, not {limit}")
        sort = sort or Sort(obj.default_sort)
        sort_field = field_of(obj, sort.field)
        clauses = self._where(obj, filters)
        if after is not None:
            clauses.append(_after(sort_field, sort.descending, after))
        direction = "DESC NULLS LAST" if sort.descending else "ASC NULLS FIRST"
        order = (
            f"Id {direction[:4]}"
            if sort_field.name == "Id"
            else f"{sort_field.name} {direction}, Id {direction[:4]}"
        )
        soql = (
            f"SELECT {self._select(obj)} FROM {obj.name}{_and(clauses)} "
            f"ORDER BY {order} LIMIT {limit + 1}"
        )
        names: dict[str, str] = {}
        records = [self._record(obj, raw, names) for raw in self._rows(soql, limit + 1)]
        next_cursor = None
        if len(records) > limit:
            del records[limit:]
            next_cursor = Cursor(records[-1][sort_field.name], records[-1]["Id"])
        return Page(records, next_cursor, names)

    # ----------------------------------------------------------------- records
    def _object_for(self, record_id: str) -> SObject:
        obj = object_for_id(record_id)
        if obj is None:
            raise CrmTuiError(
                f"{record_id!r} is not the Id of any object in this org "
                f"(unknown key prefix {record_id[:3]!r})"
            )
        if not is_valid_id(record_id):
            raise CrmTuiError(
                f"{record_id!r} is not a Salesforce Id (15 or 18 letters and "
                "digits, with a valid checksum)"
            )
        return self.describe(obj.name)

    def get_record(self, record_id: str) -> RecordView:
        record_id = record_id.strip()
        obj = self._object_for(record_id)
        record_id = to18(record_id)
        soql = format_soql(f"SELECT {self._select(obj)} FROM {obj.name} WHERE Id = {{}}", record_id)
        rows = self._query(soql)["records"]
        if not rows:
            raise CrmTuiError(f"No {obj.label} with Id {record_id} in this org")
        names: dict[str, str] = {}
        record = self._record(obj, rows[0], names)
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
        return RecordView(
            obj.name, record_id, str(record.get(obj.title_field) or record_id), fields
        )

    def related(self, record_id: str, preview_rows: int = 5) -> list[RelatedList]:
        """Previews in one query through child relationships, then one COUNT() per list."""
        parent = self._object_for(record_id)
        record_id = to18(record_id)
        rels = [
            r
            for r in child_relationships(parent.name)
            if self._has_object(r.child) and self.describe(r.child).has_field(r.field)
        ]
        if not rels:
            return []
        subqueries = [
            f"(SELECT {self._select(self.describe(r.child))} FROM {r.name} "
            f"ORDER BY Id ASC LIMIT {preview_rows + 1})"
            for r in rels
        ]
        soql = format_soql(
            f"SELECT Id, {', '.join(subqueries)} FROM {parent.name} WHERE Id = {{}}", record_id
        )
        rows = self._query(soql)["records"]
        if not rows:
            raise CrmTuiError(f"No {parent.label} with Id {record_id} in this org")
        lists = []
        for rel in rels:
            child = self.describe(rel.child)
            nested = rows[0].get(rel.name) or {"records": []}  # null when there are none
            names: dict[str, str] = {}
            children = [
                self._record(child, raw, names)
                for raw in _checked(nested, rel.name, records=list)["records"]
            ]
            cursor = None
            if len(children) > preview_rows:
                del children[preview_rows:]
                cursor = Cursor(children[-1]["Id"], children[-1]["Id"])
            count = self._query(
                format_soql(
                    f"SELECT COUNT() FROM {child.name} WHERE {rel.field} = {{}} "
                    f"LIMIT {RELATED_COUNT_CAP + 1}",
                    record_id,
                )
            )["totalSize"]
            lists.append(
                RelatedList(
                    rel.name,
                    child.name,
                    rel.field,
                    record_id,
                    min(count, RELATED_COUNT_CAP),
                    count > RELATED_COUNT_CAP,
                    Page(children, cursor, names),
                )
            )
        return lists

    # ----------------------------------------------------------------- search
    def search(
        self, text: str, objects: list[str] | None = None, limit: int = 50
    ) -> list[SearchHit]:
        """SOSL over every searchable object: all words, the last one also as a prefix."""
        words = [sosl_escape(w) for w in text.split() if re.search(r"\w", w)]
        if not words:
            return []
        scope = (
            [self.describe(o) for o in objects]
            if objects
            else [
                self.describe(o.name)
                for o in OBJECTS
                if self._has_object(o.name) and any(f.searchable for f in o.fields)
            ]
        )
        returning = ", ".join(f"{o.name}({', '.join(_search_fields(o))})" for o in scope)
        sosl = f"FIND {{{' '.join(words)}*}} IN ALL FIELDS RETURNING {returning} LIMIT {int(limit)}"
        answer = self._call("a search", "search", sosl)
        hits = _checked(answer or {"searchRecords": []}, "a search", searchRecords=list)
        plain = [w.lower() for w in re.findall(r"\w+", text)]
        found = []
        for raw in hits["searchRecords"][:limit]:
            obj = self.describe(raw["attributes"]["type"])
            title = str(raw.get(obj.title_field) or raw["Id"])
            found.append(SearchHit(obj.name, raw["Id"], title, _snippet(obj, raw, plain)))
        return found


# --------------------------------------------------------------------- SOQL values
def _literal(fld: Field, value: Any) -> str:
    """`value` (already coerced by validate_filter) as an escaped SOQL literal."""
    if fld.type is FieldType.BOOLEAN:
        return quote_soql_value(bool(value))
    if fld.type in (FieldType.NUMBER, FieldType.CURRENCY):
        return format(Decimal(repr(float(value))), "f")
    if fld.type is FieldType.DATE:
        try:
            return date.fromisoformat(str(value).strip()[:10]).isoformat()
        except ValueError:
            raise CrmTuiError(
                f"{fld.label} ({fld.name}) needs a date like 2024-01-31, not {value!r}"
            ) from None
    if fld.type is FieldType.DATETIME:
        return quote_soql_value(_datetime(fld, value))
    if fld.type in (FieldType.ID, FieldType.LOOKUP) and not is_valid_id(str(value)):
        raise CrmTuiError(f"{fld.label} ({fld.name}) needs a Salesforce Id, not {value!r}")
    return quote_soql_value(str(value))


def _datetime(fld: Field, value: Any) -> datetime:
    try:
        return parse_datetime(str(value)).replace(tzinfo=UTC)
    except ValueError:
        raise CrmTuiError(
            f"{fld.label} ({fld.name}) needs a date or a date and time like "
            f"2024-01-31T09:30:00Z, not {value!r}"
        ) from None


def _is_day(value: Any) -> bool:
    return isinstance(value, str) and len(value.strip()) == 10


def _condition(fld: Field, op: Operator, value: Any) -> str:
    name = fld.name
    if op is Operator.IS_EMPTY:
        return f"({name} = null OR {name} = '')" if fld.type in _TEXT_TYPES else f"{name} = null"
    if op is Operator.IS_NOT_EMPTY:
        return (
            f"({name} != null AND {name} != '')" if fld.type in _TEXT_TYPES else f"{name} != null"
        )
    if op is Operator.CONTAINS:
        return format_soql(f"{name} LIKE '%{{:like}}%'", value)
    if op is Operator.STARTS_WITH:
        return format_soql(f"{name} LIKE '{{:like}}%'", value)
    if fld.type is FieldType.DATETIME and _is_day(value):
        # A bare day on a DateTime field means that whole day (in UTC, as stored).
        start = _datetime(fld, value)
        lo, hi = quote_soql_value(start), quote_soql_value(start + timedelta(days=1))
        return {
            Operator.EQ: f"({name} >= {lo} AND {name} < {hi})",
            Operator.NE: f"({name} < {lo} OR {name} >= {hi} OR {name} = null)",
            Operator.LT: f"{name} < {lo}",
            Operator.LE: f"{name} < {hi}",
            Operator.GT: f"{name} >= {hi}",
            Operator.GE: f"{name} >= {lo}",
        }[op]
    return f"{name} {op.value} {_literal(fld, value)}"


def _after(fld: Field, descending: bool, cursor: Cursor) -> str:
    """Rows strictly after the cursor in (field, Id) order, NULLs first ascending and
    last descending (as the ORDER BY puts them)."""
    after_id = f"Id {'<' if descending else '>'} {quote_soql_value(cursor.record_id)}"
    if fld.name == "Id":
        return after_id
    name, value = fld.name, cursor.sort_value
    if value is None:
        return (
            f"({name} = null AND {after_id})"
            if descending
            else f"(({name} = null AND {after_id}) OR {name} != null)"
        )
    literal = _literal(fld, value)
    same = f"({name} = {literal} AND {after_id})"
    if fld.type is FieldType.BOOLEAN:  # no < or > on booleans in SOQL
        later = quote_soql_value(not value)
        beyond = f" OR {name} = {later}" if bool(value) == descending else ""
        return f"({same}{beyond})"
    beyond = f"{name} {'<' if descending else '>'} {literal}"
    return f"({beyond} OR {same}{f' OR {name} = null' if descending else ''})"


def _and(clauses: list[str]) -> str:
    return " WHERE " + " AND ".join(clauses) if clauses else ""


# --------------------------------------------------------------------- SOSL
def sosl_escape(word: str) -> str:
    """A search word with SOSL's reserved characters backslash-escaped."""
    return "".join("\\" + ch if ch in SOSL_RESERVED else ch for ch in word)


def _search_fields(obj: SObject) -> list[str]:
    return list(
        dict.fromkeys(["Id", obj.title_field, *(f.name for f in obj.fields if f.searchable)])
    )


def _snippet(obj: SObject, raw: dict[str, Any], words: list[str], width: int = 12) -> str:
    """A dozen words around the first searched word found in a searchable field."""
    for fld in obj.fields:
        text = raw.get(fld.name) if fld.searchable and fld.name != obj.title_field else None
        if not isinstance(text, str):
            continue
        tokens = text.split()
        at = next(
            (i for i, t in enumerate(tokens) if any(t.lower().startswith(w) for w in words)), None
        )
        if at is not None:
            start = max(0, at - width // 2)
            return (
                ("…" if start else "")
                + " ".join(tokens[start : start + width])
                + ("…" if start + width < len(tokens) else "")
            )
    return ""


# --------------------------------------------------------------------- answers
def _checked(answer: Any, what: str, **shape: type) -> dict[str, Any]:
    """`answer` if it is a JSON object whose keys have the types in `shape`; else an error."""
    if not isinstance(answer, dict) or not all(
        isinstance(answer.get(key), kind) for key, kind in shape.items()
    ):
        raise CrmTuiError(
            f"Salesforce sent an answer crm-tui cannot read ({what}): expected {', '.join(shape)}"
        )
    return answer


def _error_codes(exc: SalesforceError) -> set[str]:
    content = exc.content if isinstance(exc.content, list) else []
    return {e.get("errorCode", "") for e in content if isinstance(e, dict)}


def _error_text(exc: SalesforceError) -> str:
    content = exc.content
    if isinstance(content, list):
        parts = [
            f"{e.get('errorCode', '?')}: {' '.join(str(e.get('message', '')).split())}"
            for e in content
            if isinstance(e, dict)
        ]
        if parts:
            return "; ".join(parts)
    text = content.decode(errors="replace") if isinstance(content, bytes) else str(content)
    return " ".join(text.split())[:300] or f"HTTP {exc.status}"
