"""What every browser screen shares: header, footer, the app it runs in, and the key a
host app adds (F2). Backend calls go off the UI loop with `tui.workers.fetch_then_show`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Header

from crm_tui.tui.browser.history import ViewState
from crm_tui.tui.typed_keys import OffersOnlyKeysThatAct
from crm_tui.tui.widgets.fitting_footer import FittingFooter

if TYPE_CHECKING:
    from crm_tui.tui.browser.browser_app import CrmApp


@dataclass(frozen=True)
class AnswerCandidate:
    """What a screen offers as an answer under the cursor (`u`, for a host app's
    `use_as_answer`): a record (its Id and object) or a value as shown (a state, a month)."""

    value: str
    record_id: str | None = None
    object_name: str | None = None  # the record's object, when known


class BrowserScreen(OffersOnlyKeysThatAct[None]):
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

    # How the person left this place before, given by the app before the screen mounts
    # (Back and Forward build a new screen): its table shows the same cursor and scroll.
    saved_view: ViewState | None = None
    # The table whose scroll was put back, and where to (until the person presses a key).
    scroll_put_back: tuple[DataTable[object], float, float] | None = None

    @property
    def crm(self) -> CrmApp:
        return self.app  # type: ignore[return-value]

    def view_state(self) -> ViewState | None:
        """The cursor and scroll of this screen's table (the focused one, else the first)."""
        focused = self.focused
        table = focused if isinstance(focused, DataTable) else None
        table = table or next(iter(self.query(DataTable)), None)
        if table is None or table.id is None:
            return None
        cursor = table.cursor_coordinate
        return ViewState(table.id, cursor.row, cursor.column, table.scroll_x, table.scroll_y)

    def restore_view(self, table: DataTable[object]) -> None:
        """Put `table`'s cursor and scroll back as they were left, once it has its rows
        (each screen calls this when it has filled a table)."""
        view = self.saved_view
        if view is None or view.table != table.id or not table.row_count:
            return
        self.saved_view = None  # once: later pages must not pull the cursor back
        table.move_cursor(row=min(view.row, table.row_count - 1), column=view.column, animate=False)
        table.focus()
        self.scroll_put_back = (table, view.scroll_x, view.scroll_y)
        self.call_after_refresh(table.scroll_to, view.scroll_x, view.scroll_y, animate=False)

    def on_fitting_footer_lines_changed(self) -> None:
        # The footer filled in after the scroll was put back: the table changed height, and
        # a scroll past its old end was cut short. Put it back again.
        if self.scroll_put_back is not None:
            table, scroll_x, scroll_y = self.scroll_put_back
            self.call_after_refresh(table.scroll_to, scroll_x, scroll_y, animate=False)

    def on_key(self) -> None:
        self.scroll_put_back = None  # the person is moving on: leave the scroll to them

    def compose(self) -> ComposeResult:
        yield Header()
        yield from self.compose_body()
        yield FittingFooter()

    def compose_body(self) -> ComposeResult:
        yield from ()

    def answer_candidate(self) -> AnswerCandidate | None:
        """What `u` would take as the answer here (None: nothing on this screen)."""
        return None
