"""The app shell and its factory, used by the CLI and the tests (Posting's pattern)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from textual.app import App
from textual.binding import Binding

from crm_tui.org.backends.interface import Backend
from crm_tui.org.backends.local import LocalBackend
from crm_tui.tui.browser.commands import BrowserCommands
from crm_tui.tui.browser.history import (
    History,
    Location,
    ObjectsLocation,
    SearchLocation,
)
from crm_tui.tui.browser.screens import screen_for
from crm_tui.tui.browser.screens.browser_help import HelpScreen
from crm_tui.tui.browser.screens.browser_screen import BrowserScreen
from crm_tui.tui.browser.screens.soql_console import SoqlConsole
from crm_tui.tui.browser.settings import BrowserSettings
from crm_tui.tui.messages import UseAsAnswer
from crm_tui.tui.study.results import ResultsScreen


class CrmApp(App):
    CSS_PATH = "app.tcss"
    TITLE = "crm-tui"
    COMMANDS = App.COMMANDS | {BrowserCommands}
    BINDINGS = [
        Binding("f1", "help", "Help", id="help"),
        Binding("slash", "search", "Search", id="search"),
        Binding("backspace,alt+left", "back", "Back", id="back"),
        Binding("alt+right", "forward", "Forward", id="forward"),
        Binding("o", "objects", "Objects", id="objects"),
        Binding("f8", "soql_console", "SOQL console", id="soql-console", show=False),
        Binding("f9", "results", "Results (coordinators)", id="results", show=False),
    ]

    def __init__(
        self,
        backend: Backend,
        study_path: Path | None = None,
        clock: Callable[[], float] = time.monotonic,
        settings: BrowserSettings | None = None,
    ) -> None:
        super().__init__()
        self.backend = backend
        self.study_path = study_path  # the solve and rating screens will open it
        self.clock = clock
        self.settings = settings or BrowserSettings()
        self.history = History()

    def on_mount(self) -> None:
        self.sub_title = f"{self.backend.name} · {self.backend.fingerprint}"
        self.navigate(ObjectsLocation())

    def on_unmount(self) -> None:
        self.backend.close()

    async def wait_for_background_writes(self) -> None:
        """Until every write queued off the UI loop is on disk (the browser writes none)."""

    # ----------------------------------------------------------------- navigation
    def navigate(self, place: Location) -> None:
        """Go to a place, remembering it in the history."""
        self.history.visit(place)
        self._show(place)

    def _show(self, place: Location) -> None:
        screen = screen_for(place)
        if isinstance(self.screen, BrowserScreen):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        self.refresh_bindings()

    def action_back(self) -> None:
        place = self.history.back()
        if place is not None:
            self._show(place)

    def action_forward(self) -> None:
        place = self.history.forward()
        if place is not None:
            self._show(place)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Back and forward show dimmed in the footer when there is nowhere to go."""
        if action == "back":
            return self.history.can_go_back or None
        if action == "forward":
            return self.history.can_go_forward or None
        if action == "to_study":  # the study app's; the plain browser has no study
            return False
        return True

    def on_use_as_answer(self, message: UseAsAnswer) -> None:
        """The plain browser has no query to answer (the study app takes the record)."""
        self.notify(
            "No query is open: answers are taken while solving a study query.",
            title="Use as my answer",
            severity="warning",
        )

    def action_objects(self) -> None:
        self.navigate(ObjectsLocation())

    def action_search(self) -> None:
        self.navigate(SearchLocation())

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_soql_console(self) -> None:
        if not isinstance(self.screen, SoqlConsole):
            self.push_screen(SoqlConsole())

    def action_results(self) -> None:
        if not isinstance(self.screen, ResultsScreen):
            self.push_screen(ResultsScreen())


def create_app(
    org_path: Path | str | None = None,
    study_path: Path | None = None,
    clock: Callable[[], float] = time.monotonic,
    settings: BrowserSettings | None = None,
    backend: Backend | None = None,
    study_name: str | None = None,
) -> CrmApp:
    """The app on a local org file (or on `backend`, e.g. a Salesforce org); with a study
    file, the study screens come first (study `study_name`, else the latest for the org)."""
    backend = backend or LocalBackend(org_path)
    if study_path is not None:
        from crm_tui.tui.study.study_app import StudyApp  # it subclasses CrmApp

        return StudyApp(
            backend,
            study_path=Path(study_path),
            clock=clock,
            settings=settings,
            study_name=study_name,
        )
    return CrmApp(backend, study_path=study_path, clock=clock, settings=settings)
