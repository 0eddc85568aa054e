"""F1: every key of the browser, screen by screen."""

from __future__ import annotations

from collections.abc import Iterable

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from crm_tui.tui.browser.screens.browser_screen import BrowserScreen
from crm_tui.tui.styles import css_next_to

GLOBAL_EXTRA = [
    ("enter", "Open what the cursor is on: an object, a record, a link, a related list"),
    ("ctrl+p", "Palette: open an object, jump to a record Id"),
    ("enter on a report's group", "Open its records (the list view filtered to the group)"),
    ("tab, shift+tab", "Move between panes"),
    ("click a column header", "Sort a list view by that column (again: flip the order)"),
    ("ctrl+q", "Quit"),
]


class HelpScreen(ModalScreen[None]):
    """Lists the app's keys and those of every browser screen, leaving out the keys of a
    host app's actions that this app does not have."""

    CSS_PATH = css_next_to(__file__)

    BINDINGS = [("escape,f1,q", "app.pop_screen", "Close help")]

    def compose(self) -> ComposeResult:
        from crm_tui.tui.browser.browser_app import (
            CrmApp,  # the app module imports this one
        )

        table = Table(show_header=False, box=None, padding=(0, 2), expand=True)
        table.add_column("Key", style="bold", width=24)
        table.add_column("Does")
        app = self.app
        assert isinstance(app, CrmApp)
        everywhere = self._describe(app.app_keys()) + GLOBAL_EXTRA
        sections = [("Everywhere", everywhere + self._describe(BrowserScreen.BINDINGS))]
        sections += [
            (screen.HELP_TITLE, self._describe(vars(screen).get("BINDINGS", [])))
            for screen in BrowserScreen.__subclasses__()
        ]
        for title, rows in sections:
            if not rows:
                continue
            table.add_row(Text(title, style="bold underline"), "")
            for key, description in rows:
                table.add_row(key, description)
            table.add_row("", "")
        with VerticalScroll(id="help-body"):
            yield Static("[b]crm-tui keys[/b]  (Esc closes)\n")
            yield Static(table)

    def _describe(self, bindings: Iterable[BindingType]) -> list[tuple[str, str]]:
        """(keys as the footer shows them, what they do) for each entry of a BINDINGS list
        whose action this app offers."""
        out = []
        for entry in bindings:
            binding = entry if isinstance(entry, Binding) else Binding(*entry)
            namespace, _, action = binding.action.rpartition(".")
            if namespace == "app" and not self.app.offers(action):  # type: ignore[attr-defined]
                continue
            if not binding.description:  # e.g. Tab out of a field: listed once, by hand
                continue
            keys = ", ".join(self.app.get_key_display(b) for b in binding.make_bindings([binding]))
            out.append((keys, binding.tooltip or binding.description))
        return out
