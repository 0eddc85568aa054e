"""Audit mode (auditor and coordinator profiles only): every query with its gold answer,
the human answers and flags; flag a query."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Static

from crm_tui.study.service import AuditItem, Profile, StudyService
from crm_tui.tui.study.dialogs import FlagDialog, FlagInput
from crm_tui.tui.study.solve import clock_text
from crm_tui.tui.study.study_screen import StudyScreen
from crm_tui.tui.styles import css_next_to


def _detail(item: AuditItem) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_row(Text("Query", style="bold"), Text(item.query))
    grid.add_row(Text("Gold", style="bold"), Text(str(item.gold)))
    for answer in item.answers:
        score = "—" if answer.score is None else f"{answer.score:g}"
        time = "—" if answer.active_ms is None else clock_text(answer.active_ms)
        grid.add_row(
            Text(answer.annotator, style="bold"),
            Text(
                f"{answer.answer_raw} · {answer.status} · score {score} · "
                f"{time} active · confidence {answer.confidence or '—'}"
            ),
        )
    for flag in item.flags:
        grid.add_row(
            Text(f"⚑ {flag.annotator}", style="bold"),
            Text(
                f"{flag.category}: {flag.comment or ''}"
                + (f" (suggests {flag.suggested_answer})" if flag.suggested_answer else "")
            ),
        )
    return grid


class AuditScreen(StudyScreen):
    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Audit"
    BINDINGS = [
        Binding("f", "flag", "Flag query", id="audit-flag"),
        Binding("escape", "home", "Home", id="audit-home"),
    ]

    def __init__(self, service: StudyService, profile: Profile) -> None:
        super().__init__(service, profile)
        self.items: dict[str, AuditItem] = {}

    def compose_body(self) -> ComposeResult:
        yield Static("Audit: gold answers, human answers and flags", classes="screen-title")
        yield DataTable(id="audit-items", cursor_type="row", zebra_stripes=True)
        with VerticalScroll(id="audit-detail"):
            yield Static("", id="audit-detail-text")

    async def on_mount(self) -> None:
        self.title = "Audit"
        self.sub_title = self.person.name
        table = self.query_one("#audit-items", DataTable)
        for label, key, width in (
            ("idx", "idx", 6),
            ("Task", "task", 30),
            ("Gold", "gold", 20),
            ("Answers", "answers", 8),
            ("Right", "right", 6),
            ("Flags", "flags", 6),
        ):
            table.add_column(label, key=key, width=width)
        await self.reload()
        table.focus()

    async def reload(self) -> None:
        items = await self.study(self.service.audit_items, self.person.id)
        if items is None:
            return
        self.items = {str(item.item_id): item for item in items}
        table = self.query_one("#audit-items", DataTable)
        row = table.cursor_row
        table.clear()
        for item in items:
            right = sum(1 for a in item.answers if a.score is not None and a.score >= 1)
            table.add_row(
                str(item.idx),
                item.task,
                str(item.gold),
                str(len(item.answers)),
                str(right),
                str(len(item.flags)),
                key=str(item.item_id),
            )
        if items:
            table.move_cursor(row=min(row, len(items) - 1))

    def _current(self) -> AuditItem | None:
        table = self.query_one("#audit-items", DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return None if key is None else self.items[key]

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        key = event.row_key.value
        item = None if key is None else self.items.get(key)
        if item is not None:
            self.query_one("#audit-detail-text", Static).update(_detail(item))

    def action_flag(self) -> None:
        if self._current() is not None:
            self.app.push_screen(FlagDialog(self.service.study.protocol.taxonomy), self._flagged)

    async def _flagged(self, flag: FlagInput | None) -> None:
        item = self._current()
        if flag is None or item is None:
            return
        if (
            await self.study(
                self.service.flag_item,
                self.person.id,
                item.item_id,
                flag.category,
                flag.comment,
                flag.suggested_answer,
            )
            is not None
        ):
            self.notify(f"Query {item.idx} is flagged.", title="Flagged")
            await self.reload()

    def action_home(self) -> None:
        self.dismiss()
