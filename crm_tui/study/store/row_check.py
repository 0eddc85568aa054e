"""Damage inside a study file's rows that SQLite's own integrity check cannot see.

`PRAGMA quick_check` finds corrupt pages, not a dropped table or column, text where a
number belongs (SQLite stores what it is given), or garbage where JSON belongs; those
surfaced later as a traceback half-way through a report. A file at the latest schema
version is checked against `models.py` (which the latest migration matches, a test
holds): one scan per table, a fraction of the quick check's own time.
"""

from __future__ import annotations

import sqlite3

from sqlalchemy import Boolean, Column, DateTime, Float, Integer, TypeDecorator
from sqlmodel import SQLModel

from crm_tui.study.store import models as _models  # noqa: F401  (fills SQLModel.metadata)
from crm_tui.study.store.migrations import LATEST_VERSION


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _wrong(column: Column) -> tuple[str, str] | None:  # type: ignore[type-arg]
    """SQL true where `column` holds what its type cannot be, and what it should be."""
    kind = column.type
    if isinstance(kind, TypeDecorator):
        kind = kind.impl_instance
    name = _q(column.name)
    if column.name.endswith("_json"):
        return f"({name} IS NOT NULL AND NOT json_valid({name}))", "JSON"
    if isinstance(kind, Boolean):
        return f"({name} IS NOT NULL AND {name} NOT IN (0, 1))", "true or false"
    if isinstance(kind, Integer):
        return f"typeof({name}) NOT IN ('integer', 'null')", "a whole number"
    if isinstance(kind, Float):
        return f"typeof({name}) NOT IN ('integer', 'real', 'null')", "a number"
    if isinstance(kind, DateTime):
        return (
            f"({name} IS NOT NULL AND (typeof({name}) != 'text' OR datetime({name}) IS NULL))",
            "a date and time",
        )
    return None


def row_damage(conn: sqlite3.Connection) -> str | None:
    """What is wrong in a few words naming the table and field, or None. Only for a file
    at the latest schema version (an older one is checked by its migration)."""
    try:
        version = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
    except sqlite3.DatabaseError:
        return None  # the caller's own checks name it
    if version != LATEST_VERSION:
        return None
    for table in SQLModel.metadata.sorted_tables:
        present = {row[1] for row in conn.execute(f"PRAGMA table_info({_q(table.name)})")}
        if not present:
            return f"its table {table.name!r} is missing"
        for column in table.columns:
            if column.name not in present:
                return f"{table.name} has no column {column.name!r}"
        checks = [(column.name, *found) for column in table.columns if (found := _wrong(column))]
        if not checks:
            continue
        where = " OR ".join(sql for _, sql, _ in checks)
        bad = conn.execute(f"SELECT * FROM {_q(table.name)} WHERE {where} LIMIT 1").fetchone()
        if bad is None:
            continue
        for name, sql, should in checks:
            row = conn.execute(
                f"SELECT rowid, {_q(name)} FROM {_q(table.name)} WHERE {sql} LIMIT 1"
            ).fetchone()
            if row is not None:
                return (
                    f"{table.name}.{name} of row {row[0]} holds {str(row[1])[:40]!r}, not {should}"
                )
    return None
