"""A report's result: its groups with their summaries and the grand total in a grid (a
matrix for two groupings when asked, with each row's and column's subtotal and the grand
total), a bar chart beside it, or its records when it has no grouping.

The report runs in a worker (`Backend.run_report`); Esc cancels it. Enter on a group
opens its records (the list view filtered to that group, when list filters can say it);
`u` takes the group's value (the owner, the state, the month) or the record as the
answer, in a host app that offers it (the study app).
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.events import Resize
from textual.widgets import DataTable, Static
from textual.worker import Worker
from textual_plotext import PlotextPlot

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import Filter, Operator
from crm_tui.org.reports.definition import (
    AGE,
    DateGranularity,
    GroupKey,
    ReportDefinition,
    ReportResult,
    summary_unit,
    to_dict,
)
from crm_tui.org.reports.matrix import Matrix, is_matrix, run_matrix, shown_summary
from crm_tui.org.reports.resolve import range_days
from crm_tui.tui.browser.history import ListLocation, RecordLocation, ReportBuilderLocation
from crm_tui.tui.browser.screens.browser_screen import AnswerCandidate, BrowserScreen
from crm_tui.tui.messages import ReportRun
from crm_tui.tui.notices import explain
from crm_tui.tui.styles import css_next_to
from crm_tui.tui.workers import fetch_then_show

DASH = "—"
CHART_BARS = 25  # more bars than this do not read at 120 columns
TOTAL = "total"


def show_value(value: float | int | str | None) -> str:
    if value is None:
        return DASH
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.2f}"
    return str(value)


def group_filters(
    definition: ReportDefinition, result: ReportResult, keys: tuple[GroupKey, ...]
) -> tuple[Filter, ...]:
    """The list-view filters that show the records of the group with `keys`, or a
    CrmTuiError saying why list filters cannot (a parent field, a duration, a cross
    filter, months pooled across years)."""
    d = definition
    durations = {x.name for x in d.durations} | {AGE.name}
    filters: list[Filter] = []

    def plain(path: str, part: str) -> None:
        if "." in path or path in durations:
            raise CrmTuiError(f"{part} {path} is not a field of {d.object_name} itself")

    if d.cross_filters:
        raise CrmTuiError("a cross filter cannot be a list view filter")
    for f in d.filters:
        plain(f.field, "The filter on")
        filters.append(Filter(f.field, f.operator, f.value))
    today = result.today or d.today
    for r in d.date_ranges:
        plain(r.field, "The date range on")
        if today is None:
            raise CrmTuiError("the report's today is unknown")
        start, end = range_days(r.range, today)
        filters += [
            Filter(r.field, Operator.GE, start.isoformat()),
            Filter(r.field, Operator.LT, end.isoformat()),
        ]
    for grouping, key in zip(d.groupings, keys, strict=False):
        plain(grouping.field, "The grouping")
        if key.value is None:
            filters.append(Filter(grouping.field, Operator.IS_EMPTY))
            continue
        gran = grouping.granularity
        if gran is None:
            filters.append(Filter(grouping.field, Operator.EQ, key.record_id or key.value))
            continue
        if gran is DateGranularity.MONTH_OF_YEAR:
            raise CrmTuiError("a month pooled across years is not one range of days")
        text = str(key.value)
        if gran is DateGranularity.DAY:
            text = f"{text}..{text}"
        elif gran is DateGranularity.WEEK:
            text = f"{text}..{date.fromisoformat(text) + timedelta(days=6)}"
        start, end = range_days(text, today or date.today())  # a calendar range: no today
        filters += [
            Filter(grouping.field, Operator.GE, start.isoformat()),
            Filter(grouping.field, Operator.LT, end.isoformat()),
        ]
    return tuple(filters)


STACK_BELOW_WIDTH = 100  # narrower terminals show the chart under the grid


class ReportScreen(BrowserScreen):
    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Report result"
    BINDINGS = [
        Binding("escape", "cancel_or_edit", "Cancel / edit"),
        Binding("e", "edit", "Edit report"),
        Binding("enter", "drill_down", "Records of this group", show=False),
        # For a host app that takes an answer (the study app); hidden without the action.
        Binding("u", "app.use_as_answer", "Use as my answer"),
        Binding("tab", "app.focus_next", "Next pane", show=False, priority=True),
    ]

    def __init__(self, place: Any) -> None:
        super().__init__()
        self.definition: ReportDefinition = place.definition
        self.result: ReportResult | None = None
        self.worker: Worker[None] | None = None
        self.started = 0.0
        self.matrix_columns: list[GroupKey] = []
        self.matrix_rows: list[GroupKey] = []

    def compose_body(self) -> ComposeResult:
        title = self.definition.name or f"{self.definition.object_name} report"
        yield Static(title, id="report-title", classes="screen-title")
        yield Static("", id="report-status")
        with Horizontal(id="report-result"):
            yield DataTable(id="report-grid", cursor_type="row", zebra_stripes=True)
            yield PlotextPlot(id="report-chart")

    def on_resize(self, event: Resize) -> None:
        # Side by side, grid and chart each get half: at 80 columns the grid's summary
        # columns would be cut, so the chart goes under it.
        stacked = event.size.width < STACK_BELOW_WIDTH
        self.query_one("#report-result").set_class(stacked, "-stacked")

    def on_mount(self) -> None:
        self.title = self.definition.name or "Report"
        backend, definition = self.crm.backend, self.definition
        self.query_one("#report-chart").display = False
        if not backend.supports_reports:
            self._status(Text(f"{backend.name} does not run reports.", style="bold red"))
            return
        self._status("Running the report… (Esc cancels)")
        self.started = self.crm.clock()

        # A host app's day (the query being solved) counts before the definition's own.
        given = self.crm.report_today()
        today = given[0] if given else None

        def run_one(d: ReportDefinition) -> ReportResult:
            return backend.run_report(d, today)

        def run() -> tuple[ReportResult, Matrix | None]:
            if is_matrix(definition):
                return run_matrix(run_one, definition)
            return run_one(definition), None

        self.worker = fetch_then_show(
            self,
            run,
            self._show_result,
            group="report",
            failed=self._failed,
        )
        self.query_one("#report-grid").focus()

    def _elapsed_ms(self) -> int:
        return int((self.crm.clock() - self.started) * 1000)

    def _status(self, text: str | Text) -> None:
        self.query_one("#report-status", Static).update(text)

    # ----------------------------------------------------------------- running
    def _failed(self, error: Exception) -> None:
        self.worker = None
        message = explain(self, error)
        self._status(Text(message.splitlines()[0] if message else "", style="bold red"))
        self.post_message(
            ReportRun(to_dict(self.definition), None, None, message, self._elapsed_ms())
        )

    def _show_result(self, answer: tuple[ReportResult, Matrix | None]) -> None:
        result, matrix = answer
        self.worker = None
        self.result = result
        ms = self._elapsed_ms()
        groups = len(result.groups) if result.grouping_labels else None
        self.post_message(
            ReportRun(
                to_dict(self.definition), result.record_count, groups, None, ms, shown(result)
            )
        )
        table = self.query_one("#report-grid", DataTable)
        if not result.grouping_labels:
            self._show_rows(table, result)
        elif matrix is not None:
            self._show_matrix(table, result, matrix)
        else:
            self._show_groups(table, result)
        parts = [f"{result.record_count:,} records"]
        if result.grouping_labels:
            parts.append(f"{result.group_count or len(result.groups):,} groups")
            if len(result.groups) < (result.group_count or 0):
                parts.append(f"top {len(result.groups)} shown")
        elif result.truncated:
            parts.append(f"first {len(result.rows):,} rows shown")
        if result.today is not None:
            parts.append(f"today = {result.today}")
        parts.append(f"{ms / 1000:.2f} s")
        self._status(" · ".join(parts))
        self._show_chart(result)

    def _show_groups(self, table: DataTable[str | Text], result: ReportResult) -> None:
        for i, label in enumerate(result.grouping_labels):
            table.add_column(label, key=f"g{i}")
        for key in result.summaries:
            table.add_column(_summary_label(key, self.definition), key=key)
        for i, group in enumerate(result.groups):
            cells = [k.label for k in group.keys] + [
                Text(show_value(v), justify="right") for v in group.values
            ]
            table.add_row(*cells, key=str(i))
        blanks = [""] * (len(result.grouping_labels) - 1)
        table.add_row(
            Text("Grand total", style="bold"),
            *blanks,
            *(Text(show_value(v), style="bold", justify="right") for v in result.total),
            key=TOTAL,
        )

    def _show_matrix(
        self, table: DataTable[str | Text], result: ReportResult, matrix: Matrix
    ) -> None:
        """Rows × columns of the shown summary, each row's subtotal at its end, and a last
        row of column subtotals ending with the grand total."""
        rows, cols = matrix.rows, matrix.columns
        self.matrix_rows, self.matrix_columns = rows, cols
        table.cursor_type = "cell"
        table.add_column(f"{result.grouping_labels[0]} \\ {result.grouping_labels[1]}", key="g0")
        for j, col in enumerate(cols):
            table.add_column(col.label, key=f"c{j}")
        table.add_column(Text("Total", style="bold"), key=TOTAL)
        for i, row in enumerate(rows):
            values = [matrix.cells.get((row.value, col.value)) for col in cols]
            table.add_row(
                row.label,
                *(Text(show_value(v), justify="right") for v in values),
                Text(show_value(matrix.row_totals.get(row.value)), style="bold", justify="right"),
                key=str(i),
            )
        table.add_row(
            Text(f"Total ({_summary_label(matrix.summary, self.definition)})", style="bold"),
            *(
                Text(show_value(matrix.column_totals.get(c.value)), style="bold", justify="right")
                for c in cols
            ),
            Text(show_value(matrix.total), style="bold", justify="right"),
            key=TOTAL,
        )

    def _show_rows(self, table: DataTable[str | Text], result: ReportResult) -> None:
        table.cursor_type = "cell"  # Enter on a lookup's name opens that record
        for path, label in zip(result.columns, result.column_labels, strict=False):
            table.add_column(label, key=path)
        for row, record_id in zip(result.rows, result.row_ids, strict=False):
            table.add_row(*row, key=record_id)

    def _show_chart(self, result: ReportResult) -> None:
        if not result.grouping_labels or not result.groups:
            return
        summary = shown_summary(self.definition, result.summaries)
        index = result.summaries.index(summary)
        bars = [
            (" / ".join(k.label for k in g.keys), g.values[index])
            for g in result.groups[:CHART_BARS]
        ]
        if not all(isinstance(v, int | float) for _label, v in bars):
            return  # MIN/MAX of a date: no bars
        chart = self.query_one("#report-chart", PlotextPlot)
        plt = chart.plt
        plt.clear_data()
        plt.clear_figure()
        plt.bar([label[:18] for label, _v in bars], [float(v) for _l, v in bars])  # type: ignore[arg-type]
        plt.title(_summary_label(summary, self.definition))
        chart.display = True
        chart.refresh()

    # ----------------------------------------------------------------- the cursor
    def _cursor(self) -> tuple[int | None, int]:
        """(group row index or None for the total / nothing, cursor column)."""
        table = self.query_one("#report-grid", DataTable)
        if table.row_count == 0:
            return None, 0
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        if key is None or key == TOTAL or self.result is None or not self.result.grouping_labels:
            return None, table.cursor_column
        return int(key), table.cursor_column

    def _group_keys(self) -> tuple[GroupKey, ...] | None:
        """The grouping keys of the group under the cursor (a matrix: the row's, and the
        column's when the cursor is on a cell)."""
        row, column = self._cursor()
        if row is None or self.result is None:
            return None
        if self.matrix_rows:
            keys: tuple[GroupKey, ...] = (self.matrix_rows[row],)
            if 1 <= column <= len(self.matrix_columns):  # not the row's subtotal
                keys += (self.matrix_columns[column - 1],)
            return keys
        return self.result.groups[row].keys

    def _record_under_cursor(self) -> str | None:
        table = self.query_one("#report-grid", DataTable)
        if self.result is None or self.result.grouping_labels or table.row_count == 0:
            return None
        return table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value

    def answer_candidate(self) -> AnswerCandidate | None:
        record_id = self._record_under_cursor()
        if record_id:
            return AnswerCandidate(record_id, record_id, self.definition.object_name)
        keys = self._group_keys()
        if not keys:
            return None
        key = keys[0]  # the first grouping's: the owner, the state, the month
        if key.record_id:
            return AnswerCandidate(key.record_id, key.record_id, None)
        if key.value is None:
            return None
        return AnswerCandidate(key.label)

    # ----------------------------------------------------------------- actions
    def action_cancel_or_edit(self) -> None:
        if self.worker is not None and self.worker.is_running:
            self.worker.cancel()
            self.worker = None
            self._status(Text("Cancelled. e edits the report; Backspace goes back.", style="bold"))
            self.post_message(
                ReportRun(to_dict(self.definition), None, None, "cancelled", self._elapsed_ms())
            )
        else:
            self.action_edit()

    def action_edit(self) -> None:
        self.crm.navigate(ReportBuilderLocation(self.definition))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_drill_down()

    def on_data_table_cell_selected(self, event: DataTable.CellSelected) -> None:
        event.stop()
        self.action_drill_down()

    def action_drill_down(self) -> None:
        record_id = self._record_under_cursor()
        if record_id:
            self._open_cell(record_id)
            return
        keys = self._group_keys()
        if keys is None or self.result is None:
            return
        try:
            filters = group_filters(self.definition, self.result, keys)
        except (CrmTuiError, ValueError) as error:
            self.notify(
                f"The records of this group cannot be shown as a list view: {error}.",
                title="No drill-down",
                severity="warning",
            )
            return
        self.crm.navigate(ListLocation(self.definition.object_name, filters))

    def _open_cell(self, record_id: str) -> None:
        """A detail row's record; on a lookup's name (OwnerId, Owner.Name) or an Id held in
        text (Case History's New Value), the record it names, read from the row's record."""
        table = self.query_one("#report-grid", DataTable)
        columns = self.result.columns if self.result is not None else ()
        column = table.cursor_column
        path = columns[column] if 0 < column < len(columns) else ""
        backend = self.crm.backend

        def target() -> str:
            lookup, _, rest = path.partition(".")
            if not path or "." in rest:
                return record_id  # the row's name, or a grandparent's field
            view = backend.get_record(record_id)
            if rest:  # a parent's field: the lookup whose relationship it follows
                parent = backend.describe(view.object_name).parent_relationship_fields
                lookup = parent[lookup.lower()].name if lookup.lower() in parent else ""
            link = next((f.link for f in view.fields if f.name.lower() == lookup.lower()), None)
            return link or record_id

        fetch_then_show(self, target, lambda found: self.crm.navigate(RecordLocation(found)))


SHOWN_CAP = 400  # values of a result recorded as seen, at most


def shown(result: ReportResult) -> list[str]:
    """What a result puts on screen, for the study's record of it: each group key's
    record Id (a lookup) and label, or an ungrouped report's records."""
    if not result.grouping_labels:
        return list(result.row_ids[:SHOWN_CAP])
    seen: dict[str, None] = {}
    for group in result.groups:
        for key in group.keys:
            if key.record_id:
                seen[key.record_id] = None
            if key.label:
                seen[key.label] = None
        if len(seen) >= SHOWN_CAP:
            break
    return list(seen)[:SHOWN_CAP]


def _summary_label(key: str, definition: ReportDefinition | None = None) -> str:
    """A summary's column title: "Records" for the count, a duration's with its unit
    ("AVG(Age) (hours)")."""
    if key == "COUNT()":
        return "Records"
    unit = summary_unit(definition, key) if definition is not None else None
    return f"{key} ({unit})" if unit else key
