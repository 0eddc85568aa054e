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


# Tables every study file has from schema version 1 on, and schema_version's own columns.
_STUDY_TABLES = {"schema_version", "study", "study_item", "annotator"}
_VERSION_COLUMNS = ["version", "applied_at"]


def _refuse_foreign_database(path: Path) -> None:
    """Refuse, before anything is written to it, a file that is not a study file (another
    program's database, an org file, a database of views) or a damaged one: the engine's
    pragmas would write WAL mode into its header, and SQLAlchemy would fail later with a
    long traceback. Read through a read-only connection."""
    # Without a -wal beside it the file is the whole database: read it as immutable, so
    # that not even a -wal or -shm is made (SQLite makes them for a WAL file read-only).
    live = Path(f"{path}-wal").exists()
    mode = "mode=ro" if live else "mode=ro&immutable=1"
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True)
    except sqlite3.Error as exc:
        raise CrmTuiError(f"{path} is not a crm-tui study file ({exc})") from None
    try:
        objects = conn.execute(
            "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        ).fetchall()
        tables = {name for kind, name in objects if kind == "table"}
        if objects and not _STUDY_TABLES <= tables:
            other = sorted(name for _, name in objects if name not in _STUDY_TABLES)
            such = f", such as {other[0]!r}" if other else ""
            raise CrmTuiError(
                f"{path} is not a crm-tui study file (it holds other tables or views{such})"
            )
        if objects:
            columns = [row[1] for row in conn.execute("PRAGMA table_info(schema_version)")]
            if columns != _VERSION_COLUMNS:
                raise CrmTuiError(
                    f"{path} is not a crm-tui study file (its schema_version table is not ours)"
                )
        problems = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
    except sqlite3.DatabaseError as exc:
        if "malformed" in str(exc) or "corrupt" in str(exc):
            raise CrmTuiError(_damaged(path, str(exc))) from None
        raise CrmTuiError(f"{path} is not a crm-tui study file ({exc})") from None
    finally:
        conn.close()
    if problems != ["ok"]:
        raise CrmTuiError(_damaged(path, problems[0]))


# What SQLite says when a file's bytes are wrong, as opposed to busy or full.
_DAMAGE_WORDS = ("malformed", "decode", "not a database", "corrupt", "disk image")


def _damaged(path: Path, problem: str) -> str:
    problem = " ".join(line for line in problem.splitlines() if not line.startswith("***"))
    problem = " ".join(problem.split())[:200]  # SQLite's report spans lines: one line here
    return (
        f"{path} is damaged (SQLite integrity check: {problem}); nothing was written to it. "
        "Restore it from a copy"
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
        try:
            with Session(self.engine, expire_on_commit=False) as session, session.begin():
                yield session
        except DatabaseError as exc:
            reason = " ".join(str(exc.orig).split())
            if not any(word in reason for word in _DAMAGE_WORDS):
                raise
            # A change the integrity check cannot see (bytes inside a row): one line.
            raise CrmTuiError(_damaged(self.path, reason)) from None

    def now(self) -> tuple[datetime, int]:
        """(wall stamp in UTC, monotonic ms) read together."""
        return self.clock.wall().astimezone(UTC), self.clock.monotonic_ms()

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> StudyStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
