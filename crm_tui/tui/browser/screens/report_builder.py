"""The report builder: a report type, then parts added one at a time (columns, filters,
date ranges, a cross filter and its conditions on the related rows, durations, groupings,
summaries, sort, top N, matrix), and the definition as TOML text beside them.

The text is the source of truth: the form adds parts to it, the parts table removes and
reorders them, and a person may edit it directly. Each change is checked against the
org's schema (`resolve`, in a worker), and a bad definition shows one line naming the bad
part. Ctrl+R runs the report (the result screen), Ctrl+S saves it, Ctrl+O lists the
saved ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.suggester import SuggestFromList
from textual.widgets import DataTable, Input, Select, Static, TextArea

from crm_tui.errors import CrmTuiError
from crm_tui.org.backends.interface import Operator
from crm_tui.org.reports.definition import (
    AGE,
    Aggregate,
    CrossFilter,
    DateGranularity,
    DateRange,
    Duration,
    DurationUnit,
    Grouping,
    ReportDefinition,
    ReportFilter,
    Summary,
    SummarySort,
    dump_definition,
    parse_definition,
)
from crm_tui.org.reports.resolve import (
    cross_filter_choices,
    cross_filter_fields,
    fields_for_report,
    resolve,
)
from crm_tui.tui.browser.history import ReportBuilderLocation, ReportLocation
from crm_tui.tui.browser.screens.browser_screen import BrowserScreen
from crm_tui.tui.styles import css_next_to
from crm_tui.tui.workers import fetch_then_show

DEFAULT_OBJECT = "Case"
# Narrower terminals show the form on two rows and give the text half the width: in one
# row, the field and value boxes would have no room for what is typed.
TWO_ROWS_BELOW_WIDTH = 120
VALUE = "value"  # a grouping without date granularity
# How `resolve` says a typed name is not in the org (a part naming it is refused).
NOT_THERE = ("unknown field", "no lookup", "no related list", "is not a field path")
UNDO_DEPTH = 50
FORM_BOXES = (
    "report-field",
    "report-value",
    "report-name",
)  # the builder's changes Ctrl+Z can take back

# part kind -> (label, the "how" choices, field placeholder, value placeholder)
PARTS: dict[str, tuple[str, list[tuple[str, str]], str, str]] = {
    "grouping": (
        "Group by",
        [("by value / record", VALUE)]
        + [(f"by {g.value.replace('_', ' ')}", g.value) for g in DateGranularity],
        "Field to group by, e.g. OwnerId",
        "",
    ),
    "summary": (
        "Summary",
        [(a.value, a.value) for a in Aggregate],
        "Field, e.g. Age",
        "",
    ),
    "filter": (
        "Filter",
        [(o.value, o.value) for o in Operator],
        "Field, e.g. Status",
        "Value, e.g. Closed",
    ),
    "date_range": (
        "Date range",
        [("within", "within")],
        "Date field, e.g. CreatedDate",
        "LAST_N_MONTHS:4, THIS_QUARTER, 2024-03, 2024-Q2, 2024, 2024-01-05..2024-02-10",
    ),
    "column": ("Column", [("show", "show")], "Field, e.g. Owner.Name", ""),
    "sort": (
        "Sort groups",
        [("descending", "desc"), ("ascending", "asc")],
        "Summary, e.g. AVG(Age) or COUNT()",
        "",
    ),
    "top_n": ("Top N groups", [("keep", "keep")], "", "How many, e.g. 1"),
    "matrix": ("Matrix", [("on", "on"), ("off", "off")], "", ""),
    "cross": (
        "Cross filter",
        [("with", "with"), ("without", "without")],
        "Related list, e.g. CaseHistories__r",
        "More than N rows (optional)",
    ),
    # A condition on the related rows of the last cross filter ("...where Field__c = X").
    "cross_where": (
        "Cross filter: where",
        [(o.value, o.value) for o in Operator],
        "Field of the related rows, e.g. Field__c",
        "Value, e.g. Owner Assignment",
    ),
    "duration": (
        "Duration",
        [(u.value, u.value) for u in DurationUnit],
        "Start field, e.g. CreatedDate",
        "End field, e.g. ClosedDate",
    ),
}
# The definition's lists the parts table shows, in order, with their labels.
LISTS = (
    ("columns", "Column"),
    ("filters", "Filter"),
    ("date_ranges", "Date range"),
    ("cross_filters", "Cross filter"),
    ("durations", "Duration"),
    ("groupings", "Group by"),
    ("summaries", "Summary"),
)


def describe_part(kind: str, part: Any, label: Callable[[str], str] | None = None) -> str:
    """A part as the parts table says it; `label` names a field path the way the org
    labels it (the table shows "Date/Time Opened (CreatedDate)")."""

    def named(path: str) -> str:
        shown = label(path) if label is not None else path
        return path if shown == path else f"{shown} ({path})"

    match part:
        case ReportFilter(field=f, operator=op, value=v):
            return f"{named(f)} {Operator(op).value}" + ("" if v is None else f" {v}")
        case DateRange(field=f, range=r):
            return f"{named(f)} within {r}"
        case CrossFilter(child=c, filters=fs, with_=w, more_than=n):
            rows = f" more than {n}" if n is not None else ""
            where = f" where {'; '.join(describe_part('filter', f) for f in fs)}" if fs else ""
            return f"{'with' if w else 'without'} {c}{rows}{where}"
        case Duration(name=n, start=s, end=e, unit=u):
            return f"{n} = {named(e)} − {named(s)} ({u.value})"
        case Grouping(field=f, granularity=g):
            return named(f) + (f" by {g.value.replace('_', ' ')}" if g else "")
        case Summary():
            return part.key
        case str():
            return named(part)
    return str(part)


def part_count(definition: ReportDefinition) -> int:
    """How many parts the parts table lists under the report type."""
    d = definition
    lists = sum(len(getattr(d, attr)) for attr, _label in LISTS)
    return lists + (d.sort is not None) + (d.top_n is not None) + bool(d.matrix)


class ReportBuilderScreen(BrowserScreen):
    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Report builder"
    TAB_TAKES_SUGGESTION = True  # Tab in the field box takes the grey suggestion first
    BINDINGS = [
        Binding("ctrl+r", "run", "Run report", priority=True),
        Binding("ctrl+a", "add_part", "Add part", priority=True),
        Binding("ctrl+s", "save", "Save", priority=True),
        Binding("ctrl+o", "app.saved_reports", "Saved reports", priority=True),
        Binding("ctrl+n", "new", "New report", priority=True),
        Binding("delete", "remove_part", "Remove part"),
        Binding("ctrl+z", "undo", "Undo", show=False),  # said when a change drops parts
        Binding("ctrl+up", "move_part(-1)", "Move up", show=False),
        Binding("ctrl+down", "move_part(1)", "Move down", show=False),
        Binding("escape", "escape", "Leave the box / to the form", show=False),
    ]

    def __init__(self, place: ReportBuilderLocation) -> None:
        super().__init__()
        self.definition = place.definition or ReportDefinition(DEFAULT_OBJECT)
        self.form_left = place.form  # the form as it was left: put back on mount
        self._restore_how: str | None = None
        self.text_error: str | None = None  # the text does not parse
        self.form_error: str | None = None  # the form's part was refused (until the next change)
        self.check_error: str | None = None  # it parses, but does not fit the org
        self._shown_text = ""
        self.field_paths: list[str] = []
        self.field_labels: dict[str, str] = {}  # field path -> the org's label
        self.label_paths: dict[str, str] = {}  # a label (lower case) -> its field's path
        # The definitions before each change from the form or the parts table (Ctrl+Z),
        # and the last one of each report type left: choosing it again brings it back.
        self.undo_stack: list[ReportDefinition] = []
        self.left_types: dict[str, ReportDefinition] = {}
        self._adds = 0  # parts added: each is checked in its own worker

    def compose_body(self) -> ComposeResult:
        title = "Report builder"
        given = self.crm.report_today()
        if given is not None:  # in a study: the query's date, not the org's
            day, what = given
            title += f" · relative date ranges count from {day.isoformat()}, {what}"
        yield Static(title, id="report-builder-title", classes="screen-title")
        with Horizontal(id="report-form"):
            yield Select([], prompt="Report type", id="report-type", allow_blank=True)
            yield Select(
                [(label, kind) for kind, (label, *_rest) in PARTS.items()],
                value="grouping",
                allow_blank=False,
                id="report-part",
            )
            yield Input(placeholder=PARTS["grouping"][2], id="report-field")
            yield Select(PARTS["grouping"][1], allow_blank=False, id="report-how")
            yield Input(placeholder="", id="report-value")
        yield Input(placeholder="Report name (to save it)", id="report-name")
        yield Static("", id="report-check")
        with Horizontal(id="report-body"):
            with Vertical(id="report-parts-pane"):
                parts: DataTable[str] = DataTable(id="report-parts", cursor_type="row")
                parts.add_column("Part", key="kind", width=12)
                parts.add_column("What", key="what", width=44)
                yield parts
            yield TextArea(id="report-toml", soft_wrap=False, show_line_numbers=False)

    def on_resize(self, event: Resize) -> None:
        self.set_class(event.size.width < TWO_ROWS_BELOW_WIDTH, "-narrow")

    def on_mount(self) -> None:
        self.title = "Report builder"
        backend = self.crm.backend
        fetch_then_show(self, backend.list_objects, self._show_types, group="types")
        self.query_one("#report-name", Input).value = self.definition.name
        if self.form_left is not None:
            kind, how, field, value = self.form_left
            self.query_one("#report-field", Input).value = field
            self.query_one("#report-value", Input).value = value
            if kind in PARTS and kind != "grouping":
                self._restore_how = how
                self.query_one("#report-part", Select).value = kind
            elif how in {v for _label, v in PARTS["grouping"][1]}:
                self.query_one("#report-how", Select).value = how
        self._show_definition()
        self._load_fields()
        self.query_one("#report-field", Input).focus()

    def _show_types(self, objects: list[Any]) -> None:
        select: Select[str] = self.query_one("#report-type", Select)
        with self.prevent(Select.Changed):
            select.set_options([(f"{o.label} ({o.name})", o.name) for o in objects])
            if any(o.name == self.definition.object_name for o in objects):
                select.value = self.definition.object_name

    def _load_fields(self) -> None:
        describe, name = self.crm.backend.describe, self.definition.object_name

        def fields() -> list[tuple[str, str]]:
            refs = fields_for_report(describe, name, depth=2)
            age = [("Age", f"Age ({AGE.unit.value})")] if name == "Case" else []
            return [(r.path, r.label) for r in refs] + age

        fetch_then_show(self, fields, self._show_fields, group="fields", failed=lambda _e: None)

    def _show_fields(self, fields: list[tuple[str, str]]) -> None:
        self.field_paths = [path for path, _label in fields]
        self.field_labels = dict(fields)
        by_label: dict[str, list[str]] = {}
        for path, label in fields:
            by_label.setdefault(label.lower(), []).append(path)
        # A label names a field only when one field has it.
        self.label_paths = {label: paths[0] for label, paths in by_label.items() if len(paths) == 1}
        self._suggest(str(self.query_one("#report-part", Select).value))
        self._show_parts()

    def _label(self, path: str) -> str:
        return self.field_labels.get(path, path)

    def _path(self, typed: str) -> str:
        """A typed field: its path, when a field's label was typed instead."""
        if typed in self.field_labels:
            return typed
        return self.label_paths.get(typed.strip().lower(), typed)

    def _suggest(self, kind: str) -> None:
        """Suggestions for the field box: the report's fields, its related lists for a
        cross filter, the related rows' fields for a cross filter's condition."""
        field = self.query_one("#report-field", Input)
        d = self.definition
        if kind == "cross":
            field.suggester = SuggestFromList(
                cross_filter_choices(d.object_name), case_sensitive=False
            )
        elif kind == "cross_where" and d.cross_filters:
            describe, child = self.crm.backend.describe, d.cross_filters[-1].child

            def suggest(names: list[str]) -> None:
                field.suggester = SuggestFromList(names, case_sensitive=False)

            fetch_then_show(
                self,
                lambda: cross_filter_fields(describe, d.object_name, child),
                suggest,
                group="fields",
                failed=lambda _e: None,
            )
        else:  # the API names, and the labels a newcomer knows them by
            labels = [label for path, label in self.field_labels.items() if label != path]
            field.suggester = SuggestFromList(self.field_paths + labels, case_sensitive=False)

    # ----------------------------------------------------------------- the definition
    def _set_definition(self, definition: ReportDefinition, undoable: bool = True) -> None:
        """A new definition from the form: the text, the parts and the check follow."""
        object_changed = definition.object_name != self.definition.object_name
        if undoable and definition != self.definition:
            self.undo_stack.append(self.definition)
            del self.undo_stack[:-UNDO_DEPTH]
        self.definition = definition
        self.text_error = None
        self._show_definition()
        if object_changed:
            self._load_fields()

    def _show_definition(self) -> None:
        self.form_error = None
        self._remember()
        text = dump_definition(self.definition)
        self._shown_text = text
        area = self.query_one("#report-toml", TextArea)
        if area.text != text:
            area.load_text(text)
        self._show_parts()
        self._check()

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        text = event.text_area.text
        if text == self._shown_text:
            return
        self._shown_text = text
        self.form_error = None
        try:
            definition = parse_definition(text)
        except CrmTuiError as error:
            self.text_error = str(error)
            self._show_check()
            return
        self.text_error = None
        object_changed = definition.object_name != self.definition.object_name
        self.definition = definition
        self._remember()
        self._show_parts()
        self._check()
        if object_changed:
            self._load_fields()
            self._select_type()

    def _select_type(self) -> None:
        select: Select[str] = self.query_one("#report-type", Select)
        with self.prevent(Select.Changed):
            try:
                select.value = self.definition.object_name
            except Exception:  # an object the org does not have: the check says so
                select.clear()

    def _check(self) -> None:
        definition, describe = self.definition, self.crm.backend.describe
        today = self._today()

        def check() -> str | None:
            try:
                resolve(definition, describe, today)
            except CrmTuiError as error:
                return str(error)
            return None

        fetch_then_show(self, check, self._checked, group="check")

    def _today(self) -> date:
        """The day the check counts relative ranges from (the run counts from the same)."""
        given = self.crm.report_today()
        return given[0] if given else self.definition.today or date.today()

    def _checked(self, problem: str | None) -> None:
        self.check_error = problem
        self._show_check()

    def _show_check(self) -> None:
        line = self.query_one("#report-check", Static)
        problem = self.text_error or self.form_error or self.check_error
        if problem:
            line.update(Text(problem.splitlines()[0], style="bold red"))
        else:
            line.update(Text("Ready: Ctrl+R runs the report.", style="green"))
        line.set_class(bool(problem), "-problem")

    def _show_parts(self) -> None:
        table = self.query_one("#report-parts", DataTable)
        table.clear()
        d = self.definition
        table.add_row("Report type", d.object_name, key="object")
        for attr, label in LISTS:
            for i, part in enumerate(getattr(d, attr)):
                # A long part (a cross filter's conditions) wraps instead of being cut.
                table.add_row(
                    label, describe_part(attr, part, self._label), key=f"{attr}:{i}", height=None
                )
        if d.sort is not None:
            order = "descending" if d.sort.descending else "ascending"
            table.add_row("Sort groups", f"{d.sort.summary} {order}", key="sort")
        if d.top_n is not None:
            table.add_row("Top N", str(d.top_n), key="top_n")
        if d.matrix:
            table.add_row("Matrix", "rows × columns", key="matrix")

    # ----------------------------------------------------------------- the form
    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "report-type" and event.value is not Select.NULL:
            if event.value != self.definition.object_name:
                self._change_type(str(event.value))
        elif event.select.id == "report-part" and event.value is not Select.NULL:
            _label, how, field_hint, value_hint = PARTS[str(event.value)]
            select: Select[str] = self.query_one("#report-how", Select)
            select.set_options(how)
            restore, self._restore_how = self._restore_how, None
            select.value = restore if restore in {v for _label, v in how} else how[0][1]
            self.query_one("#report-field", Input).placeholder = field_hint
            self.query_one("#report-value", Input).placeholder = value_hint
            self._suggest(str(event.value))

    def _change_type(self, object_name: str) -> None:
        """Another report type: its parts as they were left (none the first time); the
        old type's parts are kept for Ctrl+Z and for choosing that type again."""
        old = self.definition
        self.left_types[old.object_name] = old
        new = self.left_types.get(object_name) or ReportDefinition(object_name)
        self._set_definition(new.with_(name=old.name))
        count = part_count(old)
        if count:
            parts = "1 part" if count == 1 else f"{count} parts"
            self.notify(
                f"{parts} of the {old.object_name} report put aside: Ctrl+Z (or choosing "
                f"{old.object_name} again) brings them back.",
                title=f"Report type: {object_name}",
            )

    def action_undo(self) -> None:
        if not self.undo_stack:
            self.notify("Nothing to undo.", severity="warning")
            return
        definition = self.undo_stack.pop()
        object_changed = definition.object_name != self.definition.object_name
        self._set_definition(definition, undoable=False)
        self.query_one("#report-name", Input).value = definition.name
        if object_changed:
            self._select_type()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "report-field":
            event.stop()
            if self._needs_value() and not self.query_one("#report-value", Input).value.strip():
                # Not a part without its value: on to the value box (it says what to type).
                self.query_one("#report-value", Input).focus()
                return
            self.action_add_part()
        elif event.input.id == "report-value":
            event.stop()
            self.action_add_part()
        elif event.input.id == "report-name":
            event.stop()
            self._set_definition(self.definition.with_(name=event.value.strip()))

    def _needs_value(self) -> bool:
        """Whether the part the form describes takes a value it cannot do without."""
        kind = str(self.query_one("#report-part", Select).value)
        how = str(self.query_one("#report-how", Select).value)
        if kind in ("filter", "cross_where"):
            return Operator(how).takes_value
        return kind in ("date_range", "duration", "top_n")

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "report-name" and event.value.strip() != self.definition.name:
            self.definition = self.definition.with_(name=event.value.strip())
            self._show_definition()
        self._remember()

    def _remember(self) -> None:
        """Keep the definition and the form's text in the history: leaving the builder
        (o, Back, a search) and coming back loses nothing typed."""
        history = self.crm.history
        if not isinstance(history.current, ReportBuilderLocation) or not self.is_current:
            return
        form = (
            str(self.query_one("#report-part", Select).value),
            str(self.query_one("#report-how", Select).value),
            self.query_one("#report-field", Input).value,
            self.query_one("#report-value", Input).value,
        )
        history.replace_current(ReportBuilderLocation(self.definition, form))

    def action_add_part(self) -> None:
        """Add the part the form describes. It is checked against the org first (in a
        worker): a part naming a field, lookup or related list the report does not have
        is refused. The boxes empty at once, so what is typed next is kept; a refused
        part's text comes back into them (unless something new was typed there)."""
        kind = str(self.query_one("#report-part", Select).value)
        how = str(self.query_one("#report-how", Select).value)
        field_input = self.query_one("#report-field", Input)
        value_input = self.query_one("#report-value", Input)
        field, value = field_input.value.strip(), value_input.value.strip()
        if kind not in ("cross", "cross_where", "sort"):  # a field's label names its path
            field = self._path(field)
        if kind == "duration":
            value = self._path(value)
        try:
            candidate = self._with_part(kind, how, field, value)
        except (CrmTuiError, ValueError) as error:
            self._refuse(kind, str(error))
            return
        field_input.value = value_input.value = ""
        field_input.focus()
        describe, today = self.crm.backend.describe, self._today()
        names = [text for text in (field, value) if text]

        def check() -> str | None:
            try:
                resolve(candidate, describe, today)
            except CrmTuiError as error:
                problem = str(error)
                # Only a name the org does not have, typed just now: other problems (a
                # sort before its summary, a long text grouped) are the check line's.
                unknown = any(words in problem for words in NOT_THERE)
                return problem if unknown and any(repr(n) in problem for n in names) else None
            return None

        def checked(problem: str | None) -> None:
            if problem is not None:
                if not field_input.value and not value_input.value:
                    field_input.value, value_input.value = field, value
                self._refuse(kind, problem.split(": ", 1)[-1])
                return
            try:  # on the definition as it is now (another part may have come first)
                self._set_definition(self._with_part(kind, how, field, value))
            except (CrmTuiError, ValueError) as error:
                self._refuse(kind, str(error))

        self._adds += 1
        fetch_then_show(self, check, checked, group=f"add-{self._adds}")

    def _refuse(self, kind: str, problem: str) -> None:
        self.form_error = f"{PARTS[kind][0]}: {problem}"
        self._show_check()

    def _with_part(self, kind: str, how: str, field: str, value: str) -> ReportDefinition:
        d = self.definition
        needs_field = kind not in ("top_n", "matrix")
        if needs_field and not field:
            raise CrmTuiError(f"type a {'summary' if kind == 'sort' else 'field'} first")
        match kind:
            case "column":
                return d.with_(columns=(*d.columns, field))
            case "filter":
                op = Operator(how)
                if op.takes_value and not value:
                    raise CrmTuiError(f"type the value to compare {field} with")
                return d.with_(
                    filters=(*d.filters, ReportFilter(field, op, value if op.takes_value else None))
                )
            case "date_range":
                if not value:
                    raise CrmTuiError("type a range, e.g. LAST_N_MONTHS:4 or 2024-03")
                return d.with_(date_ranges=(*d.date_ranges, DateRange(field, value)))
            case "cross":
                more = int(value) if value else None
                return d.with_(
                    cross_filters=(*d.cross_filters, CrossFilter(field, (), how == "with", more))
                )
            case "cross_where":
                if not d.cross_filters:
                    raise CrmTuiError("add a cross filter first (with / without related rows)")
                op = Operator(how)
                if op.takes_value and not value:
                    raise CrmTuiError(f"type the value to compare {field} with")
                condition = ReportFilter(field, op, value if op.takes_value else None)
                *before, last = d.cross_filters
                last = replace(last, filters=(*last.filters, condition))
                return d.with_(cross_filters=(*before, last))
            case "duration":
                if not value:
                    raise CrmTuiError("type the end field, e.g. ClosedDate")
                name = f"Duration{len(d.durations) + 1}"
                unit = DurationUnit(how)
                return d.with_(durations=(*d.durations, Duration(name, field, value, unit)))
            case "grouping":
                gran = None if how == VALUE else DateGranularity(how)
                return d.with_(groupings=(*d.groupings, Grouping(field, gran)))
            case "summary":
                agg = Aggregate(how)
                summary = Summary(agg, None if agg is Aggregate.COUNT else field)
                return d.with_(summaries=(*d.summaries, summary))
            case "sort":
                key = Summary.parse(field).key
                return d.with_(sort=SummarySort(key, how == "desc"))
            case "top_n":
                return d.with_(top_n=int(value) if value else None)
            case "matrix":
                return d.with_(matrix=how == "on")
        raise CrmTuiError(f"unknown part {kind!r}")

    # ----------------------------------------------------------------- the parts table
    def _cursor_part(self) -> str | None:
        table = self.query_one("#report-parts", DataTable)
        if not table.has_focus or table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return key

    def action_remove_part(self) -> None:
        key = self._cursor_part()
        if key is None or key == "object":
            return
        d = self.definition
        if key in ("sort", "top_n"):
            self._set_definition(d.with_(**{key: None}))
        elif key == "matrix":
            self._set_definition(d.with_(matrix=False))
        else:
            attr, _, index = key.partition(":")
            items = list(getattr(d, attr))
            del items[int(index)]
            self._set_definition(d.with_(**{attr: tuple(items)}))

    def action_move_part(self, step: int) -> None:
        key = self._cursor_part()
        if key is None or ":" not in key:
            return
        attr, _, index_text = key.partition(":")
        items = list(getattr(self.definition, attr))
        index, target = int(index_text), int(index_text) + step
        if not 0 <= target < len(items):
            return
        items[index], items[target] = items[target], items[index]
        self._set_definition(self.definition.with_(**{attr: tuple(items)}))
        table = self.query_one("#report-parts", DataTable)
        table.move_cursor(row=table.get_row_index(f"{attr}:{target}"))

    # ----------------------------------------------------------------- actions
    def _current(self) -> ReportDefinition | None:
        if self.text_error:
            self.notify(self.text_error, title="Fix the definition first", severity="error")
            return None
        return self.definition

    def action_run(self) -> None:
        definition = self._current()
        if definition is None:
            return
        self.crm.history.replace_current(ReportBuilderLocation(definition))
        self.crm.navigate(ReportLocation(definition))

    def action_save(self) -> None:
        definition = self._current()
        if definition is None:
            return
        if not definition.name:
            self.query_one("#report-name", Input).focus()
            self.notify("Name the report first (the field under the form).", severity="warning")
            return
        self.crm.save_report(definition)

    def action_new(self) -> None:
        """A fresh report of the same type: the form emptied, the cursor on its first field."""
        for input_id in ("#report-name", "#report-field", "#report-value"):
            self.query_one(input_id, Input).value = ""
        self._set_definition(ReportDefinition(self.definition.object_name))
        self.action_focus_form()

    def action_escape(self) -> None:
        """Esc in a box of the form leaves it (for the parts table), so a key typed next
        is not typed into it; elsewhere, back to the form's field box."""
        if self.focused is not None and self.focused.id in FORM_BOXES:
            self.query_one("#report-parts", DataTable).focus()
            return
        self.action_focus_form()

    def action_focus_form(self) -> None:
        self.query_one("#report-field", Input).focus()
