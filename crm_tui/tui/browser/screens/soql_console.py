"""The SOQL console: type a query, see the records in a table or Salesforce's error.

Queries run in a thread on the backend's own `soql` (a backend that declares
`supports_soql`, as the local org and a Salesforce org do; on any other the console shows
as unavailable). Up and down recall
earlier queries, kept in the data folder between sessions.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Header, Static

from crm_tui import paths
from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import Backend
from crm_tui.org.soql import QueryResult, SalesforceError
from crm_tui.tui.messages import QueryRun
from crm_tui.tui.notices import explain, notify_error
from crm_tui.tui.styles import css_next_to
from crm_tui.tui.typed_keys import OffersOnlyKeysThatAct
from crm_tui.tui.widgets.fitting_footer import FittingFooter
from crm_tui.tui.widgets.history_input import HistoryInput, load_history, save_history
from crm_tui.tui.widgets.records_table import RecordsTable
from crm_tui.tui.workers import fetch_then_show

SHOWN_ROWS = 1000  # more would make the table slow to build; the status says how many exist
SHOWN_VALUES = 400  # distinct values recorded per query: enough to tell an answer was seen
SHOWN_LENGTH = 80  # longer texts (bodies, descriptions) are no Id, month or state


def shown_values(records: list[dict[str, Any]]) -> list[str]:
    """The distinct short values of the rows on screen, related records' included."""
    seen: dict[str, None] = {}
    stack: list[Any] = list(reversed(records))
    while stack and len(seen) < SHOWN_VALUES:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(v for k, v in reversed(value.items()) if k != "attributes")
        elif isinstance(value, list):
            stack.extend(reversed(value))
        elif isinstance(value, (str, int, float)) and not isinstance(value, bool):
            text = str(value)
            if text and len(text) <= SHOWN_LENGTH:
                seen[text] = None
    return list(seen)


EXAMPLE = "SELECT Id, CaseNumber, Subject, Account.Name FROM Case ORDER BY CreatedDate LIMIT 20"


def history_path() -> Path:
    return paths.data_home() / "soql_history.jsonl"


class SoqlConsole(OffersOnlyKeysThatAct[None]):
    BINDINGS = [Binding("escape", "app.pop_screen", "Close")]
    CSS_PATH = css_next_to(__file__)

    def __init__(self, history_file: Path | None | Literal["shared"] = "shared") -> None:
        """`history_file`: where up and down recall from: the data folder's by default,
        None for this session only (the study app keeps one per profile)."""
        super().__init__()
        self._history_file = history_path() if history_file == "shared" else history_file

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("SOQL console", classes="screen-title")
        yield HistoryInput(self._load_history(), placeholder=EXAMPLE, id="soql-query")
        yield Static(id="soql-error")
        yield Static(
            "Type a query and press Enter; up and down recall earlier ones.", id="soql-status"
        )
        yield RecordsTable(id="soql-records", zebra_stripes=True)
        yield FittingFooter()

    def on_mount(self) -> None:
        self.title = "SOQL console"
        self.query_one("#soql-error").display = False
        backend = self.app.backend  # type: ignore[attr-defined]
        if self._runner() is None:
            self.query_one(HistoryInput).disabled = True
            self._show_error(
                f"The SOQL console runs on a local org; {backend.name} does not offer it."
            )
        else:
            self.query_one(HistoryInput).focus()

    def _load_history(self) -> list[str]:
        if self._history_file is None:  # a file we could not read: start empty
            return []
        try:
            return load_history(self._history_file)
        except (CrmTuiError, OSError) as exc:
            self._history_file = None  # leave a file we cannot read as it is
            notify_error(
                self,
                exc,
                title="SOQL history",
                severity="warning",
                note="History is kept for this session only.",
            )
            return []

    def _runner(self) -> Callable[[str], QueryResult] | None:
        backend: Backend = self.app.backend  # type: ignore[attr-defined]
        return backend.soql if backend.supports_soql else None

    # ----------------------------------------------------------------- running
    def on_input_submitted(self, event: HistoryInput.Submitted) -> None:
        text = event.value.strip()
        runner = self._runner()
        if not text or runner is None:
            return
        box = self.query_one(HistoryInput)
        box.remember(text)
        self._save_history(box.history)
        self.query_one("#soql-status", Static).update("Running…")
        fetch_then_show(
            self,
            partial(runner, text),
            partial(self._ran, text),
            group="soql",
            failed=partial(self._failed, text),
        )

    def _ran(self, text: str, result: QueryResult) -> None:
        self._show_result(result)
        shown = shown_values(result.records[:SHOWN_ROWS])
        self.post_message(QueryRun(text, result.total_size, None, shown))

    def _failed(self, text: str, error: Exception) -> None:
        # SalesforceError included: shown in the words Salesforce uses, not as a notice
        self._show_error(error)
        self.post_message(QueryRun(text, None, getattr(error, "error_code", "error")))

    def _show_result(self, result: QueryResult) -> None:
        self.query_one("#soql-error").display = False
        self.query_one(RecordsTable).show_records(result.records[:SHOWN_ROWS])
        self.query_one("#soql-status", Static).update(_summary(result))

    def _show_error(self, error: Exception | str) -> None:
        if isinstance(error, SalesforceError):
            # a MALFORMED_QUERY message starts on a new line: the query, then a caret under it
            message = Text.assemble(
                (error.error_code, "bold"),
                ":",
                error.message if error.message.startswith("\n") else " " + error.message,
            )
        else:
            message = Text(error if isinstance(error, str) else explain(self, error))
        line = self.query_one("#soql-error", Static)
        line.update(message)
        line.display = True
        self.query_one("#soql-status", Static).update("")

    def _save_history(self, entries: list[str]) -> None:
        if self._history_file is None:
            return
        try:
            save_history(self._history_file, entries)
        except OSError as exc:
            self._history_file = None
            notify_error(self, exc, title="SOQL history not saved", severity="warning")


def _summary(result: QueryResult) -> str:
    shown = len(result.records)
    if shown == 0:
        # COUNT() answers with totalSize alone
        return f"COUNT(): {result.total_size:,}" if result.total_size else "No records"
    if shown > SHOWN_ROWS:
        return f"Showing the first {SHOWN_ROWS:,} of {shown:,} records"
    return f"{shown:,} record{'s' if shown != 1 else ''}"
