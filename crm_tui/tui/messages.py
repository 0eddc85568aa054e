"""Messages the browser posts for a host app to take (the study app records them)."""

from __future__ import annotations

from typing import Any

from textual.message import Message


class QueryRun(Message):
    """The person ran a SOQL query in the console (the study records it while solving)."""

    def __init__(self, text: str, rows: int | None, error: str | None) -> None:
        super().__init__()
        self.text = text
        self.rows = rows  # total size, or None when the query failed
        self.error = error


class ReportRun(Message):
    """The person ran a report (the study records it while solving)."""

    def __init__(
        self,
        definition: dict[str, Any],
        rows: int | None,
        groups: int | None,
        error: str | None,
        ms: int,
    ) -> None:
        super().__init__()
        self.definition = definition  # the definition's document form (`to_dict`)
        self.rows = rows  # records counted, or None when the run failed
        self.groups = groups
        self.error = error
        self.ms = ms  # how long the run took
