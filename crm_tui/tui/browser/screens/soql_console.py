"""The SOQL console: type a query, see the records in a table or Salesforce's error.

Queries run in a thread on the backend's own `soql` (the local org and a Salesforce org
both have one; a backend without it shows the console as unavailable). Up and down recall
earlier queries, kept in the data folder between sessions.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header, Static
from textual.worker import get_current_worker

from crm_tui import paths
from crm_tui.errors import CrmTuiError
from crm_tui.org.soql import QueryResult, SalesforceError
from crm_tui.tui.messages import QueryRun
from crm_tui.tui.widgets.history_input import HistoryInput, load_history, save_history
from crm_tui.tui.widgets.records_table import RecordsTable

SHOWN_ROWS = 1000  # more would make the table slow to build; the status says how many exist
EXAMPLE = "SELECT Id, CaseNumber, Subject, Account.Name FROM Case ORDER BY CreatedDate LIMIT 20"


def history_path() -> Path:
    return paths.data_home() / "soql_history.jsonl"


class SoqlConsole(Screen):
    BINDINGS = [Binding("escape", "app.pop_screen", "Close")]
    DEFAULT_CSS = """
    SoqlConsole #soql-error { color: $error; padding: 0 1; height: auto; }
    SoqlConsole #soql-status { color: $text-muted; padding: 0 1; height: 1; }
    SoqlConsole #soql-records { height: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._history_file: Path | None = history_path()

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("SOQL console", classes="screen-title")
        yield HistoryInput(self._load_history(), placeholder=EXAMPLE, id="soql-query")
        yield Static(id="soql-error")
        yield Static(
            "Type a query and press Enter; up and down recall earlier ones.", id="soql-status"
        )
        yield RecordsTable(id="soql-records", zebra_stripes=True)
        yield Footer()

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
        try:
            return load_history(self._history_file)
        except (CrmTuiError, OSError) as exc:
            self._history_file = None  # leave a file we cannot read as it is
            self.notify(
                f"{exc} (history kept for this session only)",
                title="SOQL history",
                severity="warning",
            )
            return []

    def _runner(self) -> Callable[[str], QueryResult] | None:
        return getattr(self.app.backend, "soql", None)  # type: ignore[attr-defined]

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
        self._run(runner, text)

    @work(thread=True, exclusive=True, group="soql")
    def _run(self, runner: Callable[[str], QueryResult], text: str) -> None:
        worker = get_current_worker()
        try:
            outcome: QueryResult | CrmTuiError = runner(text)
        except CrmTuiError as exc:  # SalesforceError included: the words Salesforce uses
            outcome = exc
        if not worker.is_cancelled:
            self.app.call_from_thread(self._deliver, text, outcome)

    def _deliver(self, text: str, outcome: QueryResult | CrmTuiError) -> None:
        if not self.is_attached:
            return
        if isinstance(outcome, CrmTuiError):
            self._show_error(outcome)
            self.post_message(QueryRun(text, None, getattr(outcome, "error_code", "error")))
        else:
            self._show_result(outcome)
            self.post_message(QueryRun(text, outcome.total_size, None))

    def _show_result(self, result: QueryResult) -> None:
        self.query_one("#soql-error").display = False
        self.query_one(RecordsTable).show_records(result.records[:SHOWN_ROWS])
        self.query_one("#soql-status", Static).update(_summary(result))

    def _show_error(self, error: CrmTuiError | str) -> None:
        if isinstance(error, SalesforceError):
            # a MALFORMED_QUERY message starts on a new line: the query, then a caret under it
            message = Text.assemble(
                (error.error_code, "bold"),
                ":",
                error.message if error.message.startswith("\n") else " " + error.message,
            )
        else:
            message = Text(str(error))
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
            self.notify(f"Cannot save the SOQL history: {exc}", severity="warning")


def _summary(result: QueryResult) -> str:
    shown = len(result.records)
    if shown == 0:
        # COUNT() answers with totalSize alone
        return f"COUNT(): {result.total_size:,}" if result.total_size else "No records"
    if shown > SHOWN_ROWS:
        return f"Showing the first {SHOWN_ROWS:,} of {shown:,} records"
    return f"{shown:,} record{'s' if shown != 1 else ''}"
