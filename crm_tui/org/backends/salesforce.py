"""The browser backend on a live Salesforce org, through simple-salesforce (read-only).

Objects and fields are the catalogue's, narrowed to what the org's describe reports (an
org without a field simply lacks that column). List views, records and related lists send
the query model's SOQL (`query.to_soql`, also what the local backend runs): keyset pages,
never OFFSET (capped at 2,000 by Salesforce), with lookups named through relationship
fields in the same SELECT. Every value reaches SOQL and SOSL escaped; every failure
becomes a CrmTuiError with no credential in it.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import Any

import requests
from simple_salesforce.api import Salesforce
from simple_salesforce.exceptions import (
    SalesforceError,
    SalesforceExpiredSession,
    SalesforceMalformedRequest,
    SalesforceRefusedRequest,
)
from simple_salesforce.format import format_soql

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import (
    Backend,
    Cursor,
    Field,
    Filter,
    ObjectInfo,
    Operator,
    Page,
    RecordView,
    RelatedList,
    SearchHit,
    Sort,
    object_of,
    record_view,
)
from crm_tui.org.backends.query import (
    CountQuery,
    RecordQuery,
    children_of,
    page_of,
    related_list,
    run_page,
    to_soql,
    with_id_text_names,
)
from crm_tui.org.backends.sf_connection import (
    REDACTED,
    UNTRUSTED_CERTIFICATE,
    SalesforceCredentials,
    connect,
)
from crm_tui.org.reports.definition import ReportDefinition, ReportResult
from crm_tui.org.reports.fetch import FETCH_BOUND, run_fetched
from crm_tui.org.reports.resolve import resolve
from crm_tui.org.reports.soql_aggregate import aggregate_query, run_aggregated
from crm_tui.org.schema.catalogue import OBJECTS, SObject, child_relationships
from crm_tui.org.schema.ids import is_valid_id, to18
from crm_tui.org.soql.executor import QueryResult

CONSOLE_ROWS = 2_000  # a console shows rows to read, not to export
SOSL_RESERVED = set("?&|!{}[]()^~*:\\\"'+-")


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
    supports_soql = True
    supports_search = True
    supports_reports = True
    report_fetch_bound = FETCH_BOUND  # rows a report may fetch to aggregate them itself
    last_report_path = ""  # how the last report ran: "aggregate" (SOQL) or "fetched"

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
                # The lock guards the count and the client's swap on a new login, not the
                # call: a report's names come on another connection while its rows do.
                with self._lock:
                    self.usage.calls += 1
                    client = self._sf
                answer = getattr(client, method)(*args, **kwargs)
                with self._lock:
                    self._note_usage(client)
                return answer
            except requests.exceptions.SSLError:  # a ConnectionError no retry mends
                raise self._error(
                    f"Cannot trust the certificate of {self._sf.sf_instance} ({what}). "
                    + UNTRUSTED_CERTIFICATE
                ) from None
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
            except CrmTuiError:
                raise  # a new login that failed: worded already
            except requests.RequestException as exc:  # redirect loops, broken encodings...
                raise self._error(
                    f"Salesforce at {self._sf.sf_instance} answered in a way crm-tui cannot "
                    f"follow ({what}): {type(exc).__name__}; try again."
                ) from None
            except Exception as exc:  # whatever else the client raises: a message, not a crash
                raise self._error(
                    f"Unexpected error talking to Salesforce ({what}): {type(exc).__name__}"
                ) from None

    def _error(self, message: str) -> CrmTuiError:
        """A CrmTuiError without the configured secrets or the session from the login."""
        message = self._credentials.redact(message)
        if self._sf.session_id:
            message = message.replace(self._sf.session_id, REDACTED)
        return CrmTuiError(message)

    def _note_usage(self, client: Salesforce) -> None:
        usage = getattr(client, "api_usage", {}).get("api-usage")
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
                self._in_org(replace(f, label=org_fields[f.name.lower()].get("label", f.label)))
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

    def _in_org(self, fld: Field) -> Field:
        """A lookup to an object this org lacks keeps its Id but is not followed (SOQL
        could not name its target)."""
        if fld.reference_to and not self._has_object(fld.reference_to):
            return replace(fld, relationship_name=None)
        return fld

    def list_objects(self) -> list[ObjectInfo]:
        return [
            ObjectInfo(o.name, o.label, o.label_plural, self.count(o.name))
            for o in map(self.describe, (o.name for o in OBJECTS if self._has_object(o.name)))
        ]

    # ----------------------------------------------------------------- reports
    def run_report(self, definition: ReportDefinition, today: date | None = None) -> ReportResult:
        """Run a report: one SOQL aggregate query when SOQL can express every grouping
        and summary (`reports.soql_aggregate`); else SOQL filters the rows, which are
        fetched (refused past `report_fetch_bound`, counted by the first page) and
        aggregated here
        (`reports.fetch`). Relative date ranges count from `today`, the definition's
        today, else today in UTC."""
        plan = resolve(
            definition, self.describe, today or definition.today or datetime.now(UTC).date()
        )
        query = aggregate_query(plan)
        result = run_aggregated(query, self._rows, self._names) if query else None
        if result is not None:
            self.last_report_path = "aggregate"
            return result
        self.last_report_path = "fetched"
        return run_fetched(
            plan, self._bounded_rows, self._query_ahead, self._names, self.report_fetch_bound
        )

    def _bounded_rows(
        self, soql: str, bound: int, on_total: Callable[[int], None]
    ) -> tuple[int, list[dict[str, Any]]]:
        """How many records match, and all of them unless more than `bound` do: the first
        page's totalSize says (and `on_total` hears it before the other pages are asked
        for), so no COUNT() call goes first."""
        answer = self._query(soql)
        total = int(answer["totalSize"])
        on_total(total)
        return total, [] if total > bound else self._follow(answer, total)

    def _query_ahead(self, soql: str) -> QueryAhead:
        """`soql` sent now, in a thread on its own connection (see `QueryAhead`)."""
        return QueryAhead(self._query, self._follow, soql)

    def _names(self, object_name: str, ids: set[str]) -> dict[str, str]:
        """Id -> title of records of `object_name` (200 Ids a query)."""
        obj = self.describe(object_name)
        names: dict[str, str] = {}
        chunk = sorted(i for i in ids if is_valid_id(i))
        for start in range(0, len(chunk), 200):
            part = chunk[start : start + 200]
            soql = format_soql(
                f"SELECT Id, {obj.title_field} FROM {obj.name} WHERE Id IN {{}}", part
            )
            for rec in self._rows(soql, len(part)):
                if rec.get(obj.title_field) is not None:
                    names[str(rec["Id"])] = str(rec[obj.title_field])
        return names

    # ----------------------------------------------------------------- list views
    def _count(self, obj: SObject, filters: tuple[Filter, ...]) -> int:
        total: int = self._query(to_soql(CountQuery(obj.name, filters), obj))["totalSize"]
        return total

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
        return run_page(query, obj, lambda soql: self._rows(soql, limit + 1))

    # ----------------------------------------------------------------- records
    def _object_for(self, record_id: str) -> SObject:
        obj = self.object_for_id(record_id)
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
        return obj

    def get_record(self, record_id: str) -> RecordView:
        record_id = record_id.strip()
        obj = self._object_for(record_id)
        record_id = to18(record_id)
        page = self.page(obj.name, [Filter("Id", Operator.EQ, record_id)], Sort("Id"), limit=1)
        if not page.records:
            raise CrmTuiError(f"No {obj.label} with Id {record_id} in this org")
        return record_view(obj, page.records[0], page.names)

    def related(self, record_id: str, preview_rows: int = 5) -> list[RelatedList]:
        """Every preview in one query, as child sub-queries; then one COUNT() per list."""
        parent = self._object_for(record_id)
        record_id = to18(record_id)
        rels = [
            r
            for r in child_relationships(parent.name)
            if self._has_object(r.child) and self.describe(r.child).has_field(r.field)
        ]
        if not rels:
            return []
        queries = [children_of(rel, record_id, preview_rows) for rel in rels]
        subqueries = [
            f"({to_soql(preview, self.describe(rel.child), source=rel.name)})"
            for rel, (preview, _) in zip(rels, queries, strict=True)
        ]
        soql = format_soql(
            f"SELECT Id, {', '.join(subqueries)} FROM {parent.name} WHERE Id = {{}}", record_id
        )
        rows = self._query(soql)["records"]
        if not rows:
            raise CrmTuiError(f"No {parent.label} with Id {record_id} in this org")
        lists = []
        for rel, (preview, count) in zip(rels, queries, strict=True):
            child = self.describe(rel.child)
            nested = rows[0].get(rel.name) or {"records": []}  # null when there are none
            page = page_of(preview, child, _checked(nested, rel.name, records=list)["records"])
            page = with_id_text_names(page, child, lambda soql: self._rows(soql, 200))
            total = self._query(to_soql(count, child))["totalSize"]
            lists.append(related_list(rel, child, record_id, total, page))
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


# --------------------------------------------------------------------- SOSL
class QueryAhead:
    """A query sent now, in a thread on a connection of its own from the session's pool
    (Salesforce answers a session's calls concurrently): its first page comes while the
    caller makes other calls. Its further pages are asked for only after `follow()`
    (`records()` follows too); after `drop()` never, so a query asked for in case it
    is wanted costs one call when it is not."""

    def __init__(
        self,
        first_page: Callable[[str], dict[str, Any]],
        rest: Callable[[dict[str, Any], int], list[dict[str, Any]]],
        soql: str,
    ):
        self._decided = threading.Event()
        self._wanted = False
        self._done: dict[str, Any] = {}

        def fetch() -> None:
            try:
                answer = first_page(soql)
                self._decided.wait()
                if self._wanted:
                    self._done["records"] = rest(answer, int(answer["totalSize"]))
            except BaseException as exc:  # handed to the reader, in its thread
                self._done["error"] = exc

        self._thread = threading.Thread(target=fetch, name="query-ahead", daemon=True)
        self._thread.start()

    def follow(self) -> None:
        if not self._decided.is_set():
            self._wanted = True
            self._decided.set()

    def drop(self) -> None:
        self._decided.set()

    def records(self) -> list[dict[str, Any]]:
        """All its records (waiting for them), or what the fetch raised; none if dropped."""
        self.follow()
        self._thread.join()
        if "error" in self._done:
            raise self._done["error"]
        records: list[dict[str, Any]] = self._done.get("records", [])
        return records


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
    content: list[object] = exc.content if isinstance(exc.content, list) else []
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
