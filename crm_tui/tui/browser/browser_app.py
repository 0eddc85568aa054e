"""The record browser's app: the org on show, its settings, the place history and the
keys that work everywhere. It knows no study: the study app (`tui.study.study_app`)
extends it, and `tui.app.create_app` decides which of the two to build."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import ClassVar

from textual.app import App, CSSPathType
from textual.binding import Binding, BindingType
from textual.widgets import Input, TextArea

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import Backend
from crm_tui.org.reports.definition import ReportDefinition
from crm_tui.tui.browser import report_files
from crm_tui.tui.browser.commands import BrowserCommands
from crm_tui.tui.browser.history import (
    History,
    Location,
    ObjectsLocation,
    ReportBuilderLocation,
    ReportLocation,
    SearchLocation,
)
from crm_tui.tui.browser.screens import screen_for
from crm_tui.tui.browser.screens.browser_help import HelpScreen
from crm_tui.tui.browser.screens.browser_screen import BrowserScreen
from crm_tui.tui.browser.screens.saved_reports import SavedReportsScreen
from crm_tui.tui.browser.screens.soql_console import SoqlConsole
from crm_tui.tui.browser.screens.soql_console import history_path as soql_history_path
from crm_tui.tui.browser.settings import BrowserSettings
from crm_tui.tui.notices import notify_error
from crm_tui.tui.styles import css_next_to


class CrmApp(App[None]):
    """The record browser on one org. Subclasses (the study app) add keys and screens."""

    CSS_PATH: ClassVar[CSSPathType | None] = css_next_to(__file__)  # what all screens share
    TITLE = "crm-tui"
    # Only the app's own commands (with Quit last): Textual's built-ins (keys panel,
    # maximize, screenshot, theme) came first and do not belong in a study.
    COMMANDS = {BrowserCommands}
    BINDINGS = [
        Binding("f1", "help", "Help", id="help"),
        Binding("slash", "search", "Search", id="search"),
        Binding("backspace,alt+left", "back", "Back", id="back"),
        Binding("alt+right", "forward", "Forward", id="forward"),
        Binding("o", "objects", "Objects", id="objects"),
        Binding("r", "report", "Report builder", id="report"),
        Binding("R", "saved_reports", "Saved reports", id="saved-reports", show=False),
        Binding("f8", "soql_console", "SOQL console", id="soql-console", show=False),
        # Tab moves the focus at once, before the keys typed after it are handed on: as a
        # plain binding it waits for the key to come back up from the focused widget, and
        # the keys behind it went to the widget it left (a field, a list, a Select: lost).
        # No description: the help screens list Tab once, as moving between fields.
        Binding("tab", "next_field(1)", show=False, priority=True),
        Binding("shift+tab", "next_field(-1)", show=False, priority=True),
    ]
    # (title, app action, help) of the screens outside the browser's history, for the palette
    SCREEN_COMMANDS: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("SOQL console", "soql_console", "Run SOQL queries on the org (f8)"),
        ("Report builder", "report", "Group and summarise records in a report (r)"),
        ("Saved reports", "saved_reports", "Open a report you saved (R)"),
    )

    def __init__(
        self,
        backend: Backend,
        clock: Callable[[], float] = time.monotonic,
        settings: BrowserSettings | None = None,
    ) -> None:
        super().__init__()
        self.backend = backend
        self.clock = clock
        self.settings = settings or BrowserSettings()
        self.history = History()

    @classmethod
    def app_keys(cls) -> list[BindingType]:
        """The browser's app keys, then those a host app adds (for the help screens)."""
        classes = [c for c in reversed(cls.__mro__) if issubclass(c, CrmApp)]
        return [binding for c in classes for binding in vars(c).get("BINDINGS", [])]

    def on_mount(self) -> None:
        self.sub_title = f"{self.backend.name} · {self.backend.fingerprint}"
        self.navigate(ObjectsLocation())

    def on_unmount(self) -> None:
        self.backend.close()

    def _fatal_error(self) -> None:
        """Textual's crash report, without the locals of each frame: they can hold a
        request's `Authorization: Bearer ...` header or a password. The app still exits
        with return code 1 (the CLI turns it into the process's exit code)."""
        import rich
        from rich.segment import Segments
        from rich.traceback import Traceback

        self.bell()
        traceback = Traceback(show_locals=False, width=None, suppress=[rich])
        self._exit_renderables.append(
            Segments(self.console.render(traceback, self.console.options))
        )
        self._close_messages_no_wait()

    async def wait_for_background_writes(self) -> None:
        """Until every write queued off the UI loop is on disk (the browser writes none)."""

    # ----------------------------------------------------------------- navigation
    def navigate(self, place: Location) -> None:
        """Go to a place, remembering it in the history."""
        self._remember_view()
        self.history.visit(place)
        self._show(place)

    def _remember_view(self) -> None:
        """Keep how the place on show is left (cursor, scroll), for Back and Forward."""
        if isinstance(self.screen, BrowserScreen):
            self.history.remember_view(self.screen.view_state())

    def _show(self, place: Location) -> None:
        screen = screen_for(place)
        if isinstance(screen, BrowserScreen):
            screen.saved_view = self.history.current_view
        if isinstance(self.screen, BrowserScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        self.refresh_bindings()

    async def action_back(self) -> None:  # App's own action_back is a coroutine
        self._remember_view()
        place = self.history.back()
        if place is not None:
            self._show(place)

    def action_forward(self) -> None:
        self._remember_view()
        place = self.history.forward()
        if place is not None:
            self._show(place)

    def offers(self, action: str) -> bool:
        """Whether this app has `action`: browser screens carry keys for a host app (F2,
        `u`), which the plain browser does not offer."""
        return callable(getattr(self, f"action_{action}", None))

    def palette_offers(self, action: str) -> bool:
        """Whether the command palette lists the screen command running `action`: what
        the app would do now (a host app also hides what the person at work may not use)."""
        return self.check_action(action, ()) is not False

    @property
    def palette_offers_org(self) -> bool:
        """Whether the palette lists the org's objects and record Ids (a host app's first
        screen may keep the org out of sight)."""
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Back and forward show dimmed in the footer when there is nowhere to go; a
        host app's key hides in an app without its action."""
        if action == "back":
            return self.history.can_go_back or None
        if action == "forward":
            return self.history.can_go_forward or None
        if action == "next_field":
            focused = self.focused
            if isinstance(focused, TextArea) and focused.tab_behavior == "indent":
                return False
            # A screen that names Tab in its own footer keeps it, with a priority binding.
            key = "tab" if parameters and parameters[0] == 1 else "shift+tab"
            own = self.screen._bindings.key_to_bindings.get(key, [])
            return not any(binding.priority for binding in own)
        return self.offers(action)

    def action_next_field(self, step: int) -> None:
        focused = self.focused
        if (
            step > 0
            and getattr(self.screen, "TAB_TAKES_SUGGESTION", False)
            and isinstance(focused, Input)
            and len(focused._suggestion) > len(focused.value)  # shown in grey after the text
            and focused.cursor_at_end
        ):
            focused.value = focused._suggestion
            focused.cursor_position = len(focused.value)
            return
        if step > 0:
            self.screen.focus_next()
        else:
            self.screen.focus_previous()

    def action_objects(self) -> None:
        self.navigate(ObjectsLocation())

    def action_search(self) -> None:
        self.navigate(SearchLocation())

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def soql_history_file(self) -> Path | None:
        """Where the SOQL console keeps its history (None: this session only); a host
        app may keep one per person."""
        return soql_history_path()

    def action_soql_console(self) -> None:
        if not isinstance(self.screen, SoqlConsole):
            self.push_screen(SoqlConsole(self.soql_history_file()))

    # ----------------------------------------------------------------- reports
    def last_report(self) -> ReportDefinition | None:
        """The report last built or run in this session (r reopens it)."""
        for place in reversed(self.history.up_to_current()):
            if isinstance(place, ReportBuilderLocation | ReportLocation):
                return place.definition
        return None

    def action_report(self) -> None:
        """r: the report builder, on the report last built (a new one at first)."""
        self.navigate(ReportBuilderLocation(self.last_report()))

    def report_today(self) -> tuple[date, str] | None:
        """The day relative date ranges count from, and what it is (a host app's: the
        query being solved); None: the definition's own today, else the org's."""
        return None

    def reports_folder(self) -> Path:
        """Where saved reports live (a host app may keep one folder per person)."""
        return report_files.reports_home()

    def save_report(self, definition: ReportDefinition) -> None:
        try:
            path = report_files.save(self.reports_folder(), definition)
        except OSError as error:
            notify_error(self, error, title="Report not saved")
            return
        self.notify(f"Saved as {path.name}; R lists the saved reports.", title="Report saved")

    def action_saved_reports(self) -> None:
        if isinstance(self.screen, SavedReportsScreen):
            return
        folder = self.reports_folder()
        self.push_screen(
            SavedReportsScreen(folder, report_files.list_saved(folder)), self._open_saved
        )

    def _open_saved(self, path: Path | None) -> None:
        if path is None:
            return
        try:
            definition = report_files.load(path)
        except (CrmTuiError, OSError) as error:
            notify_error(self, error, title="Cannot open the report")
            return
        self.navigate(ReportBuilderLocation(definition))
