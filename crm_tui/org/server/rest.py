"""A loopback Salesforce REST server over a local org, for the unmodified simple-salesforce.

Built on the stdlib `http.server.ThreadingHTTPServer`: the surface is a dozen read-only
routes around the SOQL engine, so a framework would add a dependency and no behaviour.
`SalesforceApi` holds the routing and answers (no sockets), `OrgServer` serves it.

Read path: SOAP and OAuth password login, query / queryAll with query locators
(batch size from `Sforce-Query-Options: batchSize=N`), search, parameterizedSearch,
global and per-object describe, record by Id, limits. Writes get a Salesforce error.
"""

from __future__ import annotations

import io
import json
import os
import re
import secrets
import socket
import ssl
import sys
import threading
import time
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from html import escape, unescape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self, TypeVar
from urllib.parse import parse_qs, urlsplit

from crm_tui.org.bulk_gc import collection_paused
from crm_tui.org.schema.catalogue import get_object, has_object
from crm_tui.org.schema.ids import is_valid_id, make_id, to18
from crm_tui.org.server.query_pool import (
    ANSWER_BYTES,
    PAGE_BYTES,
    Ask,
    Bounds,
    Pages,
    QueryPool,
    answer_of,
    cut_pages,
    runs_here,
    search_answer,
    within_budget,
)
from crm_tui.org.soql import SalesforceError, execute_soql, execute_sosl, store_today
from crm_tui.org.soql.describe import describe_global, describe_object, describe_summary
from crm_tui.org.soql.executor import execute_soql_json
from crm_tui.org.store.orgstore import OrgError, OrgStore

DEFAULT_BATCH = 2000
MIN_BATCH, MAX_BATCH = 200, 2000
KEPT_LOCATORS = 200  # open query cursors kept; the oldest are forgotten first
LOCATOR_BYTES = 64 << 20  # their records' JSON, all together; the oldest go first past it
LOCATOR_SECONDS = 15 * 60.0  # a cursor unread this long is forgotten (Salesforce: 15 min)
QUERY_SECONDS = 30.0  # a query's time budget in SQLite; past it, QUERY_TIMEOUT
IDLE_READERS = 8  # read-only connections kept open between queries
MAX_QUERIES = 16  # queries at once, each on a read-only connection; more wait their turn
QUERY_WAIT_SECONDS = 5.0  # a query waits this long for a turn, then REQUEST_LIMIT_EXCEEDED
MAX_LOGIN_BODY = 16 << 10  # bytes; a login is a few hundred (a long password: a few more)
MAX_CONNECTIONS = 100  # client connections served at once, a thread each; past it, a 503
DEFAULT_USERNAME = "admin@crm-tui.local"
ORG_ID = "00DLc0000000001"
USER_ID = make_id("005", 0, instance="Lc")[:15]

_T = TypeVar("_T")
_DATA = re.compile(r"^/services/data/v(?P<version>\d+\.\d)(?P<rest>/.*)?$")
_LOCATOR = re.compile(r"^(?P<locator>[A-Za-z0-9]+)-(?P<offset>\d+)$")
# The org's own record, outside the catalogue: clients read its Id to identify the org.
_ORGANIZATION = re.compile(r"\s*SELECT\s+Id\s+FROM\s+Organization(\s+LIMIT\s+1)?\s*", re.IGNORECASE)


@dataclass
class Response:
    status: int
    body: Any  # JSON-able, or bytes with `content_type`
    content_type: str = "application/json;charset=UTF-8"
    headers: dict[str, str] = field(default_factory=dict)

    def payload(self) -> bytes:
        if isinstance(self.body, bytes):
            return self.body
        return json.dumps(self.body).encode()


def _error(status: int, code: str, message: str) -> Response:
    return Response(status, [{"message": message, "errorCode": code}])


NOT_FOUND = ("NOT_FOUND", "The requested resource does not exist")


@dataclass
class _Cursor:
    # The records as JSON arrays of `batch` records each: a fraction of the memory of
    # dicts, and a page is served as it is kept.
    pages: list[bytes]
    starts: list[int]  # the first record of each page
    count: int  # records in all
    batch: int
    resource: str
    size: int  # bytes of JSON
    used: float  # time.monotonic() of the last read


class SalesforceApi:
    """Answers Salesforce REST requests from one org; thread-safe."""

    def __init__(
        self,
        store: OrgStore,
        session_id: str | None = None,
        today: date | None = None,
        username: str = DEFAULT_USERNAME,
        password: str | None = None,
        security_token: str = "",
        query_seconds: float = QUERY_SECONDS,
        locator_bytes: int = LOCATOR_BYTES,
        locator_seconds: float = LOCATOR_SECONDS,
        max_queries: int = MAX_QUERIES,
        query_wait_seconds: float = QUERY_WAIT_SECONDS,
        query_workers: int = 0,
        page_bytes: int = PAGE_BYTES,
        answer_bytes: int = ANSWER_BYTES,
    ):
        self.store = store
        # A response carries at most a page's bytes (a page of wide records holds fewer
        # than the batch asked), and an answer past `answer_bytes` is refused: neither
        # a slow reader's connection nor a kept cursor holds an answer of any size.
        self.bounds = Bounds(page_bytes, answer_bytes)
        self.session_id = session_id or secrets.token_urlsafe(24)
        # Only these get the session id: Salesforce's password login sends the password
        # and the security token as one string.
        self.username = username
        self.password = password or secrets.token_urlsafe(18)
        self.security_token = security_token
        self.today = today or store_today(store)
        # Queries run concurrently, each on a read-only connection of its own (kept for
        # the next one), under a time budget; `lock` guards only the pool and the cursors.
        self.query_seconds = query_seconds
        self.locator_bytes, self.locator_seconds = locator_bytes, locator_seconds
        # At most `max_queries` run (and so as many read-only connections are open) at
        # once: a flood of queries waits for a turn, then gets a 503, and never opens a
        # connection or a thread's worth of SQLite memory per request.
        self.max_queries, self.query_wait_seconds = max_queries, query_wait_seconds
        self.query_turns = threading.BoundedSemaphore(max_queries)
        # Queries that return many records run in `query_workers` processes (0: here), so
        # their JSON shaping never holds this process's GIL (see `query_pool`).
        self.pool = QueryPool(store.path, query_workers) if query_workers else None
        self.lock = threading.Lock()
        self.readers: list[OrgStore] = []
        self.cursors: OrderedDict[str, _Cursor] = OrderedDict()
        self.cursor_count = 0
        self.locator_bytes_kept = 0

    def close(self) -> None:
        """Close the pooled read-only connections and the query workers (the caller
        closes `store`)."""
        with self.lock:
            readers, self.readers = self.readers, []
        for reader in readers:
            reader.close()
        if self.pool is not None:
            self.pool.close()

    def run(self, work: Callable[[OrgStore], _T]) -> _T:
        """`work` on a read-only connection of its own, within the time budget, once one
        of the `max_queries` turns is free (REQUEST_LIMIT_EXCEEDED if none frees in time)."""
        return self.in_turn(lambda: self._run(work))

    def in_turn(self, work: Callable[[], _T]) -> _T:
        """`work` once one of the `max_queries` turns is free."""
        if not self.query_turns.acquire(timeout=self.query_wait_seconds):
            raise SalesforceError(
                "REQUEST_LIMIT_EXCEEDED",
                f"ConcurrentRequests limit exceeded: {self.max_queries} queries already "
                f"running for over {self.query_wait_seconds:g} s; try again shortly.",
                status=503,
            )
        try:
            return work()
        finally:
            self.query_turns.release()

    def _run(self, work: Callable[[OrgStore], _T]) -> _T:
        with self.lock:
            reader = self.readers.pop() if self.readers else None
        if reader is None:
            reader = OrgStore.open(self.store.path, readonly=True)
        try:
            return within_budget(reader, self.query_seconds, work)
        finally:
            with self.lock:
                if len(self.readers) < IDLE_READERS:
                    self.readers.append(reader)
                    reader = None
            if reader is not None:
                reader.close()

    # ----------------------------------------------------------------- dispatch
    def handle(
        self, method: str, url: str, headers: dict[str, str], body: bytes, host: str
    ) -> Response:
        with self.store.schema():  # the served org's, whatever else this process opened
            return self._handle(method, url, headers, body, host)

    def _handle(
        self, method: str, url: str, headers: dict[str, str], body: bytes, host: str
    ) -> Response:
        parts = urlsplit(url)
        path = parts.path.rstrip("/") or "/"
        params = parse_qs(parts.query)
        if method == "POST" and re.fullmatch(r"/services/Soap/u/\d+\.\d(/.*)?", path):
            return self.soap_login(body, host, path)
        if method == "POST" and path == "/services/oauth2/token":
            return self.oauth_login(host, body)
        if path == "/services/data":
            return Response(
                200, [{"label": "Local org", "url": "/services/data/v59.0", "version": "59.0"}]
            )
        match = _DATA.match(path)
        if not match:
            return _error(404, *NOT_FOUND)
        if not self.holds_session(headers.get("authorization", "")):
            return _error(401, "INVALID_SESSION_ID", "Session expired or invalid")
        if method != "GET":
            return _error(
                403,
                "INSUFFICIENT_ACCESS_OR_READONLY",
                "This local org is read-only: only GET requests are answered.",
            )
        version, rest = match["version"], (match["rest"] or "/").strip("/").split("/")
        return self.route(version, rest, params, headers)

    def route(
        self, version: str, rest: list[str], params: dict[str, list[str]], headers: dict[str, str]
    ) -> Response:
        resource = rest[0]
        try:
            if resource in ("query", "queryAll"):
                if len(rest) == 2:
                    return self.next_page(version, resource, rest[1])
                return self.query(version, resource, params, headers)
            if resource == "search" and len(rest) == 1:
                return self.search(version, _param(params, "q"))
            if resource == "parameterizedSearch" and len(rest) == 1:
                return self.search(version, _sosl_from_params(params))
            if resource == "sobjects":
                return self.sobjects(version, rest[1:], params)
            if resource == "limits" and len(rest) == 1:
                return Response(200, {"DailyApiRequests": {"Max": 15000, "Remaining": 15000}})
        except SalesforceError as error:
            return Response(error.status, error.to_json())
        return _error(404, *NOT_FOUND)

    def holds_session(self, authorization: str) -> bool:
        """Whether an Authorization header is `Bearer <session id>` (or Salesforce's older
        `OAuth <session id>`); compared as bytes, whatever the client sent."""
        scheme, _, token = authorization.strip().partition(" ")
        if scheme.lower() not in ("bearer", "oauth"):
            return False
        sent = token.strip().encode("utf-8", "surrogateescape")
        return secrets.compare_digest(sent, self.session_id.encode())

    # ----------------------------------------------------------------- login
    def accepts(self, username: str | None, password: str | None) -> bool:
        """Whether a login names this server's user with its password (+ security token)."""
        if username is None or password is None:
            return False
        expected = (self.password + self.security_token).encode()
        same_user = secrets.compare_digest(username.encode(), self.username.encode())
        return secrets.compare_digest(password.encode(), expected) and same_user

    def soap_login(self, body: bytes, host: str, path: str) -> Response:
        if len(body) > MAX_LOGIN_BODY:
            return _error(413, "REQUEST_ENTITY_TOO_LARGE", f"Logins over {MAX_LOGIN_BODY} bytes")
        text = body.decode("utf-8", "replace")
        if not self.accepts(_xml_element(text, "username"), _xml_element(text, "password")):
            xml = (
                '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv='
                '"http://schemas.xmlsoap.org/soap/envelope/" xmlns:sf='
                '"urn:fault.partner.soap.sforce.com"><soapenv:Body><soapenv:Fault>'
                "<faultcode>INVALID_LOGIN</faultcode><detail><sf:LoginFault>"
                "<sf:exceptionCode>INVALID_LOGIN</sf:exceptionCode><sf:exceptionMessage>"
                "Invalid username, password, security token; or user locked out."
                "</sf:exceptionMessage></sf:LoginFault></detail></soapenv:Fault>"
                "</soapenv:Body></soapenv:Envelope>"
            )
            return Response(500, xml.encode(), "text/xml;charset=UTF-8")
        version = path.split("/")[4]
        server_url = f"https://{host}/services/Soap/u/{version}/{ORG_ID}"
        xml = (
            '<?xml version="1.0" encoding="UTF-8"?><soapenv:Envelope xmlns:soapenv='
            '"http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Body>'
            '<loginResponse xmlns="urn:partner.soap.sforce.com"><result>'
            f"<metadataServerUrl>https://{escape(host)}/services/Soap/m/{version}/{ORG_ID}"
            "</metadataServerUrl><passwordExpired>false</passwordExpired>"
            f"<sandbox>true</sandbox><serverUrl>{escape(server_url)}</serverUrl>"
            f"<sessionId>{escape(self.session_id)}</sessionId><userId>{USER_ID}</userId>"
            "</result></loginResponse></soapenv:Body></soapenv:Envelope>"
        )
        return Response(200, xml.encode(), "text/xml;charset=UTF-8")

    def oauth_login(self, host: str, body: bytes) -> Response:
        if len(body) > MAX_LOGIN_BODY:
            return _error(413, "REQUEST_ENTITY_TOO_LARGE", f"Logins over {MAX_LOGIN_BODY} bytes")
        form = parse_qs(body.decode("utf-8", "replace"))
        username, password = form.get("username", [None])[0], form.get("password", [None])[0]
        if form.get("grant_type", [""])[0] != "password" or not self.accepts(username, password):
            return Response(
                400, {"error": "invalid_grant", "error_description": "authentication failure"}
            )
        return Response(
            200,
            {
                "access_token": self.session_id,
                "instance_url": f"https://{host}",
                "token_type": "Bearer",
                "id": f"https://{host}/id/{ORG_ID}/{USER_ID}",
                "issued_at": "0",
                "signature": "",
            },
        )

    # ----------------------------------------------------------------- queries
    def query(
        self, version: str, resource: str, params: dict[str, list[str]], headers: dict[str, str]
    ) -> Response:
        with collection_paused():  # thousands of records, no cycles: see `org.bulk_gc`
            return self._query(version, resource, params, headers)

    def _query(
        self, version: str, resource: str, params: dict[str, list[str]], headers: dict[str, str]
    ) -> Response:
        text = _param(params, "q")
        if _ORGANIZATION.fullmatch(text):
            org_id = to18(ORG_ID)
            url = f"/services/data/v{version}/sobjects/Organization/{org_id}"
            return Response(
                200,
                {
                    "totalSize": 1,
                    "done": True,
                    "records": [{"attributes": {"type": "Organization", "url": url}, "Id": org_id}],
                },
            )
        batch = _batch_size(headers.get("sforce-query-options", ""))
        pool = self.pool
        if pool is not None and not runs_here(text):
            answer = self.in_turn(
                lambda: pool.run(
                    Ask("query", text, self.today, version, batch, self.query_seconds, self.bounds)
                )
            )
        else:
            result = self.run(
                lambda reader: execute_soql_json(
                    reader, text, today=self.today, api_version=version
                )
            )
            answer = answer_of(result, batch, self.bounds)
        if not isinstance(answer, Pages):
            return Response(200, answer)
        pages = answer.pages
        cursor = _Cursor(
            pages,
            answer.starts,
            answer.count,
            batch,
            resource,
            sum(map(len, pages)),
            time.monotonic(),
        )
        with self.lock:
            self.cursor_count += 1
            locator = make_id("01g", self.cursor_count)
            self._forget(room_for=cursor.size)
            self.cursors[locator] = cursor
            self.locator_bytes_kept += cursor.size
        return self.page(version, locator, cursor, 0)

    def _forget(self, room_for: int = 0) -> None:
        """Drop cursors unread for too long, then the oldest while the kept ones and one
        of `room_for` bytes would pass the count or byte bound. Under `lock`."""
        now = time.monotonic()
        while self.cursors:
            oldest = next(iter(self.cursors.values()))
            stale = now - oldest.used > self.locator_seconds
            full = len(self.cursors) >= KEPT_LOCATORS
            if not (stale or full or self.locator_bytes_kept + room_for > self.locator_bytes):
                break
            self.locator_bytes_kept -= self.cursors.popitem(last=False)[1].size
        for locator in [k for k, c in self.cursors.items() if now - c.used > self.locator_seconds]:
            self.locator_bytes_kept -= self.cursors.pop(locator).size

    def next_page(self, version: str, resource: str, locator_text: str) -> Response:
        match = _LOCATOR.match(locator_text)
        with self.lock:
            self._forget()
            if not match or match["locator"] not in self.cursors:
                return _error(400, "INVALID_QUERY_LOCATOR", "invalid query locator")
            cursor = self._touch(match["locator"])
        return self.page(version, match["locator"], cursor, int(match["offset"]))

    def _touch(self, locator: str) -> _Cursor:
        """The kept cursor, marked read now: the last to be forgotten. Under `lock`."""
        cursor = self.cursors[locator]
        cursor.used = time.monotonic()
        self.cursors.move_to_end(locator)
        return cursor

    def page(self, version: str, locator: str, cursor: _Cursor, offset: int) -> Response:
        """One page of a cursor, its JSON joined from the records' JSON. Outside `lock`:
        a cursor's pages never change, and a page re-cut at an offset between pages
        (parsing two pages' JSON) would otherwise stall every other query."""
        records, end = _page_records(cursor, offset, self.bounds.page_bytes)
        done = end >= cursor.count
        head: dict[str, Any] = {"totalSize": cursor.count, "done": done}
        if not done:
            head["nextRecordsUrl"] = f"/services/data/v{version}/{cursor.resource}/{locator}-{end}"
        body = json.dumps(head).encode()[:-1] + b', "records": '
        return Response(200, body + records + b"}")

    def search(self, version: str, text: str) -> Response:
        pool = self.pool
        if pool is not None:
            return Response(
                200,
                self.in_turn(
                    lambda: pool.run(
                        Ask("search", text, self.today, version, 0, self.query_seconds, self.bounds)
                    )
                ),
            )
        found = self.run(
            lambda reader: execute_sosl(reader, text, today=self.today, api_version=version)
        )
        return Response(200, search_answer(found, self.bounds))

    # ----------------------------------------------------------------- sobjects
    def sobjects(self, version: str, rest: list[str], params: dict[str, list[str]]) -> Response:
        if not rest or rest == [""]:
            return Response(200, describe_global(version))
        if not has_object(rest[0]) or len(rest) > 2:
            return _error(404, *NOT_FOUND)
        obj = get_object(rest[0])
        if len(rest) == 1:
            return Response(
                200, {"objectDescribe": describe_summary(obj, version), "recentItems": []}
            )
        if rest[1] == "describe":
            return Response(200, describe_object(obj, version))
        if not is_valid_id(rest[1]):
            return _error(404, *NOT_FOUND)
        fields = params.get("fields", [", ".join(obj.field_names)])[0]
        soql = f"SELECT {fields} FROM {obj.name} WHERE Id = '{to18(rest[1])}'"
        result = self.run(
            lambda reader: execute_soql(reader, soql, today=self.today, api_version=version)
        )
        if not result.records:
            return _error(404, *NOT_FOUND)
        return Response(200, result.records[0])


def _page_records(cursor: _Cursor, offset: int, page_bytes: int) -> tuple[bytes, int]:
    """The JSON array of the page from `offset`, and the offset after it: a kept page as
    it is, or (an offset between pages, written by hand) re-cut from the pages it spans,
    within the batch and the page's bytes."""
    at = bisect_right(cursor.starts, offset) - 1
    following = cursor.starts[at + 1] if at + 1 < len(cursor.starts) else cursor.count
    if at < 0 or offset >= cursor.count:
        return b"[]", cursor.count
    if cursor.starts[at] == offset:
        return cursor.pages[at], following
    spanned = [r for page in cursor.pages[at : at + 2] for r in json.loads(page)]
    within = offset - cursor.starts[at]
    texts = [json.dumps(r) for r in spanned[within : within + cursor.batch]]
    pages, _ = cut_pages(texts, cursor.batch, page_bytes)
    taken = len(json.loads(pages[0]))
    return pages[0], offset + taken


def _param(params: dict[str, list[str]], name: str) -> str:
    values = params.get(name)
    if not values:
        raise SalesforceError("MALFORMED_QUERY", f"Missing the '{name}' parameter")
    return values[0]


def _xml_element(text: str, name: str) -> str | None:
    """The text of the first `<prefix:name>` element, unescaped (simple-salesforce escapes).

    In two linear searches: the first opening tag, then the first closing tag after it.
    One pattern for both ends (`<name>(.*?)</name>`) would try every opening tag in turn
    and scan to the end from each, a time quadratic in a body of opening tags."""
    opening = re.search(rf"<(?:[\w.-]+:)?{name}>", text)
    if opening is None:
        return None
    closing = re.compile(rf"</(?:[\w.-]+:)?{name}>").search(text, opening.end())
    return unescape(text[opening.end() : closing.start()]) if closing else None


def _batch_size(options: str) -> int:
    match = re.search(r"batchSize\s*=\s*(\d+)", options)
    if not match:
        return DEFAULT_BATCH
    return max(MIN_BATCH, min(MAX_BATCH, int(match[1])))


def _sosl_from_params(params: dict[str, list[str]]) -> str:
    """parameterizedSearch's GET parameters as the equivalent SOSL statement."""
    term = _param(params, "q").replace("\\", "\\\\").replace("}", "\\}")
    scope = params.get("in", ["ALL"])[0].upper()
    sosl = f"FIND {{{term}}} IN {scope} FIELDS"
    specs = []
    for name in params.get("sobject", []):
        fields = params.get(f"{name}.fields", ["Id"])[0]
        limit = params.get(f"{name}.limit")
        specs.append(f"{name}({fields}{f' LIMIT {int(limit[0])}' if limit else ''})")
    if specs:
        sosl += " RETURNING " + ", ".join(specs)
    if "overallLimit" in params:
        sosl += f" LIMIT {int(params['overallLimit'][0])}"
    return sosl


# What http.server's own refusals (HTML by default) are called in Salesforce's JSON shape.
_HTTP_ERROR_CODES = {
    400: "BAD_REQUEST",
    408: "REQUEST_TIMEOUT",
    413: "REQUEST_ENTITY_TOO_LARGE",
    414: "URI_TOO_LONG",
    431: "REQUEST_HEADER_FIELDS_TOO_LARGE",
    501: "METHOD_NOT_ALLOWED",
    505: "HTTP_VERSION_NOT_SUPPORTED",
}
MAX_BODY = 1 << 20  # bytes; logins and searches are a few hundred
SOCKET_TIMEOUT = 30.0  # seconds a client may stay silent mid-request before it is dropped
# Seconds from waiting for a request to having all of it (line, headers, body): a client
# that sends its headers a line at a time cannot hold a connection longer.
REQUEST_SECONDS = 10.0
# With every connection taken, a new client ends the connection that has waited longest
# on an unfinished request, if it has waited this long (idle or dripping headers).
EVICT_AFTER = 0.5


class _DeadlineIO(socket.SocketIO):
    """A socket's reads, each given only the time left until its handler's deadline: a
    request read in many small pieces cannot outlast it (a plain timeout restarts at
    every byte)."""

    def __init__(self, sock: socket.socket, handler: _Handler):
        super().__init__(sock, "rb")
        self.handler = handler

    def readinto(self, b: Any) -> int | None:
        left = self.handler.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request was not complete in time")
        self.handler.connection.settimeout(min(left, SOCKET_TIMEOUT))
        return super().readinto(b)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: one TLS handshake per client
    disable_nagle_algorithm = True  # headers and body are separate writes
    timeout = SOCKET_TIMEOUT  # a body shorter than its Content-Length cannot hold a thread
    server: _HttpServer
    deadline = 0.0  # time.monotonic() by which the request being read must be complete

    def setup(self) -> None:
        super().setup()
        self.rfile.close()  # the plain reader (it holds a reference on the socket)
        self.rfile = io.BufferedReader(_DeadlineIO(self.connection, self))

    def handle_one_request(self) -> None:
        self.deadline = time.monotonic() + self.server.request_seconds
        self.server.reading(self.connection)
        super().handle_one_request()

    def _body(self) -> bytes | Response:
        """The request body, or the refusal of a Content-Length that is not a sane size."""
        text = (self.headers.get("Content-Length") or "0").strip()
        if not text.isdigit() or len(text) > 12:  # "abc", "-1", "1e3", 10^12 and more
            if text.isdigit():
                return _error(413, "REQUEST_ENTITY_TOO_LARGE", f"Bodies over {MAX_BODY} bytes")
            return _error(400, "BAD_REQUEST", f"Content-Length {text[:40]!r} is not a size")
        length = int(text)
        if length > MAX_BODY:
            return _error(413, "REQUEST_ENTITY_TOO_LARGE", f"Bodies over {MAX_BODY} bytes")
        return self.rfile.read(length) if length else b""

    def _answer(self) -> None:
        body = self._body()
        self.server.read(self.connection)  # the request is whole: no longer evictable
        self.deadline = float("inf")
        if isinstance(body, Response):
            self.close_connection = True  # the rest of the stream cannot be framed
            self._send(body)
            return
        headers = {k.lower(): v for k, v in self.headers.items()}
        host = self.headers.get("Host") or self.server.host
        try:
            response = self.server.api.handle(self.command, self.path, headers, body, host)
        except SalesforceError as error:
            response = Response(error.status, error.to_json())
        except ValueError as error:  # e.g. a non-numeric limit in parameterizedSearch
            response = _error(400, "MALFORMED_QUERY", str(error))
        except RecursionError:  # a query nested or chained past what can be read
            response = _error(
                400, "MALFORMED_QUERY", "The query nests or chains too many conditions."
            )
        except Exception:  # a bug: answered the Salesforce way, never a dropped connection
            self.log_error("unexpected error answering %r", self.requestline[:200])
            response = _error(
                500, "UNKNOWN_EXCEPTION", "An unexpected error occurred in the local org server."
            )
        self._send(response)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's refusals (bad request line, 414, 431, 501, 505), in JSON."""
        if self.request_version == "HTTP/0.9":  # not a request line at all: answer in 1.1
            self.request_version = "HTTP/1.1"
        self.close_connection = True
        text = message or self.responses.get(code, ("Error",))[0]
        self._send(_error(code, _HTTP_ERROR_CODES.get(code, "UNKNOWN_EXCEPTION"), text))

    def _send(self, response: Response) -> None:
        payload = response.payload()
        self.send_response(response.status)
        self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Sforce-Limit-Info", "api-usage=0/15000")
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":  # HEAD: the headers of the answer, without its body
            self.wfile.write(payload)

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = do_HEAD = _answer

    def log_message(self, format: str, *args: Any) -> None:
        if self.server.verbose:
            super().log_message(format, *(_redacted(str(a)) for a in args))


# Query-string values a log must not show: a password or a session sent in the URL.
_SECRET_PARAMS = re.compile(
    r"((?:password|client_secret|sessionid|session_id|access_token|token|sid)=)[^&\s\"]*",
    re.IGNORECASE,
)


def _redacted(text: str) -> str:
    return _SECRET_PARAMS.sub(r"\1***", text)


REFUSAL_SECONDS = 0.5  # the accept loop waits at most this on a refused TLS handshake


def _refusal(max_connections: int) -> bytes:
    """The whole HTTP answer to a connection past the cap: Salesforce's JSON error shape."""
    body = _error(
        503,
        "REQUEST_LIMIT_EXCEEDED",
        f"ConcurrentRequests limit exceeded: {max_connections} connections are open; "
        "close idle ones or try again shortly.",
    ).payload()
    head = (
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json;charset=UTF-8\r\n"
        f"Content-Length: {len(body)}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


class _HttpServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # listen backlog: clients opening a connection per request

    def __init__(
        self,
        address: tuple[str, int],
        api: SalesforceApi,
        verbose: bool,
        max_connections: int = MAX_CONNECTIONS,
        request_seconds: float = REQUEST_SECONDS,
        evict_after: float = EVICT_AFTER,
    ):
        super().__init__(address, _Handler)
        self.api = api
        self.verbose = verbose
        self.request_seconds, self.evict_after = request_seconds, evict_after
        # Connections waiting on a request not yet whole, and since when.
        self.unfinished: dict[socket.socket, float] = {}
        self.unfinished_lock = threading.Lock()
        # One thread per open connection (keep-alive ones idle up to SOCKET_TIMEOUT), so
        # the connections bound the threads: past `max_connections`, a 503 and a close.
        self.max_connections = max_connections
        self.connection_slots = threading.BoundedSemaphore(max_connections)
        # Connections holding a slot: whoever ends one first (its thread, or the loop when
        # handing it over failed) frees the slot, and only once.
        self.slot_holders: set[socket.socket] = set()

    def reading(self, connection: socket.socket) -> None:
        with self.unfinished_lock:
            self.unfinished[connection] = time.monotonic()

    def read(self, connection: socket.socket) -> None:
        with self.unfinished_lock:
            self.unfinished.pop(connection, None)

    def _evict_one(self) -> bool:
        """End the connection that has waited longest on an unfinished request, if it has
        waited `evict_after`: its handler sees the end and frees its slot."""
        with self.unfinished_lock:
            if not self.unfinished:
                return False
            oldest, since = min(self.unfinished.items(), key=lambda item: item[1])
            if time.monotonic() - since < self.evict_after:
                return False
            del self.unfinished[oldest]
        try:
            # The plain socket's shutdown, also under TLS: the handler's read returns.
            socket.socket.shutdown(oldest, socket.SHUT_RDWR)
        except OSError:
            pass
        return True

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self.connection_slots.acquire(blocking=False) and not (
            self._evict_one() and self.connection_slots.acquire(timeout=REFUSAL_SECONDS)
        ):
            self._refuse(request)
            return
        with self.unfinished_lock:
            self.slot_holders.add(request)
        try:
            super().process_request(request, client_address)  # its thread frees the slot
        except BaseException:
            self._free_slot(request)
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.read(request)
            self._free_slot(request)

    def _free_slot(self, connection: socket.socket) -> None:
        with self.unfinished_lock:
            if connection not in self.slot_holders:
                return
            self.slot_holders.discard(connection)
        self.connection_slots.release()

    def _refuse(self, request: socket.socket) -> None:
        """Answer 503 in the accept loop without waiting on the client: the answer, then
        what the client already sent read and dropped (closing on unread bytes would reset
        the connection before it reads the answer). Only a TLS handshake takes round trips:
        a client that stalls in it costs the loop REFUSAL_SECONDS at most."""
        try:
            request.settimeout(REFUSAL_SECONDS)
            request.sendall(_refusal(self.max_connections))
            request.shutdown(socket.SHUT_WR)
            request.setblocking(False)
            while request.recv(65536):
                pass
        except (OSError, ValueError):  # nothing more to read, gone, a failed handshake
            pass
        finally:
            self.shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client gone mid-answer (a broken pipe, a reset, a failed TLS handshake, a
        request not whole in time) is the client's doing: a line with --verbose, never a
        traceback. Anything else is a bug: the traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, (ConnectionError, ssl.SSLError, TimeoutError)):
            if self.verbose:
                sys.stderr.write(f"{client_address[0]}: connection ended ({error})\n")
            return
        super().handle_error(request, client_address)

    @property
    def host(self) -> str:
        """The address bound (an IP address, so text; the stubs allow bytes too)."""
        host = self.server_address[0]
        return host if isinstance(host, str) else host.decode()


def default_query_workers() -> int:
    """Query worker processes `crm-tui org serve` starts: one per CPU, at most 4."""
    return min(os.cpu_count() or 1, 4)


class OrgServer:
    """Serve an org on host:port (port 0 = any free port), in a background thread."""

    def __init__(
        self,
        org_path: str | Path,
        host: str = "127.0.0.1",
        port: int = 0,
        tls: ssl.SSLContext | None = None,
        session_id: str | None = None,
        today: date | None = None,
        verbose: bool = False,
        username: str = DEFAULT_USERNAME,
        password: str | None = None,
        security_token: str = "",
        max_connections: int = MAX_CONNECTIONS,
        request_seconds: float = REQUEST_SECONDS,
        **limits: Any,  # query_seconds, max_queries...: see SalesforceApi
    ):
        self.store = OrgStore.open(org_path)
        self.api = SalesforceApi(
            self.store, session_id, today, username, password, security_token, **limits
        )
        try:
            self.httpd = _HttpServer(
                (host, port), self.api, verbose, max_connections, request_seconds
            )
        except OSError as exc:  # busy port, unknown host: name the address, not just errno
            self.api.close()
            self.store.close()
            raise OrgError(
                f"Cannot listen on {host}:{port}: {exc.strerror or exc} (another server on "
                "that port? pick another with --port, or --port 0 for any free one)"
            ) from None
        if tls is not None:
            # The handshake then runs in the request's thread, not the accept loop.
            self.httpd.socket = tls.wrap_socket(
                self.httpd.socket, server_side=True, do_handshake_on_connect=False
            )
        self.scheme = "https" if tls else "http"
        self.thread: threading.Thread | None = None

    @property
    def host(self) -> str:
        return self.httpd.host

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def url(self) -> str:
        return f"{self.scheme}://{self.host}:{self.port}"

    @property
    def session_id(self) -> str:
        return self.api.session_id

    @property
    def username(self) -> str:
        return self.api.username

    @property
    def password(self) -> str:
        return self.api.password

    def start(self) -> Self:
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        return self

    def serve_forever(self) -> None:
        self.httpd.serve_forever()

    def stop(self) -> None:
        # Only a loop running in `self.thread` needs ending: `shutdown()` waits for a loop
        # to finish, so with none running (a SIGTERM before `serve_forever` began, or
        # the loop already left by Ctrl-C in this thread) it would wait for ever.
        if self.thread is not None:
            self.httpd.shutdown()
            self.thread = None
        self.httpd.server_close()
        self.api.close()
        self.store.close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
