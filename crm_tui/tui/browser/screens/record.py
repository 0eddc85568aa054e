"""A record page: labelled fields, lookups as links, related lists with counts; labels and
preview columns as the backend describes the objects."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from crm_tui.org.backends.interface import FieldType, RecordView, RelatedList, SObject
from crm_tui.tui.browser.history import ListLocation, RecordLocation
from crm_tui.tui.browser.screens.browser_screen import AnswerCandidate, BrowserScreen
from crm_tui.tui.styles import css_next_to
from crm_tui.tui.widgets.link_table import LinkTable
from crm_tui.tui.workers import fetch_then_show

LINK_STYLE = "underline bold"
PREVIEW_WIDTHS = (26, 14)  # two columns that fit the related pane at 120 columns


class RecordScreen(BrowserScreen):
    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Record page"
    BINDINGS = [
        # For a host app that takes a record as an answer (the study app, reading `view`);
        # an app without the action hides the key.
        ("u", "app.use_as_answer", "Use as my answer"),
        ("tab", "app.focus_next", "Next pane"),
    ]

    def __init__(self, place: RecordLocation) -> None:
        super().__init__()
        self.record_id = place.record_id
        self.view: RecordView | None = None
        self.related: dict[str, RelatedList] = {}
        self.child_objects: dict[str, SObject] = {}  # each related list's object, described

    def compose_body(self) -> ComposeResult:
        yield Static("", id="record-title", classes="screen-title")
        with Horizontal(id="record-body"):
            with VerticalScroll(id="fields-pane"):
                fields = LinkTable(id="fields", cursor_type="row")
                fields.add_column("Field", key="label", width=22)
                fields.add_column("Value", key="value", width=44)
                yield fields
                yield Static("", id="long-text")
            with Vertical(id="related-pane"):
                related = LinkTable(id="related", cursor_type="row")
                related.add_column("Related list", key="name", width=28)
                related.add_column("Records", key="count", width=8)
                yield related
                yield Static("", id="preview-title")
                yield LinkTable(id="preview", cursor_type="row")

    def on_mount(self) -> None:
        self.title = self.record_id
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
        table = self.query_one("#fields", DataTable)
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
        table.focus()

    def _show_related(self, fetched: tuple[list[RelatedList], dict[str, SObject]]) -> None:
        lists, self.child_objects = fetched
        self.related = {r.name: r for r in lists}
        table = self.query_one("#related", DataTable)
        for rel in lists:
            table.add_row(
                Text(rel.label, style=LINK_STYLE if rel.count else ""),
                Text(rel.count_label, justify="right"),
                key=rel.name,
            )
        if lists:
            self._show_preview(lists[0])

    def _show_preview(self, rel: RelatedList) -> None:
        child = self.child_objects[rel.child_object]
        self.query_one("#preview-title", Static).update(
            Text.assemble(
                (rel.label, "bold"), f": first {len(rel.page.records)} of {rel.count_label}"
            )
        )
        preview = self.query_one("#preview", DataTable)
        preview.clear(columns=True)
        columns = [child.field(name) for name in child.list_columns[:2] if child.has_field(name)]
        for fld, width in zip(columns, PREVIEW_WIDTHS):
            preview.add_column(fld.label, key=fld.name, width=width)
        for record in rel.page.records:
            preview.add_row(*(rel.page.display(f, record) for f in columns), key=record["Id"])

    # ----------------------------------------------------------------- links
    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "related" and event.row_key.value in self.related:
            self._show_preview(self.related[event.row_key.value])

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self._follow(event.data_table, event.row_key.value)

    def _follow(self, table: DataTable, key: str | None) -> None:
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
