"""What every browser screen shares: header, footer, the app it runs in, and the key a
host app adds (F2). Backend calls go off the UI loop with `tui.workers.fetch_then_show`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header

if TYPE_CHECKING:
    from crm_tui.tui.browser.browser_app import CrmApp


@dataclass(frozen=True)
class AnswerCandidate:
    """What a screen offers as an answer under the cursor (`u`, for a host app's
    `use_as_answer`): a record (its Id and object) or a value as shown (a state, a month)."""

    value: str
    record_id: str | None = None
    object_name: str | None = None  # the record's object, when known


class BrowserScreen(Screen):
    """A screen of the record browser. Subclasses compose their body in `compose_body`."""

    HELP_TITLE = ""  # the section name on the F1 help screen
    # A key for a host app that opens the browser over its own screens (the study app):
    # listed before each screen's own keys so the footer shows it even when cut (while
    # solving, it is the way back to the query). An app without the action hides it.
    BINDINGS = [
        Binding(
            "f2",
            "app.leave_browser",
            "Back to study",
            tooltip="Back to the study (the query you are solving, or home)",
            id="leave-browser",
        )
    ]

    @property
    def crm(self) -> CrmApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Header()
        yield from self.compose_body()
        yield Footer()

    def compose_body(self) -> ComposeResult:
        yield from ()

    def answer_candidate(self) -> AnswerCandidate | None:
        """What `u` would take as the answer here (None: nothing on this screen)."""
        return None
