"""Many rows read in one step: SQLite writes them as one JSON text, which orjson parses.

`cursor.fetchall()` hands the GIL back and forth around every row's step and builds each
tuple in Python: for tens of thousands of rows that costs twice what this does, and a
thread reading so beside another Python thread slows both (each waits for the GIL at
every row). Here SQLite runs the whole statement in one step, without the GIL.

For statements of text, integer and NULL columns (a REAL would come back with SQLite's 15
significant digits, a BLOB is refused). Rows keep the statement's ORDER BY: SQLite feeds
the aggregate in the order of a sub-query it does not flatten into it.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import orjson


def all_rows(
    conn: sqlite3.Connection | sqlite3.Cursor, sql: str, params: tuple[Any, ...] = ()
) -> list[tuple[Any, ...]]:
    """What `conn.execute(sql, params).fetchall()` gives, as plain tuples."""
    width = len(conn.execute(f"SELECT * FROM ({sql}) LIMIT 0", params).description)
    columns = ", ".join(f"c{i}" for i in range(width))
    (text,) = conn.execute(
        f"WITH rows({columns}) AS ({sql}) SELECT json_group_array(json_array({columns})) FROM rows",
        params,
    ).fetchone()
    return list(map(tuple, orjson.loads(text)))
