"""A DataTable whose Enter shows in the footer: in the browser, Enter always opens something."""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.widgets import DataTable


class LinkTable(DataTable[object]):
    BINDINGS = [Binding("enter", "select_cursor", "Open", tooltip="Open what the cursor is on")]

    async def _on_idle(self, event: events.Idle) -> None:
        # DataTable sizes auto-width columns to new rows only when idle; cells drawn before
        # that stay cached at the header's width (Textual 8.2.8), so a list view filled in
        # one go sometimes showed every column cut short. Drop the cache when widths change.
        before = [column.get_render_width(self) for column in self.columns.values()]
        await super()._on_idle(event)
        if before != [column.get_render_width(self) for column in self.columns.values()]:
            self._clear_caches()
            self.refresh()
