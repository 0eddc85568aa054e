"""The first screen: every object of the org with its record count."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from crm_tui.org.backends.interface import ObjectInfo
from crm_tui.tui.browser.history import ListLocation
from crm_tui.tui.browser.screens.browser_screen import BrowserScreen
from crm_tui.tui.widgets.link_table import LinkTable
from crm_tui.tui.workers import fetch_then_show


class ObjectListScreen(BrowserScreen):
    HELP_TITLE = "Object list"

    def compose_body(self) -> ComposeResult:
        yield Static("Objects", classes="screen-title")
        table = LinkTable(id="objects", cursor_type="row", zebra_stripes=True)
        table.add_column("Object", key="label", width=28)
        table.add_column("API name", key="name", width=26)
        table.add_column("Records", key="count", width=12)
        yield table

    def on_mount(self) -> None:
        self.title = "Objects"
        fetch_then_show(self, self.crm.backend.list_objects, self._show)

    def _show(self, objects: list[ObjectInfo]) -> None:
        table = self.query_one(DataTable)
        for info in objects:
            table.add_row(
                info.label_plural,
                info.name,
                Text(f"{info.count:,}", justify="right"),
                key=info.name,
            )
        table.focus()
        self.restore_view(table)  # back here: on the object it was left on

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value:
            self.crm.navigate(ListLocation(event.row_key.value))
