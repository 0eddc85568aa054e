"""A DataTable whose Enter shows in the footer: in the browser, Enter always opens something."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import DataTable


class LinkTable(DataTable):
    BINDINGS = [Binding("enter", "select_cursor", "Open", tooltip="Open what the cursor is on")]
