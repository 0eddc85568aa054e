"""A record page: labelled fields, lookups as links, related lists with counts."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import DataTable, Static

from crm_tui.org.backends.interface import RecordView, RelatedList
from crm_tui.org.schema.catalogue import FieldType, get_object
from crm_tui.tui.browser.history import ListLocation, RecordLocation
from crm_tui.tui.browser.screens.browser_screen import BrowserScreen
from crm_tui.tui.messages import UseAsAnswer
from crm_tui.tui.widgets.link_table import LinkTable

LINK_STYLE = "underline bold"
PREVIEW_WIDTHS = (26, 14)  # two columns that fit the related pane at 120 columns


class RecordScreen(BrowserScreen):
    HELP_TITLE = "Record page"
    BINDINGS = [
        ("u", "use_as_answer", "Use as my answer"),
        ("tab", "app.focus_next", "Next pane"),
    ]

    def __init__(self, place: RecordLocation) -> None:
        super().__init__()
        self.record_id = place.record_id
        self.view: RecordView | None = None
        self.related: dict[str, RelatedList] = {}

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
        self.load(lambda: backend.get_record(self.record_id), self._show_record)
        self.load(
            lambda: backend.related(self.record_id, rows), self._show_related, group="related"
        )

    # ----------------------------------------------------------------- showing
    def _show_record(self, view: RecordView) -> None:
        self.view = view
        obj = get_object(view.object_name)
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

    def _show_related(self, lists: list[RelatedList]) -> None:
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
        child = get_object(rel.child_object)
        self.query_one("#preview-title", Static).update(
            Text.assemble(
                (rel.label, "bold"), f": first {len(rel.page.records)} of {rel.count_label}"
            )
        )
        preview = self.query_one("#preview", DataTable)
        preview.clear(columns=True)
        columns = [child.field(name) for name in child.list_columns[:2]]
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

    def action_use_as_answer(self) -> None:
        if self.view is None:
            return
        # The app answers (the study app after the solve screen checked the record): saying
        # "is your answer" here would contradict a refusal.
        self.post_message(UseAsAnswer(self.view.record_id, self.view.object_name))
