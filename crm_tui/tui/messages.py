"""Messages the browser posts for a host app to take (the study app records them)."""

from __future__ import annotations

from typing import Any

from textual.message import Message


class QueryRun(Message):
    """The person ran a SOQL query in the console (the study records it while solving)."""

    def __init__(
        self, text: str, rows: int | None, error: str | None, shown: list[str] | None = None
    ) -> None:
        super().__init__()
        self.text = text
        self.rows = rows  # total size, or None when the query failed
        self.error = error
        # the distinct short values on screen (Ids, months, states...): what the process
        # report checks the gold answer against ("saw it" or "never saw")
        self.shown = shown or []


class RowsShown(Message):
    """Records came on screen as a list page, search results or a record page's related
    rows (the study records their Ids: what a person saw, for the process report's
    "saw it" / "never saw")."""

    def __init__(self, via: str, object_name: str | None, ids: list[str], text: str = "") -> None:
        super().__init__()
        self.via = via  # "list", "search" or "related"
        self.object_name = object_name  # the list's object; None for search results
        self.ids = ids
        self.text = text  # the search text


class ReportRun(Message):
    """The person ran a report (the study records it while solving)."""

    def __init__(
        self,
        definition: dict[str, Any],
        rows: int | None,
        groups: int | None,
        error: str | None,
        ms: int,
        shown: list[str] | None = None,
    ) -> None:
        super().__init__()
        # What the result put on screen: each group's record Id (a lookup) and label, or
        # the records of an ungrouped report (for the process view's "seen").
        self.shown = shown or []
        self.definition = definition  # the definition's document form (`to_dict`)
        self.rows = rows  # records counted, or None when the run failed
        self.groups = groups
        self.error = error
        self.ms = ms  # how long the run took
