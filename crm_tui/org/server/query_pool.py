"""Queries that return records, run in worker processes: their Python work never holds
the server's GIL.

A query that returns thousands of records spends most of its time shaping them as JSON in
Python. In the server's own process that holds the GIL, and every other client (a
`COUNT()`, a login) waits for it in 5 ms turns: behind the worst queries, a COUNT took
236 ms at the 99th percentile. `QueryPool` runs such queries in worker processes, each
with a read-only connection of its own and the same time budget, and gets back the
answer's JSON as bytes (cheap to pass between processes), cut into pages when a query
locator will keep it. Counts, aggregates and short LIMITs stay in the server's process
(`runs_here`): they are small to shape, and pass no process boundary.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path
from typing import TypeVar

from crm_tui.org.bulk_gc import collection_paused
from crm_tui.org.schema.catalogue import ORG_KINDS, FieldType, objects_for_kind
from crm_tui.org.soql import SalesforceError, execute_sosl
from crm_tui.org.soql.executor import JsonQueryResult, execute_soql_json
from crm_tui.org.soql.nodes import Aggregate, FieldPath, Query
from crm_tui.org.soql.parser import parse_query
from crm_tui.org.store.orgstore import OrgStore

_T = TypeVar("_T")
PROGRESS_STEPS = 10_000  # SQLite instructions between two looks at the clock
SMALL_LIMIT = 200  # records a query may ask for and still be shaped in the server's process
HERE_BYTES = 1 << 20  # the most a query shaped in the server's process may be estimated at
PAGE_BYTES = 4 << 20  # a page (one response) past this ends early, as Salesforce's do
ANSWER_BYTES = 64 << 20  # an answer's records together; past it, EXCEEDED_MAX_SIZE_REQUEST
# Estimated JSON bytes per record: its attributes, a field, a long text field at its worst.
_RECORD_BYTES, _FIELD_BYTES, _LONG_TEXT_BYTES = 200, 128, 32_768


def within_budget(reader: OrgStore, seconds: float, work: Callable[[OrgStore], _T]) -> _T:
    """`work` on `reader`, interrupted past `seconds` of SQLite work (QUERY_TIMEOUT)."""
    deadline = time.monotonic() + seconds
    expired = False

    def past_budget() -> bool:
        nonlocal expired
        expired = time.monotonic() > deadline
        return expired  # true interrupts the statement

    reader.conn.set_progress_handler(past_budget, PROGRESS_STEPS)
    try:
        return work(reader)
    except (SalesforceError, sqlite3.Error):
        if expired:
            raise SalesforceError(
                "QUERY_TIMEOUT",
                f"Your query request was running for too long (over {seconds:g} s): "
                "narrow it with filters or a LIMIT.",
            ) from None
        raise
    finally:
        reader.conn.set_progress_handler(None, 0)


@dataclass(frozen=True)
class Pages:
    """Records as JSON arrays, for a query locator to keep: each page at most `batch`
    records and `page_bytes` bytes (or one record), the first record of page i being
    record `starts[i]` of the answer."""

    count: int
    pages: list[bytes]
    starts: list[int]


@dataclass(frozen=True)
class Bounds:
    """How much of an answer a response carries, and how big an answer may be."""

    page_bytes: int = PAGE_BYTES
    answer_bytes: int = ANSWER_BYTES


def cut_pages(records: list[str], batch: int, page_bytes: int) -> tuple[list[bytes], list[int]]:
    """`records` (JSON texts) as JSON arrays of at most `batch` records and `page_bytes`
    bytes each (a record larger than that alone), with each page's first record."""
    pages: list[bytes] = []
    starts: list[int] = []
    start, size = 0, 2
    for at, record in enumerate(records):
        grown = size + len(record) + (2 if at > start else 0)
        if at > start and (at - start == batch or grown > page_bytes):
            pages.append(f"[{', '.join(records[start:at])}]".encode())
            starts.append(start)
            start, grown = at, 2 + len(record)
        size = grown
    if records:
        pages.append(f"[{', '.join(records[start:])}]".encode())
        starts.append(start)
    return pages, starts


def _within(size: int, bounds: Bounds) -> None:
    if size > bounds.answer_bytes:
        raise SalesforceError(
            "EXCEEDED_MAX_SIZE_REQUEST",
            f"The answer's records would take {size:,} bytes, over the {bounds.answer_bytes:,} "
            "bytes this server sends for one query: select fewer fields or child records, "
            "or narrow it with WHERE or a LIMIT.",
        )


def search_answer(found: dict[str, object], bounds: Bounds) -> bytes:
    """A SOSL answer's JSON, within the same bound as a query's."""
    body = json.dumps(found).encode()
    _within(len(body), bounds)
    return body


def answer_of(result: JsonQueryResult, batch: int, bounds: Bounds = Bounds()) -> bytes | Pages:
    """The whole answer's JSON, or its records cut into pages when they pass one batch
    or one page's bytes (the caller keeps them behind a query locator). An answer past
    `bounds.answer_bytes` is refused: no client is sent, and no server keeps, an answer
    of any size a query can ask for (a child sub-query brings every child)."""
    records = result.records  # JSON text, as json.dumps writes each record
    size = sum(map(len, records)) + 2 * len(records)
    _within(size, bounds)
    if result.total_size == 0 or (len(records) <= batch and size <= bounds.page_bytes):
        return result.body()
    pages, starts = cut_pages(records, batch, bounds.page_bytes)
    return Pages(len(records), pages, starts)


@cache
def _long_text_names() -> frozenset[str]:
    return frozenset(
        f.name
        for kind in ORG_KINDS
        for obj in objects_for_kind(kind)
        for f in obj.fields
        if f.type is FieldType.LONG_TEXT
    )


def _estimated_bytes(query: Query) -> int | None:
    """The most a record list's JSON may take, roughly, or None when nothing bounds it
    (no LIMIT, or a child sub-query, which brings every child of each record)."""
    if query.limit is None or any(isinstance(item.expr, Query) for item in query.select):
        return None
    long_texts = _long_text_names()
    per_record = _RECORD_BYTES + sum(
        _LONG_TEXT_BYTES
        if isinstance(item.expr, FieldPath) and item.expr.parts[-1] in long_texts
        else _FIELD_BYTES
        for item in query.select
    )
    return query.limit * per_record


def runs_here(text: str) -> bool:
    """Whether a SOQL query is small to shape, by the size its answer may reach: a
    count, an aggregate without child sub-queries (a row per group), a LIMIT of a few
    hundred records of short fields; or one the parser refuses at once."""
    try:
        query = parse_query(text)
    except (SalesforceError, RecursionError, OverflowError):
        return True
    if any(isinstance(item.expr, Query) for item in query.select):
        return False
    if (
        query.count_only
        or query.group_by
        or any(isinstance(item.expr, Aggregate) for item in query.select)
    ):
        return True
    estimated = _estimated_bytes(query)
    return (
        estimated is not None
        and query.limit is not None
        and query.limit <= SMALL_LIMIT
        and estimated <= HERE_BYTES
    )


# ----------------------------------------------------------------- in the worker
_readers: dict[str, OrgStore] = {}  # the worker's read-only connection per org file


def _follow_the_server(server: int) -> None:
    """A worker ends with the server (pid `server`, its parent): a server killed outright
    (SIGKILL) runs no shutdown, and its workers would wait on their queue for ever. The
    pid comes from the server, as a worker started as it died has another parent already."""

    def watch() -> None:
        while os.getppid() == server:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="follow-the-server").start()


def _reader(path: str) -> OrgStore:
    if path not in _readers:
        _readers[path] = OrgStore.open(path, readonly=True)
    return _readers[path]


def _open_reader(path: str) -> None:
    _reader(path)


# What a worker sends back: an answer, or Salesforce's error as plain values (the
# exception's own pickling would lose its code).
_Reply = tuple[str, bytes | Pages | None, str, str, int]


@dataclass(frozen=True)
class Ask:
    """One query for a worker: SOQL (`query`) or SOSL (`search`), its API version, the
    batch a locator's pages hold, its SQLite time budget and its answer's bounds."""

    kind: str
    text: str
    today: date
    version: str
    batch: int
    seconds: float
    bounds: Bounds = Bounds()


def _in_worker(path: str, ask: Ask) -> _Reply:
    kind, text, today, version = ask.kind, ask.text, ask.today, ask.version
    batch, seconds, bounds = ask.batch, ask.seconds, ask.bounds
    try:
        with collection_paused():  # thousands of records, no cycles: see `org.bulk_gc`
            if kind == "search":
                found = within_budget(
                    _reader(path),
                    seconds,
                    lambda r: execute_sosl(r, text, today=today, api_version=version),
                )
                return ("ok", search_answer(found, bounds), "", "", 200)
            result = within_budget(
                _reader(path),
                seconds,
                lambda r: execute_soql_json(r, text, today=today, api_version=version),
            )
            return ("ok", answer_of(result, batch, bounds), "", "", 200)
    except SalesforceError as error:
        return ("error", None, error.error_code, error.message, error.status)


# ----------------------------------------------------------------- in the server
class QueryPool:
    """`workers` processes answering record queries on the org at `path`."""

    def __init__(self, path: Path, workers: int):
        self.path, self.workers = str(path), workers
        self._executor = self._start()

    def _start(self) -> ProcessPoolExecutor:
        # spawn: the server runs threads, which a forked child would copy mid-step.
        executor = ProcessPoolExecutor(
            self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_follow_the_server,
            initargs=(os.getpid(),),
        )
        # Workers start when work comes: one task each now, in the background, so the
        # first clients do not wait for Python to start and the org to open.
        for _ in range(self.workers):
            executor.submit(_open_reader, self.path)
        return executor

    def run(self, ask: Ask) -> bytes | Pages:
        """An answer from a worker, within the ask's time budget and bounds; its errors
        raised."""
        try:
            future = self._executor.submit(_in_worker, self.path, ask)
            status, answer, code, message, http_status = future.result()
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
            self._executor = self._start()
            raise SalesforceError(
                "UNKNOWN_EXCEPTION", "A query worker stopped; try again.", status=500
            ) from None
        if status == "error" or answer is None:
            raise SalesforceError(code, message, status=http_status)
        return answer

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
