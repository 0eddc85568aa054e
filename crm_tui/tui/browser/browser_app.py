"""The record browser's app: the org on show, its settings, the place history and the
keys that work everywhere. It knows no study: the study app (`tui.study.study_app`)
extends it, and `tui.app.create_app` decides which of the two to build."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ClassVar

from textual.app import App, CSSPathType
from textual.binding import Binding, BindingType

from crm_tui.org.backends.interface import Backend
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
from crm_tui.tui.styles import css_next_to


class CrmApp(App):
    """The record browser on one org. Subclasses (the study app) add keys and screens."""

    CSS_PATH: ClassVar[CSSPathType | None] = css_next_to(__file__)  # what all screens share
    TITLE = "crm-tui"
    COMMANDS = App.COMMANDS | {BrowserCommands}
    BINDINGS = [
        Binding("f1", "help", "Help", id="help"),
        Binding("slash", "search", "Search", id="search"),
        Binding("backspace,alt+left", "back", "Back", id="back"),
        Binding("alt+right", "forward", "Forward", id="forward"),
        Binding("o", "objects", "Objects", id="objects"),
        Binding("f8", "soql_console", "SOQL console", id="soql-console", show=False),
    ]
    # (title, app action, help) of the screens outside the browser's history, for the palette
    SCREEN_COMMANDS: ClassVar[tuple[tuple[str, str, str], ...]] = (
        ("SOQL console", "soql_console", "Run SOQL queries on the org (f8)"),
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

    async def action_back(self) -> None:  # App's own action_back is a coroutine
        place = self.history.back()
        if place is not None:
            self._show(place)

    def action_forward(self) -> None:
        place = self.history.forward()
        if place is not None:
            self._show(place)

    def offers(self, action: str) -> bool:
        """Whether this app has `action`: browser screens carry keys for a host app (F2,
        `u`), which the plain browser does not offer."""
        return callable(getattr(self, f"action_{action}", None))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Back and forward show dimmed in the footer when there is nowhere to go; a
        host app's key hides in an app without its action."""
        if action == "back":
            return self.history.can_go_back or None
        if action == "forward":
            return self.history.can_go_forward or None
        return self.offers(action)

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
