"""The adjudication queue (coordinators and auditors): the flagged queries and those people
agree on against the gold, heaviest evidence first. For each: the query, the gold, every
answer with how many people and agents gave it, the flags, how the gold was made and the
decisions so far. Keep, correct or drop a query; make a new task-set version; see the
scores under the original and the corrected gold side by side."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widgets import DataTable, Input, Label, Select, Static

from crm_tui.tasks.scoring import gold_text
from crm_tui.tui.notices import explain
from crm_tui.tui.study.study_screen import StudyDialog, StudyScreen
from crm_tui.tui.styles import css_next_to
from crm_tui.tui.widgets.records_table import RecordsTable
from crm_tui.tui.workers import fetch_then_show

if TYPE_CHECKING:
    from textual.widget import Widget

    from crm_tui.study.adjudication.queue import QueueItem
    from crm_tui.study.service import Profile, StudyService, Taxonomy
    from crm_tui.tasks.gold_queries import GoldQuery

DECISION_TITLES = {"keep": "Keep the gold", "correct": "Correct the gold", "drop": "Drop the query"}


def _gold(value: str | list[str | None] | None) -> str:
    return "None (no record matches)" if value in (None, [None]) else gold_text(value)


def item_detail(item: QueueItem) -> Group:
    """Everything the decision rests on."""
    head = Table.grid(padding=(0, 1))
    head.add_row(Text("Query", style="bold"), Text(item.query))
    head.add_row(Text("Gold", style="bold"), Text(_gold(item.gold)))
    head.add_row(Text("Evidence", style="bold"), Text("; ".join(item.reasons) or "—"))
    head.add_row(Text("Status", style="bold"), Text(item.status))
    answers = Table(title="Answers", title_justify="left", expand=True)
    for column in ("Answer", "People", "Agents", "Agrees with gold"):
        answers.add_column(column)
    for group in item.answers:
        answers.add_row(
            _gold(group.answer),
            str(group.humans),
            str(group.agents),
            "yes" if group.agrees_with_gold else "no",
        )
    parts: list[Table | Text] = [head, answers]
    if item.flags:
        flags = Table(title="Flags", title_justify="left", expand=True)
        for column in ("By", "Category", "Comment", "Suggests"):
            flags.add_column(column)
        for flag in item.flags:
            flags.add_row(
                flag.annotator, flag.category, flag.comment or "", flag.suggested_answer or ""
            )
        parts.append(flags)
    derivation = Table.grid(padding=(0, 1))
    for key, value in item.derivation.items():
        derivation.add_row(Text(str(key), style="bold"), Text(str(value)))
    parts += [Text("How the gold was made", style="bold underline"), derivation]
    if item.gold_queries:
        parts.append(Text("The rows the gold rests on, on the org (g runs these)", style="bold"))
        for n, gold_query in enumerate(item.gold_queries, start=1):
            parts += [Text(f"{n}. {gold_query.what}"), Text(gold_query.soql, style="dim")]
    if item.decisions:
        decisions = Table(title="Decisions", title_justify="left", expand=True)
        for column in ("By", "Decision", "Category", "New gold", "Note", "When"):
            decisions.add_column(column)
        for d in item.decisions:
            decisions.add_row(
                d.adjudicator,
                d.decision,
                d.category,
                _gold(d.new_gold) if d.decision == "correct" else "",
                d.note or "",
                d.decided_at,
            )
        parts.append(decisions)
    return Group(*parts)


@dataclass(frozen=True)
class DecisionInput:
    category: str
    note: str
    new_gold: str | None


class DecisionDialog(StudyDialog[DecisionInput]):
    """A decision on one query: a category, a note and, to correct it, the new gold."""

    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Decide on a query"
    BINDINGS = [Binding("ctrl+s", "send", "Decide"), Binding("escape", "dismiss", "Cancel")]

    def __init__(self, decision: str, item: QueueItem, taxonomy: Taxonomy) -> None:
        super().__init__()
        self.decision = decision
        self.item = item
        self.taxonomy = taxonomy

    def compose(self) -> ComposeResult:
        with Vertical(id="decision-box"):
            yield Label(f"[b]{DECISION_TITLES[self.decision]}[/b] — query {self.item.idx}")
            yield Static(f"Gold now: {_gold(self.item.gold)}")
            yield Select(
                [(c.label, c.key) for c in self.taxonomy.categories],
                prompt="Category",
                id="decision-category",
            )
            if self.decision == "correct":
                yield Input(placeholder="The corrected gold answer", id="decision-gold")
            yield Input(placeholder="Note: why", id="decision-note")
            yield Static("Ctrl+S or Enter in the note decides; Esc cancels.", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#decision-category", Select).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "decision-note":
            self.action_send()
        else:
            self.focus_next()

    def action_send(self) -> None:
        category = self.query_one("#decision-category", Select).value
        if not isinstance(category, str):  # nothing picked (Select.NULL)
            self.notify("Pick a category first.", severity="error")
            self.query_one("#decision-category", Select).focus()
            return
        gold = None
        if self.decision == "correct":
            gold = self.query_one("#decision-gold", Input).value.strip()
        self.dismiss(
            DecisionInput(str(category), self.query_one("#decision-note", Input).value, gold)
        )


class AdjudicationScreen(StudyScreen):
    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Adjudication queue"
    AUTO_FOCUS = "#adjudication-items"
    BINDINGS = [
        Binding("k", "decide('keep')", "Keep", id="adjudicate-keep"),
        Binding("c", "decide('correct')", "Correct", id="adjudicate-correct"),
        Binding("x", "decide('drop')", "Drop", id="adjudicate-drop"),
        Binding("v", "make_version", "New version", id="adjudicate-version"),
        Binding(
            "o",
            "compare",
            "Original vs corrected",
            id="adjudicate-compare",
            tooltip="Scores under the original and the corrected gold, side by side",
        ),
        Binding(
            "g",
            "gold_rows",
            "Run gold queries",
            id="adjudicate-gold-rows",
            tooltip="Run on the org the queries that show the rows the gold rests on",
        ),
        Binding("escape", "leave", "Back", id="adjudicate-back"),
    ]

    def __init__(self, service: StudyService, profile: Profile) -> None:
        super().__init__(service, profile)
        self.items: dict[str, QueueItem] = {}
        self.comparing = False

    def compose_body(self) -> ComposeResult:
        yield Static("Adjudication queue: gold under review", classes="screen-title")
        yield Static("", id="adjudication-count")
        yield DataTable(id="adjudication-items", cursor_type="row", zebra_stripes=True)
        with VerticalScroll(id="adjudication-detail"):
            yield Static("", id="adjudication-detail-text")
            yield Vertical(id="adjudication-gold-rows")

    async def on_mount(self) -> None:
        self.title = "Adjudication"
        self.sub_title = self.person.name
        table = self.query_one("#adjudication-items", DataTable)
        for label, key, width in (
            ("idx", "idx", 6),
            ("Task", "task", 30),
            ("Weight", "weight", 7),
            ("Gold", "gold", 20),
            ("Status", "status", 30),
        ):
            table.add_column(label, key=key, width=width)
        await self.reload()
        table.focus()

    async def reload(self) -> None:
        items = await self.study(self.service.adjudication_queue, self.person.id)
        if items is None:
            return
        self.items = {str(item.idx): item for item in items}
        table = self.query_one("#adjudication-items", DataTable)
        current = self._current()
        table.clear()
        for item in items:
            table.add_row(
                str(item.idx),
                item.task,
                f"{item.weight:g}",
                _gold(item.gold),
                item.status,
                key=str(item.idx),
            )
        if current is not None and str(current.idx) in self.items:
            table.move_cursor(row=list(self.items).index(str(current.idx)))
        undecided = sum(not item.decided for item in items)
        self.query_one("#adjudication-count", Static).update(
            Text(f"{len(items):,} queries · {undecided:,} undecided", style="bold")
        )
        self._show_current()

    def _current(self) -> QueueItem | None:
        table = self.query_one("#adjudication-items", DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return None if key is None else self.items.get(key)

    def _show_current(self) -> None:
        item = self._current()
        if not self.comparing:
            self.query_one("#adjudication-detail-text", Static).update(
                item_detail(item) if item is not None else "Nothing to adjudicate."
            )

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id != "adjudication-items":
            return  # a table of gold rows
        self.comparing = False
        self._show_current()
        self.query_one("#adjudication-gold-rows", Vertical).remove_children()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "gold_rows":
            item = self._current()
            return item is not None and bool(item.gold_queries)
        return super().check_action(action, parameters)

    # ----------------------------------------------------------------- actions
    def action_decide(self, decision: str) -> None:
        item = self._current()
        if item is None:
            return

        async def decided(choice: DecisionInput | None) -> None:
            if choice is None:
                return
            made = await self.study(
                self.service.decide,
                self.person.id,
                item.idx,
                decision,
                choice.category,
                choice.note,
                choice.new_gold,
            )
            if made is not None:
                self.notify(f"Query {item.idx}: {made.decision}.", title="Decided")
                await self.reload()

        self.app.push_screen(
            DecisionDialog(decision, item, self.service.study.protocol.taxonomy), decided
        )

    async def action_make_version(self) -> None:
        made = await self.study(self.service.make_version, self.person.id)
        if made is not None:
            self.notify(f"Made {made.summary}.", title="New task-set version")
            await self.action_compare()

    async def action_compare(self) -> None:
        from crm_tui.study.adjudication.gold_tables import gold_table

        comparison = await self.study(self.service.gold_comparison, self.person.id)
        if comparison is None:
            if not self.comparing:
                self.notify("No corrected version yet: decide, then press v.", title="Compare")
            return
        self.comparing = True
        self.query_one("#adjudication-detail-text", Static).update(gold_table(comparison))

    def action_gold_rows(self) -> None:
        """Run the item's gold queries on the org in a thread; their rows below the detail."""
        item = self._current()
        if item is None or not item.gold_queries:
            return
        backend = self.app.backend  # type: ignore[attr-defined]  # StudyApp's org
        queries = item.gold_queries

        def run() -> list[tuple[GoldQuery, list[dict[str, Any]] | str]]:
            ran: list[tuple[GoldQuery, list[dict[str, Any]] | str]] = []
            for gold_query in queries:
                try:
                    ran.append((gold_query, backend.soql(gold_query.soql).records))
                except Exception as error:  # shown with its query: the others still run
                    ran.append((gold_query, explain(self, error)))
            return ran

        self.comparing = False
        self._show_current()
        fetch_then_show(self, run, self._show_gold_rows, group="gold-rows")

    async def _show_gold_rows(
        self, ran: list[tuple[GoldQuery, list[dict[str, Any]] | str]]
    ) -> None:
        box = self.query_one("#adjudication-gold-rows", Vertical)
        await box.remove_children()
        widgets: list[Widget] = []
        for n, (gold_query, rows) in enumerate(ran, start=1):
            count = f"{len(rows):,} rows" if isinstance(rows, list) else "failed"
            widgets.append(Static(f"{n}. {gold_query.what} — {count}", classes="gold-rows-title"))
            if isinstance(rows, str):
                widgets.append(Static(rows, markup=False))
            elif rows:
                table = RecordsTable(classes="gold-rows", zebra_stripes=True)
                widgets.append(table)
            else:
                widgets.append(Static("No rows.", classes="hint"))
        await box.mount_all(widgets)
        tables = iter(box.query(RecordsTable))
        for _, rows in ran:
            if isinstance(rows, list) and rows:
                next(tables).show_records(rows)

    def action_leave(self) -> None:
        self.dismiss()
