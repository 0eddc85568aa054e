"""A list view: one object's records, sorted and filtered, paged as the cursor moves down."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from crm_tui.org.backends.interface import Cursor, Page, Sort
from crm_tui.org.schema.catalogue import get_object
from crm_tui.tui.browser.history import ListLocation, RecordLocation
from crm_tui.tui.browser.screens.browser_screen import BrowserScreen
from crm_tui.tui.widgets.filter_bar import FilterBar
from crm_tui.tui.widgets.link_table import LinkTable


class ListViewScreen(BrowserScreen):
    HELP_TITLE = "List view"
    BINDINGS = [
        ("s", "sort", "Sort by column"),
        ("f", "filter", "Filter"),
        ("x", "clear_filters", "Clear filters"),
        ("escape", "focus_table", "To the list"),
    ]

    def __init__(self, place: ListLocation) -> None:
        super().__init__()
        self.place = place
        self.obj = get_object(place.object_name)
        self.sort = place.sort or Sort(self.obj.default_sort)
        self.columns = [self.obj.field(name) for name in self.obj.list_columns]
        self.next_cursor: Cursor | None = None
        self.loading_page = False
        self.total: int | None = None

    def compose_body(self) -> ComposeResult:
        yield Static(self.obj.label_plural, classes="screen-title")
        yield FilterBar(self.obj, id="filter-bar")
        yield Static(id="list-status")
        table = LinkTable(id="records", cursor_type="cell", zebra_stripes=True)
        for fld in self.columns:
            arrow = ""
            if fld.name == self.sort.field:
                arrow = " ▼" if self.sort.descending else " ▲"
            table.add_column(fld.label + arrow, key=fld.name)
        yield table

    def on_mount(self) -> None:
        self.title = self.obj.label_plural
        self._show_status()
        self._load_page(None)
        self.load(
            lambda: self.crm.backend.count(self.obj.name, self.place.filters),
            self._show_count,
            group="count",
        )
        self.query_one(DataTable).focus()

    # ----------------------------------------------------------------- paging
    def _load_page(self, after: Cursor | None) -> None:
        self.loading_page = True
        self.load(
            lambda: self.crm.backend.page(
                self.obj.name, self.place.filters, self.sort, after, self.crm.settings.page_size
            ),
            self._show_page,
            group="page",
        )

    def _show_page(self, page: Page) -> None:
        table = self.query_one(DataTable)
        for record in page.records:
            table.add_row(*(page.display(f, record) for f in self.columns), key=record["Id"])
        self.next_cursor = page.next_cursor
        self.loading_page = False
        self._show_status()
        self._maybe_load_more(table.cursor_row)

    def _maybe_load_more(self, cursor_row: int) -> None:
        table = self.query_one(DataTable)
        near_end = cursor_row >= table.row_count - self.crm.settings.prefetch_rows
        if near_end and self.next_cursor is not None and not self.loading_page:
            self._load_page(self.next_cursor)

    def on_data_table_cell_highlighted(self, event: DataTable.CellHighlighted) -> None:
        self._maybe_load_more(event.coordinate.row)

    def _show_count(self, total: int) -> None:
        self.total = total
        self._show_status()

    def _show_status(self) -> None:
        shown = self.query_one(DataTable).row_count
        total = "…" if self.total is None else f"{self.total:,}"
        direction = "descending" if self.sort.descending else "ascending"
        sort_label = self.obj.field(self.sort.field).label
        filters = "; ".join(f.describe() for f in self.place.filters) or "none"
        self.query_one("#list-status", Static).update(
            f"{shown:,} of {total} records · sorted by {sort_label} ({direction}) · "
            f"filters: {filters}"
        )

    # ----------------------------------------------------------------- actions
    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        event.stop()
        if event.cell_key.row_key.value:
            self.crm.navigate(RecordLocation(event.cell_key.row_key.value))

    def action_sort(self) -> None:
        table = self.query_one(DataTable)
        self._sort_by(self.columns[table.cursor_column].name)

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        self._sort_by(str(event.column_key.value))

    def _sort_by(self, field_name: str) -> None:
        """Sort by a column; the same column again flips the direction."""
        descending = field_name == self.sort.field and not self.sort.descending
        self.crm.navigate(
            ListLocation(self.obj.name, self.place.filters, Sort(field_name, descending))
        )

    def action_filter(self) -> None:
        self.query_one("#filter-field").focus()

    def action_focus_table(self) -> None:
        self.query_one(DataTable).focus()

    def action_clear_filters(self) -> None:
        if self.place.filters:
            self.crm.navigate(ListLocation(self.obj.name, (), self.place.sort))

    def on_filter_bar_applied(self, event: FilterBar.Applied) -> None:
        self.crm.navigate(
            ListLocation(self.obj.name, (*self.place.filters, event.filter), self.place.sort)
        )
