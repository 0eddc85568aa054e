"""Opening a study store: one SQLAlchemy engine per process, tuned for several writers.

The store is a SQLite file (the embedded default) or a PostgreSQL database (a
`postgresql://` URL), with the same schema and migrations. A read-modify-write path
(drawing a queue, opening or closing an attempt, an upsert, counting failed codes) must
never interleave with another one on the same data; on each store:

- SQLite: every transaction starts with BEGIN IMMEDIATE: a writer queues on the busy
  timeout at the start instead of failing when a read transaction tries to upgrade to a
  write (SQLite returns "database is locked" at once in that case). One writer at a time
  covers every path; `lock` and `lock_store` below do nothing there. WAL lets readers run
  beside the writer; synchronous=FULL also keeps the last commits across a power cut.
- PostgreSQL: writers run side by side; each read-modify-write path says what it
  serialises on, at its top: `lock(session, *key)` takes a transaction-level advisory
  lock on that key only (one study's draw, one person's queue, one source's failed
  codes), rows it changes are read `FOR UPDATE` (an attempt being submitted), and
  `lock_store(session)` takes the whole store (a merge). Plain event inserts and reads
  take no lock. Under READ COMMITTED each statement after the lock sees every commit of
  the lock's previous holder, so no retry loop is needed. A lock waits at most
  BUSY_TIMEOUT_S (`lock_timeout`), like SQLite's busy timeout.
  The pool pings a connection before use, so a server that went away and came back is
  reconnected on the next call; while it is away a call fails with one line.

Transactions are short and commit on exit, so each event and answer is stored when the
call returns. A URL's password never appears in a message (`redact_url`).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import (
    ArgumentError,
    DatabaseError,
    DBAPIError,
    InterfaceError,
    OperationalError,
)
from sqlalchemy.pool import NullPool
from sqlmodel import Session

from crm_tui.atomic import check_output_path, create_private_file
from crm_tui.errors import CrmTuiError
from crm_tui.paths import StudyLocation, is_database_url, redact_url
from crm_tui.study.store import db_logins
from crm_tui.study.store.migrations import (
    LATEST_VERSION,
    current_version,
    is_own_trigger,
    migrate,
)
from crm_tui.study.store.row_check import row_damage
from crm_tui.study.work.clock import Clock, SystemClock

BUSY_TIMEOUT_S = 10
CONNECT_TIMEOUT_S = 5


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


def _reading_engine(uri: str) -> Engine:
    """An engine that can only read: every connection opens `uri` (`mode=ro` or
    `immutable=1`), answers no write (query_only) and begins plain deferred transactions
    (BEGIN IMMEDIATE would ask for the write lock)."""

    def connect() -> sqlite3.Connection:
        conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, check_same_thread=False)
        conn.isolation_level = None  # SQLAlchemy's "begin" hook issues BEGIN
        for pragma in (f"busy_timeout = {BUSY_TIMEOUT_S * 1000}", "query_only = ON"):
            conn.execute(f"PRAGMA {pragma}")
        return conn

    engine = create_engine("sqlite://", creator=connect, poolclass=NullPool)

    @event.listens_for(engine, "begin")
    def _begin_deferred(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN")

    return engine


@dataclass(frozen=True)
class _ReadingMode:
    """How to read a study file writing nothing: the URI, whether the -wal and -shm SQLite
    makes to read it are ours to tidy afterwards, and what the reader should be told."""

    uri: str
    tidy: bool = False
    note: str | None = None


def _reading_mode(path: Path) -> _ReadingMode:
    """SQLite reads a WAL file through its -shm, which it makes when missing and, on a
    read-only connection, leaves behind with an empty -wal. So:
    - a -wal beside the file: a writer may be at work: `mode=ro` through its -shm, seeing
      its commits (in a read-only folder without a -shm, the file alone, saying so);
    - none, and the file and its folder writable: `mode=ro`, and the -wal and -shm it
      made are removed after (`_tidy`: SQLite removes them unless a writer came meanwhile);
    - none, and the file or its folder read-only: `immutable=1`, which makes nothing; no
      writer is at work (it would have made a -wal), saying so."""
    base = path.resolve().as_uri()
    folder_writable = os.access(path.parent, os.W_OK)
    if Path(f"{path}-wal").exists():
        if folder_writable or Path(f"{path}-shm").exists():
            return _ReadingMode(f"{base}?mode=ro")
        return _ReadingMode(
            f"{base}?mode=ro&immutable=1",
            note=f"{path.parent} is read-only and {path.name}-shm is missing: reading "
            f"{path.name} without the changes still in {path.name}-wal",
        )
    if folder_writable and os.access(path, os.W_OK):
        return _ReadingMode(f"{base}?mode=ro", tidy=True)
    where = path.parent if not folder_writable else path
    return _ReadingMode(
        f"{base}?mode=ro&immutable=1",
        note=f"{where} is read-only: reading {path.name} as it is on disk, without making "
        "a -wal or -shm beside it (changes made meanwhile are not seen)",
    )


def _tidy(path: Path) -> None:
    """Remove the empty -wal and -shm a read-only connection left: the last connection
    to close a WAL file removes them, after a checkpoint that has nothing to write.
    If a writer opened the file meanwhile, they are its and stay."""
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S)
    try:
        conn.execute("PRAGMA query_only = ON")
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.Error:
        pass  # a read-only file after all: nothing to tidy with
    finally:
        conn.close()


# The whole store's advisory lock: taken shared by every `lock`, exclusively by
# `lock_store` (advisory locks are per database, so other databases never wait on it).
STORE_LOCK_KEY = 0x63726D5F7475  # "crm_tu"


def _on_server(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def lock_key(*key: object) -> int:
    """The advisory lock number of `key` (a signed 64-bit hash of its parts)."""
    digest = hashlib.blake2b("\x1f".join(map(str, key)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def lock(session: Session, *key: object) -> None:
    """Serialise this transaction with every other that locks `key` (e.g. "draw", a
    study id), until commit or rollback. Call it before the reads the writes depend on.
    On SQLite BEGIN IMMEDIATE already serialised the transaction: nothing to do. Keys
    taken together are taken in a fixed order by every caller (person, then study)."""
    if not _on_server(session):
        return
    # Taking the store's shared lock again in the same transaction is free (a local count).
    session.connection().execute(
        text("SELECT pg_advisory_xact_lock_shared(:store), pg_advisory_xact_lock(:key)"),
        {"store": STORE_LOCK_KEY, "key": lock_key(*key)},
    )


def lock_store(session: Session) -> None:
    """Serialise this transaction with every other that takes a `lock` (a merge writes
    across people and queues): what SQLite's one writer gives every transaction."""
    if _on_server(session):
        session.connection().execute(
            text("SELECT pg_advisory_xact_lock(:store)"), {"store": STORE_LOCK_KEY}
        )


_PSYCOPG_NAMES = {"postgres", "postgresql", "postgresql+psycopg"}


def _postgresql_engine(url: str, display: str) -> Engine:
    try:
        parsed = make_url(url)
    except ArgumentError:  # its message repeats the URL, password and all
        raise CrmTuiError(f"{display} is not a PostgreSQL URL that crm-tui can read") from None
    if parsed.drivername not in _PSYCOPG_NAMES:
        raise CrmTuiError(
            f"{display}: crm-tui talks to PostgreSQL through psycopg only; "
            "write postgresql:// or postgresql+psycopg://"
        )
    # UTC stamps go into TIMESTAMP columns unchanged, as they go into the SQLite file.
    options = f"-c timezone=UTC -c lock_timeout={BUSY_TIMEOUT_S * 1000}"
    if parsed.query.get("options"):
        options = f"{parsed.query['options']} {options}"
    engine = create_engine(
        parsed.set(drivername="postgresql+psycopg"),
        pool_pre_ping=True,
        hide_parameters=True,  # an error's text never carries what a person typed
        connect_args={"connect_timeout": CONNECT_TIMEOUT_S, "options": options},
    )
    return engine


def _scrubbed(exc: DBAPIError, password: str | None) -> str:
    """The driver's first line about `exc`, without the password should it quote it."""
    lines = [line for line in str(exc.orig).splitlines() if line.strip()] or [type(exc).__name__]
    reason = " ".join(lines[0].split())[:300]
    if not password:
        return reason
    if len(password) >= 4:  # wherever it occurs: no word of a message hides it by chance
        return reason.replace(password, "***")
    # A very short one only where it stands alone, so "port" stays "port" for "p".
    alone = re.compile(rf"(?<![\w]){re.escape(password)}(?![\w])")
    return alone.sub("***", reason)


def _unreachable(exc: DBAPIError) -> bool:
    """Whether `exc` says the server cannot be reached or refused us (down, restarting,
    wrong address, wrong password, no such database), rather than a problem with a query."""
    if exc.connection_invalidated:
        return True
    state = getattr(exc.orig, "sqlstate", None)
    if state is None:
        return isinstance(exc, OperationalError | InterfaceError)
    return state[:2] in {"08", "28"} or state.startswith("57P") or state == "3D000"


_LOCK_NOT_AVAILABLE = "55P03"


# Tables every study file has from schema version 1 on, and schema_version's own columns.
_STUDY_TABLES = {"schema_version", "study", "study_item", "annotator"}
_VERSION_COLUMNS = ["version", "applied_at"]


def _refuse_special(path: Path) -> None:
    """Refuse a folder, a named pipe, a device (SQLite would block on a pipe, and read or
    write a device)."""
    if path.is_dir():
        raise CrmTuiError(f"{path} is a folder, not a crm-tui study file")
    if path.exists() and not path.is_file():
        raise CrmTuiError(f"{path} is not a regular file, so not a crm-tui study file")


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
        triggers = conn.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"
        ).fetchall()
        foreign = [name for name, sql in triggers if not is_own_trigger(sql or "")]
        if foreign:  # it would run in our writes (an invitation made a coordinator's)
            raise CrmTuiError(
                f"{path} is not a crm-tui study file (it holds a trigger not ours: "
                f"{foreign[0]!r}); nothing was written"
            )
        if objects:
            columns = [row[1] for row in conn.execute("PRAGMA table_info(schema_version)")]
            if columns != _VERSION_COLUMNS:
                raise CrmTuiError(
                    f"{path} is not a crm-tui study file (its schema_version table is not ours)"
                )
        problems = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
        inside_rows = row_damage(conn) if problems == ["ok"] else None
    except sqlite3.DatabaseError as exc:
        if "malformed" in str(exc) or "corrupt" in str(exc):
            raise CrmTuiError(_damaged(path, str(exc))) from None
        raise CrmTuiError(f"{path} is not a crm-tui study file ({exc})") from None
    except UnicodeDecodeError as exc:  # a name in the schema is not text: bytes overwritten
        raise CrmTuiError(
            _damaged(path, f"a name in its schema is not UTF-8 ({exc.reason})")
        ) from None
    finally:
        conn.close()
    if problems != ["ok"]:
        raise CrmTuiError(_damaged(path, problems[0]))
    if inside_rows is not None:
        raise CrmTuiError(_damaged(path, inside_rows, found_by=None))


def _refuse_foreign_schema(conn: Connection, display: str) -> None:
    """On a server: refuse a database whose schema holds another program's tables."""
    inspector = inspect(conn)
    # The study's schema, where a store is already: an annotator's login reads a view
    # named study_item first (`db_logins.py`), which hides the table from the search path.
    schema = db_logins.study_schema(conn)
    tables = set(inspector.get_table_names(schema=schema))
    if tables and not _STUDY_TABLES <= tables:
        other = sorted(tables - _STUDY_TABLES)
        raise CrmTuiError(
            f"{display} is not a crm-tui study store (it holds other tables, such as {other[0]!r})"
        )
    columns = inspector.get_columns("schema_version", schema=schema) if tables else []
    if tables and [c["name"] for c in columns] != _VERSION_COLUMNS:
        raise CrmTuiError(
            f"{display} is not a crm-tui study store (its schema_version table is not ours)"
        )


# What SQLite says when a file's bytes are wrong, as opposed to busy or full.
_DAMAGE_WORDS = ("malformed", "decode", "not a database", "corrupt", "disk image")


# SQLite's primary result codes for a file it cannot write (extended codes add high bits).
_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN = 8, 10, 13, 14
_SQLITE_READ_ERRORS = (266, 522)  # SQLITE_IOERR_READ, SQLITE_IOERR_SHORT_READ
_NEARLY_FULL = 1 << 20  # bytes free below which a write error is the disk being full


def _unwritable(path: Path, error: BaseException | None) -> str | None:
    """One line for a study file that cannot be written where it is (a full disk, a
    read-only file or folder, a disk error), or None for any other error. Those are the
    disk's doing, not the file's: without this they read as "not a crm-tui study file"."""
    extended = getattr(error, "sqlite_errorcode", None)
    if not isinstance(extended, int):
        return None
    code = extended & 0xFF
    reason = " ".join(str(error).split())
    folder = path.parent
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        free = None
    if code == _SQLITE_FULL or (code == _SQLITE_IOERR and free is not None and free < _NEARLY_FULL):
        return (
            f"{path} cannot be written: the disk is full ({reason}); "
            "nothing was written. Free some space and try again"
        )
    if code not in (_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_CANTOPEN):
        return None
    if extended in _SQLITE_READ_ERRORS:
        return f"{path} cannot be read: the disk refused ({reason}); nothing was written"
    if not os.access(folder, os.W_OK):
        where = f"its folder {folder} is read-only (SQLite writes a -wal and -shm beside it)"
    elif path.exists() and not os.access(path, os.W_OK):
        where = "the file is read-only"
    else:
        where = f"the disk refused ({reason})"
    return f"{path} cannot be written: {where}; nothing was written"


def _damaged(
    path: StudyLocation, problem: str, found_by: str | None = "SQLite integrity check"
) -> str:
    problem = " ".join(line for line in problem.splitlines() if not line.startswith("***"))
    problem = " ".join(problem.split())[:200]  # SQLite's report spans lines: one line here
    found = f"{found_by}: {problem}" if found_by else problem
    return f"{path} is damaged ({found}); nothing was written to it. Restore it from a copy"


class StudyStore:
    """An open study store. Create one per process (never share across fork).

    `path` names it in messages: the file's path, or the server's URL with its password
    replaced by `***` (the full URL lives only inside the engine)."""

    def __init__(
        self, path: StudyLocation, engine: Engine, clock: Clock, reading: _ReadingMode | None = None
    ):
        self.path = path
        self.on_server = isinstance(path, str)
        self.engine = engine
        self.clock = clock
        self._reading = reading  # opened read-only (`open_read_only`): how
        # For the one reading: how the file was read when that is worth saying.
        self.note = reading.note if reading else None
        self.app_session = uuid.uuid4().hex  # tags this process's events
        # On a server: the connection cannot read gold answers (an annotator's login,
        # `db_logins.py`), and the profile that login is. A file is its holder's, whole.
        self.blinded = False
        self.login_profile_id: int | None = None
        self._pid = os.getpid()

    def __repr__(self) -> str:
        return f"StudyStore({str(self.path)!r})"

    @classmethod
    def open(
        cls,
        path: StudyLocation,
        clock: Clock | None = None,
        target_version: int = LATEST_VERSION,
    ) -> StudyStore:
        """Open (creating if missing) and migrate the study file at `path`, or the study
        store in the PostgreSQL database a `postgresql://` URL names (the database must
        exist; its tables are made on first use)."""
        if is_database_url(path):
            return cls._open_server(str(path), clock or SystemClock(), target_version)
        path = Path(path)
        _refuse_special(path)
        if path.exists():
            _refuse_foreign_database(path)
        created = not path.exists()
        if created:
            check_output_path(path, force=False, what="the study file")
            try:
                create_private_file(path)  # gold answers inside: 0600 (and its -wal, -shm)
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
            if created:  # a half-made file (a full disk) would later read as damaged
                for made in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                    made.unlink(missing_ok=True)
            unwritable = _unwritable(path, exc.orig)
            if unwritable is not None:
                raise CrmTuiError(unwritable) from None
            raise CrmTuiError(f"{path} is not a crm-tui study file ({exc.orig})") from None
        except CrmTuiError:
            engine.dispose()
            raise
        return cls(path, engine, clock)

    @classmethod
    def _open_server(
        cls, url: str, clock: Clock, target_version: int, must_exist: bool = False
    ) -> StudyStore:
        display = redact_url(url)
        engine = _postgresql_engine(url, display)
        try:
            with engine.begin() as conn:
                _refuse_foreign_schema(conn, display)
                if must_exist and current_version(conn) == 0:
                    raise CrmTuiError(
                        f"No study store at {display} yet: create a study with "
                        "`crm-tui study create --db URL`"
                    )
                if current_version(conn) < target_version:
                    # Processes opening a blank or older store at once migrate it once
                    # (migrate reads the version again, after the lock); an app opening
                    # a current store stops nobody.
                    conn.execute(
                        text("SELECT pg_advisory_xact_lock(:store)"), {"store": STORE_LOCK_KEY}
                    )
                before = migrate(conn, display, clock.wall(), target_version)
                standing = db_logins.standing(conn)
                if before < target_version and standing.reads_gold and db_logins.is_set_up(conn):
                    db_logins.set_up(conn)  # new tables and columns: logins' views and grants
        except DBAPIError as exc:
            engine.dispose()
            reason = _scrubbed(exc, engine.url.password)
            if _unreachable(exc):
                raise CrmTuiError(f"cannot reach the study store at {display}: {reason}") from None
            raise CrmTuiError(f"{display} is not a crm-tui study store ({reason})") from None
        except CrmTuiError:
            engine.dispose()
            raise
        store = cls(display, engine, clock)
        store.blinded = not standing.reads_gold
        store.login_profile_id = standing.login_profile_id
        return store

    @classmethod
    def open_existing(cls, path: StudyLocation, clock: Clock | None = None) -> StudyStore:
        """Open a study store that must already exist (for commands that only read it)."""
        if is_database_url(path):
            return cls._open_server(
                str(path), clock or SystemClock(), LATEST_VERSION, must_exist=True
            )
        path = Path(path)
        _refuse_special(path)
        if not path.is_file():
            raise CrmTuiError(
                f"No study file at {path}: create a study with `crm-tui study create`"
            )
        return cls.open(path, clock)

    @classmethod
    def open_read_only(cls, path: StudyLocation, clock: Clock | None = None) -> StudyStore:
        """Open an existing study store for commands that only read it: nothing is
        written to the file or made beside it, so a read-only file or folder is read as
        well (see `_reading_mode`). A study file of an older schema is brought up to date
        first, as any opening does, where it can be written."""
        if is_database_url(path):
            return cls.open_existing(path, clock)
        path = Path(path)
        if path.is_dir() or not path.is_file():
            return cls.open_existing(path, clock)  # its one-line refusal
        _refuse_foreign_database(path)
        clock = clock or SystemClock()
        reading = _reading_mode(path)
        engine = _reading_engine(reading.uri)
        try:
            with engine.connect() as conn:
                version = current_version(conn)
        except DatabaseError as exc:
            engine.dispose()
            raise CrmTuiError(f"{path} is not a crm-tui study file ({exc.orig})") from None
        if version == LATEST_VERSION:
            return cls(path, engine, clock, reading)
        engine.dispose()
        if reading.tidy:
            _tidy(path)
        if version == 0:  # an empty file: a read stops here rather than make tables in it
            raise CrmTuiError(f"No study in {path} yet: create a study with `crm-tui study create`")
        if version > LATEST_VERSION:
            raise CrmTuiError(
                f"{path}: study file has schema version {version}, newer than this "
                f"crm-tui understands ({LATEST_VERSION}); upgrade crm-tui"
            )
        if reading.tidy:  # ours and writable: brought up to date, as any opening does
            return cls.open(path, clock)
        raise CrmTuiError(
            f"{path} has study schema version {version}, older than this crm-tui's "
            f"({LATEST_VERSION}), and is read-only here: open it once where it can be written"
        )

    @contextmanager
    def transaction(self, *, snapshot: bool = False) -> Iterator[Session]:
        """A short transaction, committed on exit and rolled back on error. On PostgreSQL
        it serialises with nothing by itself: a read-modify-write calls `lock` (or reads
        its rows `with_for_update()`) first. `snapshot`: every read sees the store as of
        the first one (REPEATABLE READ), for a report or an export that reads many tables
        while people write; on SQLite a transaction is always one snapshot."""
        if os.getpid() != self._pid:
            raise RuntimeError("a StudyStore was carried into a child process; open a new one")
        try:
            with Session(self.engine, expire_on_commit=False) as session, session.begin():
                if snapshot and self.on_server:
                    session.connection().exec_driver_sql(
                        "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ"
                    )
                yield session
        except DBAPIError as exc:
            error = self._server_error(exc) if self.on_server else None
            if error is not None:
                raise error from None
            if self.on_server or not isinstance(exc, DatabaseError):
                raise
            reason = " ".join(str(exc.orig).split())
            if reason == "database is locked":  # other writers held it past the timeout
                raise CrmTuiError(self._busy()) from None
            unwritable = _unwritable(Path(self.path), exc.orig)
            if unwritable is not None:
                raise CrmTuiError(unwritable) from None
            if not any(word in reason for word in _DAMAGE_WORDS):
                raise
            # A change the integrity check cannot see (bytes inside a row): one line.
            raise CrmTuiError(_damaged(self.path, reason)) from None

    def _server_error(self, exc: DBAPIError) -> CrmTuiError | None:
        """One line for a server that went away or kept the lock too long; anything else
        (a bug, a broken constraint) as it is. The pool reconnects on the next call."""
        reason = _scrubbed(exc, self.engine.url.password)
        if _unreachable(exc):
            return CrmTuiError(
                f"the study store at {self.path} is unreachable: {reason}; "
                "your answer was not saved"
            )
        if getattr(exc.orig, "sqlstate", None) == _LOCK_NOT_AVAILABLE:
            return CrmTuiError(self._busy())
        return None

    def _busy(self) -> str:
        return (
            f"the study store at {self.path} stayed busy for {BUSY_TIMEOUT_S} s "
            "(other writers); your answer was not saved: try again"
        )

    def refuse_blinded(self) -> None:
        """Refuse, in one line, a coordinator's command on an annotator's login."""
        if self.blinded:
            raise CrmTuiError(
                f"{self.path} connects with an annotator's PostgreSQL login, which cannot "
                "read gold answers, invitations or other people's work: coordinator "
                "commands need the URL of the store's owner"
            )

    def now(self) -> tuple[datetime, int]:
        """(wall stamp in UTC, monotonic ms) read together."""
        return self.clock.wall().astimezone(UTC), self.clock.monotonic_ms()

    def close(self) -> None:
        self.engine.dispose()
        if self._reading is not None and self._reading.tidy and isinstance(self.path, Path):
            _tidy(self.path)

    def __enter__(self) -> StudyStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
