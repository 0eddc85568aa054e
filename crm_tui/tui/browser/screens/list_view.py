"""A list view: one object's records, sorted and filtered, paged as the cursor moves down.

Its columns, labels and filterable fields are the object as the backend describes it,
fetched with the first page (the org's own schema, not the static catalogue). Lookups
(and Ids held in text, as Case History's Old/New Value) show their record's name; Enter
on such a cell opens that record, anywhere else the row's own record (so does the first
column, the row's name). A lookup column sorts by the names shown."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from crm_tui.org.backends.interface import Cursor, Field, Page, Record, SObject, Sort, link_of
from crm_tui.tui.browser.history import ListLocation, RecordLocation
from crm_tui.tui.browser.screens.browser_screen import BrowserScreen
from crm_tui.tui.messages import RowsShown
from crm_tui.tui.styles import css_next_to
from crm_tui.tui.widgets.filter_bar import FilterBar
from crm_tui.tui.widgets.link_table import LinkTable
from crm_tui.tui.workers import fetch_then_show

LINK_STYLE = "underline"  # a lookup's name: Enter on it opens that record
NARROW_CELL = 32  # when the columns do not all fit, none is wider than this
CELL_PADDING = 2  # a DataTable column's padding, left and right
SCROLLBAR = 2  # the table's vertical scrollbar, there once the rows outgrow the screen


class ListViewScreen(BrowserScreen):
    CSS_PATH = css_next_to(__file__)
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
        self.obj: SObject | None = None  # as described with the first page
        self.sort: Sort | None = place.sort  # None: the object's default, known then too
        self.columns: list[Field] = []
        self.next_cursor: Cursor | None = None
        self.loading_page = False
        self.total: int | None = None
        self.links: dict[str, dict[str, str]] = {}  # row Id -> column -> linked record Id

    def compose_body(self) -> ComposeResult:
        yield Static(self.place.object_name, id="list-title", classes="screen-title")
        yield FilterBar(id="filter-bar")
        yield Static(id="list-status")
        yield LinkTable(id="records", cursor_type="cell", zebra_stripes=True)

    def on_mount(self) -> None:
        self.title = self.place.object_name
        backend, place, size = self.crm.backend, self.place, self.crm.settings.page_size
        if self.saved_view is not None:  # back here: first the rows down to where it was
            size = max(size, self.saved_view.row + 1 + self.crm.settings.prefetch_rows)

        def first_page() -> tuple[SObject, Sort, Page]:
            obj = backend.describe(place.object_name)
            sort = place.sort or Sort(obj.default_sort)
            return obj, sort, backend.page(obj.name, place.filters, sort, None, size)

        self.loading_page = True
        fetch_then_show(self, first_page, self._show_first_page, group="page")
        fetch_then_show(
            self,
            lambda: backend.count(place.object_name, place.filters),
            self._show_count,
            group="count",
        )
        self.query_one(DataTable).focus()

    def _show_first_page(self, first: tuple[SObject, Sort, Page]) -> None:
        obj, sort, page = first
        self.obj, self.sort = obj, sort
        table = self.query_one(DataTable)
        columns = [obj.field(name) for name in obj.list_columns if obj.has_field(name)]
        headers = [fld.label + self._arrow(fld, sort) for fld in columns]
        cells = [[page.display(fld, record) for record in page.records] for fld in columns]
        room = (table.size.width or self.app.size.width) - SCROLLBAR
        widths = fitting_widths(headers, cells, room)
        self.columns = columns[: len(widths) or len(columns)]
        left_out = [fld.label for fld in columns[len(self.columns) :]]
        self.title = obj.label_plural
        self.query_one("#list-title", Static).update(
            obj.label_plural
            + (f" · not shown at this width: {', '.join(left_out)}" if left_out else "")
        )
        self.query_one(FilterBar).show_object(obj)
        for index, (fld, header) in enumerate(zip(self.columns, headers)):
            table.add_column(header, key=fld.name, width=widths[index] if widths else None)
        self._show_page(page)

    @staticmethod
    def _arrow(fld: Field, sort: Sort) -> str:
        if fld.name != sort.field:
            return ""
        return " ▼" if sort.descending else " ▲"

    # ----------------------------------------------------------------- paging
    def _load_page(self, after: Cursor) -> None:
        self.loading_page = True
        fetch_then_show(
            self,
            lambda: self.crm.backend.page(
                self.place.object_name,
                self.place.filters,
                self.sort,
                after,
                self.crm.settings.page_size,
            ),
            self._show_page,
            group="page",
        )

    def _show_page(self, page: Page) -> None:
        table = self.query_one(DataTable)
        for record in page.records:
            links = self._note_links(record)
            table.add_row(
                *(
                    Text(page.display(f, record), style=LINK_STYLE)
                    if f.name in links
                    else page.display(f, record)
                    for f in self.columns
                ),
                key=record["Id"],
            )
        self.next_cursor = page.next_cursor
        self.loading_page = False
        ids = [str(record["Id"]) for record in page.records]
        self.post_message(RowsShown("list", self.place.object_name, ids))
        self._show_status()
        self.restore_view(table)
        self._maybe_load_more(table.cursor_row)

    def _note_links(self, record: Record) -> dict[str, str]:
        """The record's cells that link to another record (column -> its Id), noted."""
        if self.obj is None:
            return {}
        links = {
            f.name: link
            for f in self.columns[1:]  # the first column names the row itself
            if (link := link_of(self.obj, f, record.get(f.name)))
        }
        if links:
            self.links[record["Id"]] = links
        return links

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
        if self.obj is None or self.sort is None:  # described with the first page
            return
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
        row = event.cell_key.row_key.value
        if row:
            link = self.links.get(row, {}).get(str(event.cell_key.column_key.value))
            self.crm.navigate(RecordLocation(link or row))

    def action_sort(self) -> None:
        table = self.query_one(DataTable)
        if self.columns:
            self._sort_by(self.columns[table.cursor_column].name)

    def on_data_table_header_selected(self, event: DataTable.HeaderSelected) -> None:
        event.stop()
        self._sort_by(str(event.column_key.value))

    def _sort_by(self, field_name: str) -> None:
        """Sort by a column; the same column again flips the direction."""
        descending = (
            self.sort is not None and field_name == self.sort.field and not self.sort.descending
        )
        self.crm.navigate(
            ListLocation(self.place.object_name, self.place.filters, Sort(field_name, descending))
        )

    def action_filter(self) -> None:
        self.query_one("#filter-field").focus()

    def action_focus_table(self) -> None:
        self.query_one(DataTable).focus()

    def action_clear_filters(self) -> None:
        if self.place.filters:
            self.crm.navigate(ListLocation(self.place.object_name, (), self.place.sort))

    def on_filter_bar_applied(self, event: FilterBar.Applied) -> None:
        self.crm.navigate(
            ListLocation(
                self.place.object_name, (*self.place.filters, event.filter), self.place.sort
            )
        )


def fitting_widths(headers: list[str], cells: list[list[str]], room: int) -> list[int]:
    """Column widths for a table `room` cells wide: [] when every column fits as wide as
    its header and first page (the table sizes them itself); else the first columns (the
    object's most telling: name, subject, status...) at most NARROW_CELL wide, as many as
    fit, rather than every column squeezed to nothing."""
    natural = [
        max([cell_len(header)] + [cell_len(cell) for cell in column])
        for header, column in zip(headers, cells)
    ]
    if sum(width + CELL_PADDING for width in natural) <= room:
        return []
    widths: list[int] = []
    used = 0
    for header, width in zip(headers, natural):
        width = max(min(width, NARROW_CELL), min(cell_len(header), NARROW_CELL))
        if widths and used + width + CELL_PADDING > room:
            break
        widths.append(width)
        used += width + CELL_PADDING
    for index, width in enumerate(widths):  # the room left to the columns cut short
        wider = min(natural[index], width + room - used)
        used += wider - width
        widths[index] = wider
    return widths
