"""The local store: one SQLite file per org, a table per catalogue object.

Tables and columns carry the Salesforce API names. Every lookup and every field that
tasks filter or sort by is indexed as (field, Id), so a sorted list view can page by
keyset; text fields also as (field COLLATE NOCASE, Id), the order SOQL sorts text in.
An FTS5 table indexes names and long text for search. Latent variables of the
generator live in `_latent`, never in an object table.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from crm_tui.errors import CrmTuiError
from crm_tui.org.schema.catalogue import (
    DEFAULT_KIND,
    FieldType,
    SObject,
    get_object,
    kind_of,
    objects_for_kind,
    use_kind,
)

SCHEMA_VERSION = 1
ORG_KIND = "crm-tui-org"
BATCH = 5000
HASH_BLOCK = 2000  # rows per update of the content hash
CACHE_KIB = 65536  # SQLite's page cache per connection (64 MiB)
LOAD_CACHE_KIB = 16384  # while a new org's rows go in (`create` to `finish`)
# Text as SOQL sees it (compared without case), as opposed to Ids, dates and numbers.
CASELESS_TYPES = frozenset(
    {FieldType.TEXT, FieldType.LONG_TEXT, FieldType.PICKLIST, FieldType.EMAIL, FieldType.PHONE}
)


class OrgError(CrmTuiError):
    """A problem with an org file, worded for the person who named it."""


def q(identifier: str) -> str:
    """Quote an identifier taken from the catalogue ("Order" and "Case" are SQL words)."""
    return '"' + identifier.replace('"', '""') + '"'


def _table_ddl(obj: SObject) -> str:
    cols = ", ".join(
        f"{q(f.name)} {f.sql_type}" + (" PRIMARY KEY" if f.name == "Id" else "") for f in obj.fields
    )
    return f"CREATE TABLE {q(obj.name)} ({cols})"


# Covering indexes for the reports the task families need: a report that reads only these
# columns finds its rows in the index, without a table row per record. Closed cases of a
# period by owner with their Age (handle time, the Age report): the server's rows query
# took 28 ms less of 160 at 100x.
REPORT_INDEXES: dict[str, dict[str, tuple[str, ...]]] = {
    "Case": {"closed_by_owner": ("ClosedDate", "Status", "OwnerId", "CreatedDate", "Id")},
}

# Lists filtered on a picklist or text field and sorted by a date or a record number, as the
# sales team reads theirs (accepted quotes newest first, a stage's deals by close date):
# (filter field, sort field) per object. One index on both walks the matching rows in
# order; with the single-column ones the first page either sorted every match (Accepted
# quotes at 100x: 150,000 rows, 0.2-0.5 s) or scanned the whole date index for a rare value
# (Working leads: 0.1 s). Text compares and sorts without case (COLLATE NOCASE), as in SOQL.
FILTERED_LIST_INDEXES: dict[str, tuple[tuple[str, str], ...]] = {
    "Quote": (("Status", "CreatedDate"), ("Status", "QuoteNumber")),
    "Task": (("Subject", "ActivityDate"), ("Subject", "CreatedDate"), ("Status", "ActivityDate")),
    "Lead": (("Status", "CreatedDate"), ("State", "CreatedDate")),
    "Opportunity": (("StageName", "CloseDate"),),
}


def _index_ddl(obj: SObject) -> list[str]:
    """The secondary indexes of an object's table. `finish` builds them once the rows are
    in: one sort per index is about twice as fast as keeping them up to date per row."""
    ddl = []
    for f in obj.fields:
        if f.indexed and f.name != "Id":
            ddl.append(
                f"CREATE INDEX IF NOT EXISTS {q(f'ix_{obj.name}_{f.name}')} ON {q(obj.name)} "
                f"({q(f.name)}, {q('Id')})"
            )
        if f.indexed and f.type in CASELESS_TYPES:
            # SOQL compares and sorts text without case: the SOQL engine's ORDER BY and
            # keyset ranges (COLLATE NOCASE) can only walk an index in that collation.
            ddl.append(
                f"CREATE INDEX IF NOT EXISTS {q(f'ix_{obj.name}_{f.name}_nocase')} "
                f"ON {q(obj.name)} ({q(f.name)} COLLATE NOCASE, {q('Id')})"
            )
    for name, columns in REPORT_INDEXES.get(obj.name, {}).items():
        ddl.append(
            f"CREATE INDEX IF NOT EXISTS {q(f'ix_{obj.name}_{name}')} ON {q(obj.name)} "
            f"({', '.join(map(q, columns))})"
        )
    for filtered, by in FILTERED_LIST_INDEXES.get(obj.name, ()):
        keys = [
            q(name) + (" COLLATE NOCASE" if obj.field(name).type in CASELESS_TYPES else "")
            for name in (filtered, by)
        ]
        ddl.append(
            f"CREATE INDEX IF NOT EXISTS {q(f'ix_{obj.name}_{filtered}_{by}')} "
            f"ON {q(obj.name)} ({', '.join(keys)}, {q('Id')})"
        )
    return ddl


META_DDL = [
    "CREATE TABLE _meta (key TEXT PRIMARY KEY, value TEXT)",
    # The generator's hidden variables: (object, record, variable) -> value (JSON text).
    "CREATE TABLE _latent (object TEXT NOT NULL, record_id TEXT NOT NULL, "
    "variable TEXT NOT NULL, value TEXT, PRIMARY KEY (object, record_id, variable))",
    "CREATE VIRTUAL TABLE search_index USING fts5(object UNINDEXED, record_id UNINDEXED, "
    "name, body, tokenize = 'unicode61 remove_diacritics 2')",
]


def connect(path: str | Path, readonly: bool = False) -> sqlite3.Connection:
    """A connection usable from worker threads (callers serialise their own use)."""
    if readonly:
        uri = Path(path).resolve().as_uri() + "?mode=ro"
        conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
    else:
        conn = sqlite3.connect(str(path), check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")  # list views touch big indexes
    conn.execute("PRAGMA mmap_size = 268435456")
    return conn


class OrgStore:
    """An open org file. Create with `OrgStore.create`, open with `OrgStore.open`."""

    def __init__(self, conn: sqlite3.Connection, path: Path, org_kind: str = DEFAULT_KIND):
        self.conn = conn
        self.path = path
        # "b2c" (the service org) or "b2b" (with the sales objects): `_meta` holds it as
        # `org_kind` for a B2B org; a B2C org's file has no such row. Opening an org makes
        # its kind's catalogue the one lookups answer from.
        self.org_kind = org_kind
        self.objects = objects_for_kind(org_kind)
        use_kind(org_kind)

    def schema(self) -> AbstractContextManager[None]:
        """Catalogue lookups answer from this org's kind within the block, whatever org
        this process opened last."""
        return kind_of(self.org_kind)

    # ----------------------------------------------------------------- lifecycle
    @classmethod
    def create(cls, path: str | Path, org_kind: str = DEFAULT_KIND) -> OrgStore:
        """A new, empty org at `path` (which must not exist), tuned for bulk writes: no
        journal and no syncing (a crash leaves a file nobody uses: the generator writes
        a temporary file and renames it only when complete), and no secondary indexes
        until `finish`."""
        path = Path(path)
        if path.exists():
            raise OrgError(f"{path} already exists")
        try:
            objects = objects_for_kind(org_kind)
        except ValueError as exc:
            raise OrgError(str(exc)) from None
        conn = connect(path)
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        # Mapped pages count as the writer's resident memory (up to 256 MiB on a big org,
        # read once by the hash and the checks): read through the page cache instead.
        conn.execute("PRAGMA mmap_size = 0")
        # Rows go in Id order (appended to the table and its key): a small cache does, and
        # the generator's own peak (its drafts) comes while they go in. `finish` restores
        # the full cache for the index builds.
        conn.execute(f"PRAGMA cache_size = -{LOAD_CACHE_KIB}")
        with conn:
            for stmt in META_DDL:
                conn.execute(stmt)
            for obj in objects:
                conn.execute(_table_ddl(obj))
            conn.executemany(
                "INSERT INTO _meta VALUES (?, ?)",
                [("kind", ORG_KIND), ("schema_version", str(SCHEMA_VERSION))],
            )
            if org_kind != DEFAULT_KIND:
                conn.execute("INSERT INTO _meta VALUES ('org_kind', ?)", (org_kind,))
        return cls(conn, path, org_kind)

    @classmethod
    def open(cls, path: str | Path, readonly: bool = True) -> OrgStore:
        """Open an existing org, with a clear error if the file is missing or not an org."""
        path = Path(path)
        if path.is_dir():
            raise OrgError(f"{path} is a folder, not a crm-tui org file")
        if not path.is_file():
            raise OrgError(f"No org at {path}: the file does not exist")
        conn: sqlite3.Connection | None = None
        try:
            conn = connect(path, readonly=readonly)
            kind = conn.execute("SELECT value FROM _meta WHERE key = 'kind'").fetchone()
        except sqlite3.DatabaseError:
            kind = None
        if conn is None or not kind or kind[0] != ORG_KIND:
            if conn is not None:
                conn.close()
            raise OrgError(f"{path} is not a crm-tui org file")
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
            row = conn.execute("SELECT value FROM _meta WHERE key = 'org_kind'").fetchone()
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise OrgError(f"{path} is damaged ({exc})") from None
        org_kind = row[0] if row else DEFAULT_KIND
        try:
            objects = objects_for_kind(org_kind)
        except ValueError:
            conn.close()
            raise OrgError(
                f"{path} is an org of a kind crm-tui does not know: {org_kind!r}"
            ) from None
        missing = [obj.name for obj in objects if obj.name not in tables]
        if missing:
            conn.close()
            raise OrgError(f"{path} is damaged: its table {missing[0]!r} is missing")
        return cls(conn, path, org_kind)

    @contextmanager
    def reading(self, what: str) -> Iterator[None]:
        """Turn what a damaged file raises while `what` reads it (a corrupt page, a
        garbage date) into one OrgError naming the file."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            raise OrgError(f"{self.path} is damaged ({what}: {exc})") from None
        except (ValueError, TypeError, KeyError) as exc:
            raise OrgError(
                f"{self.path} holds a value crm-tui cannot read ({what}: "
                f"{type(exc).__name__}: {exc})"
            ) from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> OrgStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----------------------------------------------------------------- writing
    def insert(self, object_name: str, rows: Iterable[Mapping[str, Any]]) -> int:
        """Insert rows (dicts keyed by API name; missing fields are NULL). Returns count."""
        obj = get_object(object_name)
        names = obj.field_names
        known = frozenset(names)
        sql = (
            f"INSERT INTO {q(obj.name)} ({', '.join(map(q, names))}) "
            f"VALUES ({', '.join('?' * len(names))})"
        )
        n = 0
        batch: list[tuple[Any, ...]] = []
        for row in rows:
            # C-level subset test and tuple building: this loop runs once per record.
            if not row.keys() <= known:
                unknown = sorted(set(row) - known)
                raise OrgError(f"{obj.name} has no field {unknown[0]!r}")
            batch.append(tuple(map(row.get, names)))
            if len(batch) >= BATCH:
                self.conn.executemany(sql, batch)
                n += len(batch)
                batch.clear()
        if batch:
            self.conn.executemany(sql, batch)
            n += len(batch)
        return n

    def insert_tuples(
        self, object_name: str, columns: Sequence[str], rows: Iterable[tuple[Any, ...]]
    ) -> int:
        """Insert rows given as tuples of `columns` (the other fields are NULL), streamed:
        what `insert` writes from dicts, without a dict and a field check per record (the
        generator's largest tables). Returns the count."""
        obj = get_object(object_name)
        unknown = [c for c in columns if c not in obj.field_names]
        if unknown:
            raise OrgError(f"{obj.name} has no field {unknown[0]!r}")
        sql = (
            f"INSERT INTO {q(obj.name)} ({', '.join(map(q, columns))}) "
            f"VALUES ({', '.join('?' * len(columns))})"
        )
        n: int = self.conn.executemany(sql, rows).rowcount
        return n

    def set_latent(self, rows: Iterable[tuple[str, str, str, str]]) -> None:
        """Store hidden variables as (object, record_id, variable, value-as-text)."""
        self.conn.executemany("INSERT OR REPLACE INTO _latent VALUES (?, ?, ?, ?)", rows)

    def latent(self, object_name: str, variable: str) -> dict[str, str]:
        rows = self.conn.cursor()
        rows.row_factory = None  # pairs straight into the dict: thousands of rows
        return dict(
            rows.execute(
                "SELECT record_id, value FROM _latent WHERE object = ? AND variable = ?",
                (object_name, variable),
            )
        )

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO _meta VALUES (?, ?)", (key, value))

    def meta(self, key: str, default: str | None = None) -> str | None:
        row = self.conn.execute("SELECT value FROM _meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def build_indexes(self) -> None:
        """Build every object's secondary indexes (those not there yet)."""
        for obj in self.objects:
            for stmt in _index_ddl(obj):
                self.conn.execute(stmt)

    def build_search_index(self) -> None:
        """(Re)fill the FTS index from every object's searchable fields."""
        self.conn.execute("DELETE FROM search_index")
        for obj in self.objects:
            name_cols = [f.name for f in obj.fields if f.searchable and f.name_field]
            body_cols = [f.name for f in obj.fields if f.searchable and not f.name_field]
            if not name_cols and not body_cols:
                continue

            def concat(cols: list[str]) -> str:
                return " || ' ' || ".join(f"coalesce({q(c)}, '')" for c in cols) or "''"

            self.conn.execute(
                f"INSERT INTO search_index (object, record_id, name, body) "
                f"SELECT ?, Id, {concat(name_cols)}, {concat(body_cols)} FROM {q(obj.name)}",
                (obj.name,),
            )

    def finish(self) -> str:
        """Index, hash and seal a freshly written org; returns its content hash."""
        self.conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        self.build_indexes()
        self.build_search_index()
        digest = self.content_hash()
        self.set_meta("content_hash", digest)
        self.conn.commit()
        self.conn.execute("PRAGMA journal_mode = DELETE")
        self.conn.execute("ANALYZE")
        self.conn.commit()
        return digest

    # ----------------------------------------------------------------- reading
    def count(self, object_name: str) -> int:
        obj = get_object(object_name)
        n: int = self.conn.execute(f"SELECT count(*) FROM {q(obj.name)}").fetchone()[0]
        return n

    def counts(self) -> dict[str, int]:
        return {obj.name: self.count(obj.name) for obj in self.objects}

    def rows(
        self, object_name: str, where: str = "", params: tuple[Any, ...] = ()
    ) -> list[sqlite3.Row]:
        """All rows of an object (for checks and task generation; `where` is trusted SQL)."""
        obj = get_object(object_name)
        sql = f"SELECT * FROM {q(obj.name)}" + (f" WHERE {where}" if where else "")
        return self.conn.execute(sql, params).fetchall()

    def content_hash(self) -> str:
        """SHA-256 over every object table and the latent table, in a fixed order: the
        UTF-8 `repr` of each row's tuple of values, rows in Id order."""
        h = hashlib.sha256()
        for obj in self.objects:
            h.update(f"\x00{obj.name}\x00".encode())
            self._hash_rows(
                h, f"SELECT {', '.join(map(q, obj.field_names))} FROM {q(obj.name)} ORDER BY Id"
            )
        h.update(b"\x00_latent\x00")
        self._hash_rows(h, "SELECT * FROM _latent ORDER BY object, record_id, variable")
        return h.hexdigest()

    def _hash_rows(self, h: hashlib._Hash, sql: str) -> None:
        # Plain tuples (no Row objects), and one update per block of rows: the same bytes
        # as one update per row, several times faster.
        cur = self.conn.cursor()
        cur.row_factory = None
        cur.execute(sql)
        while block := cur.fetchmany(HASH_BLOCK):
            h.update("".join(map(repr, block)).encode())
        cur.close()

    @property
    def fingerprint(self) -> str:
        """Pins task sets and studies to this org's content: `local-<16 hex>`."""
        digest = self.meta("content_hash") or self.content_hash()
        return f"local-{digest[:16]}"
