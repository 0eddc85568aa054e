"""F1: every key of the browser, screen by screen."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from .base import BrowserScreen


def _keys_table(title: str, bindings: list[tuple[str, str]]) -> Table:
    table = Table(title=title, title_justify="left", show_header=False, box=None,
                  padding=(0, 2), expand=True)
    table.add_column("Key", style="bold", width=22)
    table.add_column("Does")
    for key, description in bindings:
        table.add_row(key, description)
    return table


def _describe(bindings) -> list[tuple[str, str]]:
    """(keys, description) of a BINDINGS list, whatever form its entries take."""
    out = []
    for entry in bindings:
        binding = entry if isinstance(entry, Binding) else Binding(*entry)
        keys = ", ".join(k.strip() for k in binding.key.split(","))
        out.append((keys, binding.description))
    return out


class HelpScreen(ModalScreen):
    """Lists the app's keys and those of every browser screen."""

    BINDINGS = [("escape,f1,q", "app.pop_screen", "Close help")]

    def compose(self) -> ComposeResult:
        from ..app import CrmApp  # the app module imports this one

        everywhere = _describe(CrmApp.BINDINGS) + [
            ("ctrl+p", "Command palette: open an object, jump to a record Id"),
            ("tab, shift+tab", "Move between panes"),
            ("ctrl+q", "Quit"),
        ]
        with VerticalScroll(id="help-body"):
            yield Static("[b]crm-tui keys[/b]  (Esc closes)")
            yield Static(_keys_table("Everywhere", everywhere))
            for screen in BrowserScreen.__subclasses__():
                yield Static(_keys_table(screen.HELP_TITLE, _describe(screen.BINDINGS)))
