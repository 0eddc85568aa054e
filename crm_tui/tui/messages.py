"""Messages the browser posts for a host app to take (the study app records them)."""

from __future__ import annotations

from textual.message import Message


class QueryRun(Message):
    """The person ran a SOQL query in the console (the study records it while solving)."""

    def __init__(self, text: str, rows: int | None, error: str | None) -> None:
        super().__init__()
        self.text = text
        self.rows = rows  # total size, or None when the query failed
        self.error = error
