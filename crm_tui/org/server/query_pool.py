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
from pathlib import Path
from typing import TypeVar

from crm_tui.org.bulk_gc import collection_paused
from crm_tui.org.soql import SalesforceError, execute_sosl
from crm_tui.org.soql.executor import JsonQueryResult, execute_soql_json
from crm_tui.org.soql.nodes import Aggregate
from crm_tui.org.soql.parser import parse_query
from crm_tui.org.store.orgstore import OrgStore

_T = TypeVar("_T")
PROGRESS_STEPS = 10_000  # SQLite instructions between two looks at the clock
SMALL_LIMIT = 200  # records a query may ask for and still be shaped in the server's process


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
    """Records as JSON arrays of `batch` records each, for a query locator to keep."""

    count: int
    pages: list[bytes]


def answer_of(result: JsonQueryResult, batch: int) -> bytes | Pages:
    """The whole answer's JSON, or its records cut into pages when there are more than
    one batch of them (the caller keeps them behind a query locator)."""
    if result.total_size == 0 or len(result.records) <= batch:
        return result.body()
    records = result.records  # JSON text, as json.dumps writes each record
    pages = [
        f"[{', '.join(records[start : start + batch])}]".encode()
        for start in range(0, len(records), batch)
    ]
    return Pages(len(records), pages)


def runs_here(text: str) -> bool:
    """Whether a SOQL query is small to shape: a count, an aggregate (a row per group),
    a LIMIT of a few hundred; or one the parser refuses at once."""
    try:
        query = parse_query(text)
    except (SalesforceError, RecursionError, OverflowError):
        return True
    return bool(
        query.count_only
        or query.group_by
        or any(isinstance(item.expr, Aggregate) for item in query.select)
        or (query.limit is not None and query.limit <= SMALL_LIMIT)
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


def _in_worker(
    path: str, kind: str, text: str, today: date, version: str, batch: int, seconds: float
) -> _Reply:
    try:
        with collection_paused():  # thousands of records, no cycles: see `org.bulk_gc`
            if kind == "search":
                found = within_budget(
                    _reader(path),
                    seconds,
                    lambda r: execute_sosl(r, text, today=today, api_version=version),
                )
                return ("ok", json.dumps(found).encode(), "", "", 200)
            result = within_budget(
                _reader(path),
                seconds,
                lambda r: execute_soql_json(r, text, today=today, api_version=version),
            )
            return ("ok", answer_of(result, batch), "", "", 200)
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

    def run(
        self, kind: str, text: str, today: date, version: str, batch: int, seconds: float
    ) -> bytes | Pages:
        """A SOQL (`query`) or SOSL (`search`) answer from a worker, within `seconds` of
        SQLite work; its errors raised."""
        try:
            future = self._executor.submit(
                _in_worker, self.path, kind, text, today, version, batch, seconds
            )
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
