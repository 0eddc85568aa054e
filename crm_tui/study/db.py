"""Opening a study file: one SQLAlchemy engine per process, tuned for several writers.

Every transaction starts with BEGIN IMMEDIATE: a writer queues on the busy timeout at the
start instead of failing when a read transaction tries to upgrade to a write (SQLite
returns "database is locked" at once in that case). Transactions are short and commit
on exit, so each event and answer is on disk when the call returns. WAL lets readers
run beside the writer; synchronous=FULL also keeps the last commits across a power cut.
"""

from __future__ import annotations

import os
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.exc import DatabaseError
from sqlmodel import Session

from crm_tui.atomic import check_output_path
from crm_tui.errors import CrmTuiError
from crm_tui.study.clock import Clock, SystemClock
from crm_tui.study.migrations import LATEST_VERSION, migrate

BUSY_TIMEOUT_S = 10


def _engine(path: Path) -> Engine:
    engine = create_engine(f"sqlite:///{path}", connect_args={"timeout": BUSY_TIMEOUT_S})

    @event.listens_for(engine, "connect")
    def _configure(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy's "begin" hook issues BEGIN
        for pragma in (
            f"busy_timeout = {BUSY_TIMEOUT_S * 1000}",
            "journal_mode = WAL",
            "synchronous = FULL",
            "foreign_keys = ON",
        ):
            dbapi_connection.execute(f"PRAGMA {pragma}")

    @event.listens_for(engine, "begin")
    def _begin_immediate(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def _refuse_foreign_database(path: Path) -> None:
    """Refuse a file that is not a study file (another program's database, an org file)
    before the engine's pragmas touch it: WAL mode would be written into its header."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise CrmTuiError(f"{path} is not a crm-tui study file ({exc})") from None
    try:
        names = {
            row[0]
            for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
    except sqlite3.DatabaseError as exc:
        raise CrmTuiError(f"{path} is not a crm-tui study file ({exc})") from None
    finally:
        conn.close()
    if names and "schema_version" not in names:
        raise CrmTuiError(
            f"{path} is not a crm-tui study file (it holds other tables, such as {min(names)!r})"
        )


class StudyStore:
    """An open study file. Create one per process (never share across fork)."""

    def __init__(self, path: Path, engine: Engine, clock: Clock):
        self.path = path
        self.engine = engine
        self.clock = clock
        self.app_session = uuid.uuid4().hex  # tags this process's events
        self._pid = os.getpid()

    @classmethod
    def open(
        cls, path: str | Path, clock: Clock | None = None, target_version: int = LATEST_VERSION
    ) -> StudyStore:
        """Open (creating if missing) and migrate the study file at `path`."""
        path = Path(path)
        if path.is_dir():
            raise CrmTuiError(f"{path} is a folder, not a crm-tui study file")
        if path.exists():
            _refuse_foreign_database(path)
        else:
            check_output_path(path, force=False, what="the study file")
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise CrmTuiError(
                    f"Cannot create the study file {path}: {exc.strerror or exc}"
                ) from None
        clock = clock or SystemClock()
        engine = _engine(path)
        try:
            with engine.begin() as conn:
                migrate(conn, path, clock.wall(), target_version)
        except DatabaseError as exc:
            engine.dispose()
            raise CrmTuiError(f"{path} is not a crm-tui study file ({exc.orig})") from None
        except CrmTuiError:
            engine.dispose()
            raise
        return cls(path, engine, clock)

    @classmethod
    def open_existing(cls, path: str | Path, clock: Clock | None = None) -> StudyStore:
        """Open a study file that must already exist (for commands that only read it)."""
        path = Path(path)
        if path.is_dir():
            raise CrmTuiError(f"{path} is a folder, not a crm-tui study file")
        if not path.is_file():
            raise CrmTuiError(
                f"No study file at {path}: create a study with `crm-tui study create`"
            )
        return cls.open(path, clock)

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A short write transaction, committed on exit and rolled back on error."""
        if os.getpid() != self._pid:
            raise RuntimeError("a StudyStore was carried into a child process; open a new one")
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    def now(self) -> tuple[datetime, int]:
        """(wall stamp in UTC, monotonic ms) read together."""
        return self.clock.wall().astimezone(UTC), self.clock.monotonic_ms()

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> StudyStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
