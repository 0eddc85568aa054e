"""Case texts set aside while the cases are drafted: temporary tables, not memory.

Cases are numbered in CreatedDate order, so every case is drafted before the first one is
written. Their texts (subject, description, e-mails, chat) are most of a draft's size:
held in memory they made most of the generator's peak (about 400 MiB at scale 100).
`TextSpill` writes a draft's texts to temporary tables of the org's own connection (SQLite
keeps them in a temporary file, never in the org) as soon as the draft is made, and reads
them back in the order the rows are written. Drafts are known by their number `j` (the
order they were made in), cases by their rank `k` (the order they are written in).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from typing import Any

FLUSH = 2000  # rows buffered per temporary table before one executemany
_EPOCH = datetime(1970, 1, 1)
_MICROSECOND = timedelta(microseconds=1)

# (draft, subject, description); (draft, e-mail in its thread, time key, subject, body,
# from, to, to Id, MessageDate); (draft, chat body); (rank, draft)
_TABLES = {
    "spill_case": "j INTEGER PRIMARY KEY, subject TEXT, description TEXT",
    "spill_mail": "j INTEGER, i INTEGER, at INTEGER, subject TEXT, body TEXT, "
    "from_address TEXT, to_address TEXT, to_ids TEXT, message_date TEXT",
    "spill_chat": "j INTEGER PRIMARY KEY, body TEXT",
    "spill_rank": "k INTEGER PRIMARY KEY, j INTEGER NOT NULL",
}


def time_key(t: datetime) -> int:
    """Microseconds since 1970 of a naive UTC time: sorts exactly as the datetimes do
    (the formatted MessageDate drops the seconds' fraction, so ties would differ)."""
    return (t - _EPOCH) // _MICROSECOND


class TextSpill:
    """The texts of the drafted cases, in temporary tables of `conn`."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        # In a file, whatever SQLite was built with: memory is what the spill is for.
        conn.execute("PRAGMA temp_store = FILE")
        for name, columns in _TABLES.items():
            conn.execute(f"CREATE TEMP TABLE {name} ({columns})")
        self._buffers: dict[str, list[tuple[Any, ...]]] = {name: [] for name in _TABLES}

    def _add(self, table: str, row: tuple[Any, ...]) -> None:
        buffer = self._buffers[table]
        buffer.append(row)
        if len(buffer) >= FLUSH:
            self._flush(table)

    def _flush(self, table: str) -> None:
        buffer = self._buffers[table]
        if buffer:
            marks = ", ".join("?" * len(buffer[0]))
            self.conn.executemany(f"INSERT INTO temp.{table} VALUES ({marks})", buffer)
            buffer.clear()

    # ------------------------------------------------------------------ writing aside
    def case(self, j: int, subject: str, description: str) -> None:
        self._add("spill_case", (j, subject, description))

    def mail(
        self,
        j: int,
        i: int,
        at: datetime,
        subject: str,
        body: str,
        from_address: str,
        to_address: str,
        to_ids: str,
        message_date: str,
    ) -> None:
        row = (j, i, time_key(at), subject, body, from_address, to_address, to_ids)
        self._add("spill_mail", (*row, message_date))

    def chat(self, j: int, body: str) -> None:
        self._add("spill_chat", (j, body))

    def rank(self, drafts_in_order: Iterable[int]) -> None:
        """Fix the order cases are written in: the `k`-th case is draft `drafts_in_order[k]`."""
        for table in _TABLES:
            self._flush(table)
        self.conn.executemany(
            "INSERT INTO temp.spill_rank VALUES (?, ?)", enumerate(drafts_in_order)
        )
        self.conn.execute("CREATE INDEX temp.spill_rank_j ON spill_rank (j)")

    # ------------------------------------------------------------------ reading back
    def _tuples(self, sql: str) -> sqlite3.Cursor:
        cursor = self.conn.cursor()
        cursor.row_factory = None  # plain tuples, whatever the connection's factory
        return cursor.execute(sql)

    def cases(self) -> Iterator[tuple[str, str]]:
        """(subject, description) of every case, in rank order."""
        yield from self._tuples(
            "SELECT c.subject, c.description FROM temp.spill_rank r "
            "JOIN temp.spill_case c ON c.j = r.j ORDER BY r.k"
        )

    def mails(self) -> Iterator[tuple[int, str, str, str, str, str, str]]:
        """(case rank, subject, body, from, to, to Id, MessageDate) of every e-mail, by
        time, then case, then place in the thread: the order of a stable sort by (time,
        case Id) of the e-mails listed case by case."""
        yield from self._tuples(
            "SELECT r.k, m.subject, m.body, m.from_address, m.to_address, m.to_ids, "
            "m.message_date FROM temp.spill_mail m JOIN temp.spill_rank r ON r.j = m.j "
            "ORDER BY m.at, r.k, m.i"
        )

    def chat_body(self, j: int) -> str:
        body: str = self.conn.execute(
            "SELECT body FROM temp.spill_chat WHERE j = ?", (j,)
        ).fetchone()[0]
        return body

    def close(self) -> None:
        for name in _TABLES:
            self.conn.execute(f"DROP TABLE temp.{name}")
