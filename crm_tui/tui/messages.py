"""Messages the browser posts for other screens to take."""

from __future__ import annotations

from textual.message import Message


class UseAsAnswer(Message):
    """The person chose this record as their answer (the solve screen takes it)."""

    def __init__(self, record_id: str, object_name: str) -> None:
        super().__init__()
        self.record_id = record_id
        self.object_name = object_name


class QueryRun(Message):
    """The person ran a SOQL query in the console (the study records it while solving)."""

    def __init__(self, text: str, rows: int | None, error: str | None) -> None:
        super().__init__()
        self.text = text
        self.rows = rows  # total size, or None when the query failed
        self.error = error
