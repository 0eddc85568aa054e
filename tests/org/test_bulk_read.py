"""`all_rows` (one JSON text per statement) gives what `fetchall` gives, in its order."""

from __future__ import annotations

import sqlite3

import pytest

from crm_tui.org.store.bulk_read import all_rows


@pytest.fixture
def conn():
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, n INTEGER, note TEXT)")
    conn.executemany(
        "INSERT INTO t (id, name, n, note) VALUES (?, ?, ?, ?)",
        [
            (3, 'Zoë "quoted" \\ back', 2**62, None),
            (1, "line\nbreak\ttab", -7, "ünïcode ✓ 漢字"),
            (2, "", 0, "emoji 🙂 and \u2028 separator"),
            (4, None, None, "x" * 10_000),
        ],
    )
    yield conn
    conn.close()


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT id, name, n, note FROM t ORDER BY id",
        "SELECT id, name, n, note FROM t ORDER BY name DESC, id",
        # Columns named alike, and an expression without a name of its own.
        "SELECT a.id, b.id, a.n + a.id FROM t a JOIN t b ON b.id = a.id + 1 ORDER BY a.id DESC",
        "SELECT count(*), max(name) FROM t",
    ],
)
def test_the_rows_are_fetchalls_in_its_order(conn, sql):
    assert all_rows(conn, sql) == conn.execute(sql).fetchall()


def test_parameters_and_no_rows(conn):
    sql = "SELECT id, note FROM t WHERE n > ? ORDER BY id"
    assert all_rows(conn, sql, (-1,)) == [(2, conn.execute(sql, (-1,)).fetchall()[0][1]), (3, None)]
    assert all_rows(conn, sql, (2**63 - 1,)) == []


def test_a_blob_is_refused_not_mangled(conn):
    with pytest.raises(sqlite3.OperationalError, match="BLOB"):
        all_rows(conn, "SELECT x'00ff'")
