"""What every browser screen shares: header, footer, and backend calls off the UI loop."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, Header

from crm_tui.errors import CrmTuiError

if TYPE_CHECKING:
    from crm_tui.tui.browser.browser_app import CrmApp

T = TypeVar("T")


class BrowserScreen(Screen):
    """A screen of the record browser. Subclasses compose their body in `compose_body`."""

    HELP_TITLE = ""  # the section name on the F1 help screen
    # Listed before each screen's own keys so the footer shows it even when cut: while
    # solving, it is the way back to the query. Hidden unless a study screen lies below.
    BINDINGS = [Binding("f2", "app.to_study", "Back to study", id="to-study")]

    @property
    def crm(self) -> CrmApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        yield Header()
        yield from self.compose_body()
        yield Footer()

    def compose_body(self) -> ComposeResult:
        yield from ()

    def load(self, fetch: Callable[[], T], show: Callable[[T], None], group: str = "load") -> None:
        """Run `fetch` (a backend call) in a thread, then `show` its result on the UI loop.

        A newer load in the same group cancels an older one, and a result that arrives
        after the screen has gone is dropped. User errors become a notification.
        """

        def job() -> None:
            try:
                result = fetch()
            except CrmTuiError as exc:
                self.app.call_from_thread(self._failed, str(exc))
                return
            self.app.call_from_thread(self._deliver, show, result)

        self.run_worker(
            job,
            thread=True,
            exclusive=True,
            group=group,
            description=f"{type(self).__name__}: {group}",
        )

    def _deliver(self, show: Callable[[T], None], result: T) -> None:
        if self.is_attached:
            show(result)

    def _failed(self, message: str) -> None:
        self.notify(message, title="Cannot do that", severity="error")
