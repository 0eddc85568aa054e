"""A record page: labelled fields, lookups as links, related lists with counts; labels and
preview columns as the backend describes the objects."""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from crm_tui.org.backends.interface import FieldType, RecordView, RelatedList, SObject
from crm_tui.tui.browser.history import ListLocation, RecordLocation, ViewState
from crm_tui.tui.browser.screens.browser_screen import AnswerCandidate, BrowserScreen
from crm_tui.tui.messages import RowsShown
from crm_tui.tui.styles import css_next_to
from crm_tui.tui.widgets.link_table import LinkTable
from crm_tui.tui.workers import fetch_then_show

LINK_STYLE = "underline bold"
PREVIEW_WIDTHS = (26, 14)  # two columns that fit the related pane at 120 columns
# Widths at 120 columns and up; narrower, the first column gives way (`_fit`).
FIELD_WIDTHS = (22, 44)  # a field's label, its value
RELATED_WIDTHS = (28, 8)  # a related list's name, its count
NARROW_LABEL = 17  # a field label's width when the fields pane is narrow (80 columns)
CELL_PADDING = 2  # a DataTable column's padding, left and right


class RecordScreen(BrowserScreen):
    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Record page"
    BINDINGS = [
        # For a host app that takes a record as an answer (the study app, reading `view`);
        # an app without the action hides the key.
        ("u", "app.use_as_answer", "Use as my answer"),
        Binding("tab", "app.focus_next", "Next pane", priority=True),
    ]

    def __init__(self, place: RecordLocation) -> None:
        super().__init__()
        self.record_id = place.record_id
        self.view: RecordView | None = None
        self.related: dict[str, RelatedList] = {}
        self.child_objects: dict[str, SObject] = {}  # each related list's object, described
        self.previewed: str | None = None  # the related list the preview shows

    def compose_body(self) -> ComposeResult:
        yield Static("", id="record-title", classes="screen-title")
        with Horizontal(id="record-body"):
            with VerticalScroll(id="fields-pane"):
                yield LinkTable(id="fields", cursor_type="row")
                yield Static("", id="long-text")
            with Vertical(id="related-pane"):
                yield LinkTable(id="related", cursor_type="row")
                yield Static("", id="preview-title")
                yield LinkTable(id="preview", cursor_type="row")

    def on_mount(self) -> None:
        self.title = self.record_id
        self._set_columns("#fields", ("Field", "label"), ("Value", "value"))
        self._set_columns("#related", ("Related list", "name"), ("Records", "count"))
        backend, rows = self.crm.backend, self.crm.settings.related_preview_rows

        def record() -> tuple[RecordView, SObject]:
            view = backend.get_record(self.record_id)
            return view, backend.describe(view.object_name)

        def related() -> tuple[list[RelatedList], dict[str, SObject]]:
            lists = backend.related(self.record_id, rows)
            return lists, {r.child_object: backend.describe(r.child_object) for r in lists}

        fetch_then_show(self, record, self._show_record)
        fetch_then_show(self, related, self._show_related, group="related")

    def answer_candidate(self) -> AnswerCandidate | None:
        if self.view is None:
            return None
        return AnswerCandidate(self.view.record_id, self.view.record_id, self.view.object_name)

    # ----------------------------------------------------------------- showing
    def _show_record(self, fetched: tuple[RecordView, SObject]) -> None:
        view, obj = fetched
        self.view = view
        self.title = f"{obj.label}: {view.title}"
        self.query_one("#record-title", Static).update(
            Text.assemble(
                (f"{obj.label} ", "dim"), (view.title, "bold"), (f"  {view.record_id}", "dim")
            )
        )
        table = self._set_columns("#fields", ("Field", "label"), ("Value", "value"))
        long_texts = []
        for fv in view.fields:
            if fv.type is FieldType.LONG_TEXT:
                long_texts.append(Text.assemble((fv.label, "bold"), "\n", fv.display or "—"))
                value = Text(fv.display.split("\n", 1)[0][:60], style="dim")
            elif fv.link:
                value = Text("→ " + fv.display, style=LINK_STYLE)
            else:
                value = Text(fv.display)
            table.add_row(fv.label, value, key=fv.name)
        self.query_one("#long-text", Static).update(Text("\n\n").join(long_texts))
        if self.saved_view is None or self.saved_view.table == "fields":
            table.focus()  # not when Back is to put the cursor in a related table
        self.restore_view(table)

    def _show_related(self, fetched: tuple[list[RelatedList], dict[str, SObject]]) -> None:
        lists, self.child_objects = fetched
        self.related = {r.name: r for r in lists}
        table = self._set_columns("#related", ("Related list", "name"), ("Records", "count"))
        for rel in lists:
            table.add_row(
                Text(rel.label, style=LINK_STYLE if rel.count else ""),
                Text(rel.count_label, justify="right"),
                key=rel.name,
            )
        if not lists:
            return
        view = self.saved_view
        if view is not None and view.table == "preview" and view.context_row is not None:
            table.move_cursor(row=min(view.context_row, len(lists) - 1), animate=False)
        self._show_preview(lists[table.cursor_row])
        self.restore_view(table)

    def view_state(self) -> ViewState | None:
        state = super().view_state()
        if state is not None and state.table == "preview":  # whose preview it was
            state = replace(state, context_row=self.query_one("#related", DataTable).cursor_row)
        return state

    def _show_preview(self, rel: RelatedList) -> None:
        self.previewed = rel.name
        child = self.child_objects[rel.child_object]
        self.query_one("#preview-title", Static).update(
            Text.assemble(
                (rel.label, "bold"), f": first {len(rel.page.records)} of {rel.count_label}"
            )
        )
        preview = self.query_one("#preview", DataTable)
        preview.clear(columns=True)
        widths = _fit(PREVIEW_WIDTHS, self._room("#related-pane"), least_second=12)
        # The list columns less the lookup back to this record: every row would repeat it.
        names = [name for name in child.list_columns if name.lower() != rel.field.lower()]
        columns = [child.field(name) for name in names if child.has_field(name)][:2]
        for fld, width in zip(columns, widths):
            preview.add_column(fld.label, key=fld.name, width=width)
        for record in rel.page.records:
            preview.add_row(*(rel.page.display(f, record) for f in columns), key=record["Id"])
        ids = [str(record["Id"]) for record in rel.page.records]
        self.post_message(RowsShown("related", rel.child_object, ids))
        self.restore_view(preview)

    # ----------------------------------------------------------------- widths
    def _room(self, pane: str, scrollbar: int = 2) -> int:
        """Cells a table in `pane` can use, less its vertical scrollbar's."""
        return (self.query_one(pane).size.width or self.app.size.width // 2) - scrollbar

    def _set_columns(self, table_id: str, *columns: tuple[str, str]) -> DataTable[object]:
        """The table emptied, with its columns as wide as its pane allows now."""
        table = self.query_one(table_id, DataTable)
        if table_id == "#fields":
            room = self._room("#fields-pane")
            first = (
                FIELD_WIDTHS[0] if room >= sum(FIELD_WIDTHS) + 2 * CELL_PADDING else NARROW_LABEL
            )
            widths = (first, min(FIELD_WIDTHS[1], room - first - 2 * CELL_PADDING))
        else:
            widths = _fit(RELATED_WIDTHS, self._room("#related-pane", 0), least_second=7)
        table.clear(columns=True)
        for (heading, key), width in zip(columns, widths):
            table.add_column(heading, key=key, width=width)
        return table

    # ----------------------------------------------------------------- links
    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        key = event.row_key.value
        # A highlight the cursor has moved on from since (Back put it back) changes nothing.
        current = event.cursor_row == event.data_table.cursor_row
        if event.data_table.id == "related" and current and key != self.previewed:
            if key in self.related:
                self._show_preview(self.related[key])

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self._follow(event.data_table, event.row_key.value)

    def _follow(self, table: DataTable[object], key: str | None) -> None:
        if key is None:
            return
        if table.id == "fields" and self.view is not None:
            link = next((f.link for f in self.view.fields if f.name == key), None)
            if link:
                self.crm.navigate(RecordLocation(link))
        elif table.id == "related" and key in self.related:
            rel = self.related[key]
            self.crm.navigate(ListLocation(rel.child_object, (rel.filter,)))
        elif table.id == "preview":
            self.crm.navigate(RecordLocation(key))


def _fit(widths: tuple[int, int], room: int, least_second: int) -> tuple[int, int]:
    """Two column widths: as given when they fit `room`, else the second down to
    `least_second` (its header) and the first the rest, down to 8 cells."""
    first, second = widths
    room -= 2 * CELL_PADDING
    if first + second <= room:
        return widths
    second = max(least_second, min(second, room * 2 // 5))
    return max(8, room - second), second
