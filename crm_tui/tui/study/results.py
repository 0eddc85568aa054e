"""Results for coordinators: humans next to agents per task family, as a table and a bar
chart, then every table of `crm-tui results` (agents, realism, audit) on its own tab.

The study service builds the report on its writer thread, and the screen waits for it
in a thread worker, so a large study never stalls the screen. Only a coordinator profile
sees it: annotators should not learn how others did while the study runs.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable, Header, Static, TabbedContent, TabPane
from textual_plotext import PlotextPlot

from crm_tui.study.adjudication.gold_tables import TITLE as GOLD_TITLE
from crm_tui.study.results.process import SIGHT_LABELS, Sight, Trace
from crm_tui.study.results.render import (
    PROCESS_TABLE_TITLE,
    STATISTICS_TITLES,
    TURN_ITEMS_TITLE,
    TURN_MODES_TITLE,
    TableView,
    pct_n,
    report_tables,
)
from crm_tui.study.results.summary import ALL, Report
from crm_tui.study.service import Mode, Profile, StudyService
from crm_tui.tui.notices import explain
from crm_tui.tui.styles import css_next_to
from crm_tui.tui.widgets.fitting_footer import FittingFooter
from crm_tui.tui.workers import fetch_then_show

DASH = "—"
TABS = (
    ("side-by-side", "Side by side"),
    ("humans-agents", "Humans and agents"),
    ("statistics", "Statistics"),
    ("realism", "Realism"),
    ("audit", "Audit"),
    ("process", "Process"),
)
# Only for a study with interactive items: added to the tabs when its report has the section.
TURNS_TAB = ("turns", "Single- vs multi-turn")
# The tab of each `crm-tui results` table; any other goes on "Humans and agents".
TAB_OF_TABLE = {
    "Realism ratings": "realism",
    "Agreement on realism": "realism",
    "Audit flags": "audit",
    "Items where most humans disagree with the gold": "audit",
    PROCESS_TABLE_TITLE: "process",
    TURN_MODES_TITLE: TURNS_TAB[0],
    TURN_ITEMS_TITLE: TURNS_TAB[0],
}
PROCESS_TITLE = "Attempts and agent records (Enter or p: replay the highlighted one)"
# one colour per participant on the statistics chart (the point and its interval)
COLOURS = ("blue+", "red+", "green+", "orange+", "magenta+", "cyan+", "yellow+", "white")


def exclusions_note(report: Report) -> str:
    """What the figures do with the coordinator's exclusions, when there are any."""
    if report.with_excluded:
        return " · exclusions kept in (x: leave them out)"
    if report.excluded_people or report.excluded_attempts:
        return (
            f" · exclusions left out ({report.excluded_people} person(s), "
            f"{report.excluded_attempts} attempt(s); x: keep them in)"
        )
    return ""


def tab_of(title: str) -> str:
    if title.startswith(STATISTICS_TITLES):
        return "statistics"
    if title.startswith(GOLD_TITLE):  # the version and its hashes follow
        return "audit"
    return TAB_OF_TABLE.get(title, "humans-agents")


def interval_series(
    report: Report,
) -> tuple[list[str], list[tuple[str, list[float | None], list[tuple[float, float] | None]]]]:
    """Families (ALL last) and, per participant, the success in % and its interval."""
    if report.statistics is None:
        return [], []
    rates = report.statistics.rates
    families = list(dict.fromkeys(f for r in rates for f in r.success if f != ALL)) + [ALL]
    series = []
    for solver in rates:
        values: list[float | None] = []
        intervals: list[tuple[float, float] | None] = []
        for family in families:
            rate = solver.success.get(family)
            values.append(None if rate is None or rate.value is None else rate.value * 100)
            interval = None if rate is None else rate.interval
            intervals.append(
                None if interval is None else (interval.low * 100, interval.high * 100)
            )
        series.append((solver.solver, values, intervals))
    return families, series


def has_results(report: Report) -> bool:
    return bool(
        report.agents
        or report.realism.targets
        or any(flag.flags for flag in report.flags)
        or any(row.humans.answers for row in report.families)
    )


def _pct(value: float | None) -> str:
    return DASH if value is None else f"{value * 100:.1f}"


def side_by_side(report: Report) -> TableView:
    """One row per family: the humans' accuracy, interval and time, then each agent."""
    agents = [agent.label for agent in report.agents]
    rows = []
    for row in report.families:
        humans = row.humans
        interval = (
            DASH
            if humans.interval is None
            else (f"{humans.interval.low * 100:.1f}–{humans.interval.high * 100:.1f}")
        )
        median = DASH if humans.active_ms is None else f"{humans.active_ms.median / 1000:.0f}"
        rows.append(
            [
                row.family,
                f"{humans.items_answered} of {row.items}",
                str(humans.answers),
                _pct(humans.accuracy),
                interval,
                median,
            ]
            + [
                pct_n(result.rescored_success, result.answers)
                if (result := row.agents.get(a)) is not None
                else DASH
                for a in agents
            ]
        )
    return TableView(
        "Success by task family (%; knowledge QA is F1; agents re-scored)",
        ["Family", "Items answered", "Answers", "Humans %", "95% CI", "Active s (median)"]
        + [f"{a} %" for a in agents],
        rows,
    )


def chart_series(report: Report) -> tuple[list[str], dict[str, list[float]]]:
    """Families (ALL last) and, per participant, the success in % (0 where none)."""
    families = [row.family for row in report.families]
    series = {"Humans": [(row.humans.accuracy or 0.0) * 100 for row in report.families]}
    for agent in report.agents:
        series[agent.label] = [
            (row.agents[agent.label].rescored_success or 0.0) * 100
            if agent.label in row.agents
            else 0.0
            for row in report.families
        ]
    return families, series


WRAP_HEADERS_PAST = 12  # a longer column label (an agent's name) may take two header lines


def two_lines(label: str, room: int) -> str:
    """`label` broken at the space nearest its middle when it is longer than both
    `WRAP_HEADERS_PAST` and `room` (the width its cells need anyway)."""
    spaces = [i for i, char in enumerate(label) if char == " "]
    if len(label) <= max(WRAP_HEADERS_PAST, room) or not spaces:
        return label
    middle = min(spaces, key=lambda i: abs(i - len(label) / 2))
    return label[:middle] + "\n" + label[middle + 1 :]


def data_table(view: TableView, id: str | None = None) -> DataTable[Text]:
    """The view as a table; long column labels wrap onto a second header line, so that
    several agents' columns fit side by side in 120 columns."""
    table: DataTable[Text] = DataTable(zebra_stripes=True, cursor_type="row", id=id)
    columns = []
    for index, label in enumerate(view.columns):
        room = max((len(row[index]) for row in view.rows if index < len(row)), default=0)
        wrapped = two_lines(label, room)
        columns.append((wrapped, max(room, *map(len, wrapped.split("\n")))))
    if any("\n" in label for label, _ in columns):
        table.header_height = 2
    for label, width in columns:
        table.add_column(Text(label), width=width)
    # Text, never markup: "[paper]" in a label is text, not a style tag to drop
    table.add_rows([[Text(cell) for cell in row] for row in view.rows])
    return table


class ResultsScreen(Screen[None]):
    BINDINGS = [
        Binding("r", "reload", "Reload"),
        Binding("l", "live", "Live progress"),
        Binding("p", "replay", "Replay attempt", id="replay"),
        Binding("x", "toggle_excluded", "Exclusions in/out"),
        Binding("escape", "app.pop_screen", "Close"),
    ]
    CSS_PATH = css_next_to(__file__)

    def __init__(
        self, service: StudyService, profile: Profile | None, start_tab: str | None = None
    ) -> None:
        super().__init__()
        self.service = service
        self.profile = profile  # who asks: the report is for coordinators only
        self.start_tab = start_tab  # e.g. "process" (the palette's "Process and replay")
        self.traces: list[Trace] = []  # the Process tab's rows, for the replay key
        self.with_excluded = False  # x: every figure with the coordinator's exclusions kept in

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Results", classes="screen-title")
        yield Static(id="results-heading")
        yield Static(id="results-message")
        with TabbedContent(id="results-tabs"):
            for key, title in TABS:
                with TabPane(title, id=key):
                    yield VerticalScroll(id=f"{key}-body")
        yield FittingFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "live":  # coordinators only (auditors see results too)
            return self.profile is not None and self.profile.mode == Mode.COORDINATOR
        if action == "replay":  # on the Process tab, with an attempt to replay
            tabs = self.query(TabbedContent)
            return bool(self.traces) and bool(tabs) and tabs.first().active == "process"
        return True

    def on_tabbed_content_tab_activated(self, event: TabbedContent.TabActivated) -> None:
        self.refresh_bindings()  # "Replay attempt" only on the Process tab

    def action_replay(self) -> None:
        table = self.query("#process-traces")
        if not table or not self.traces:
            return
        row = min(table.first(DataTable).cursor_row, len(self.traces) - 1)
        self._replay(self.traces[max(row, 0)])

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "process-traces" and self.traces:
            self._replay(self.traces[event.cursor_row])

    def _replay(self, trace: Trace) -> None:
        from crm_tui.tui.study.replay_screen import ReplayScreen

        self.app.push_screen(
            ReplayScreen(self.service, self.profile, trace.idx, f"{trace.solver} · {trace.who}")
        )

    def action_live(self) -> None:
        self.app.action_live()  # type: ignore[attr-defined]  # StudyApp's; it checks the role

    def on_mount(self) -> None:
        self.title = "Results"
        self.action_reload()

    def action_reload(self) -> None:
        self.query_one("#results-heading", Static).update("Building the report…")
        profile_id = None if self.profile is None else self.profile.id
        with_excluded = self.with_excluded
        fetch_then_show(
            self,
            lambda: self.service.report_for(profile_id, with_excluded=with_excluded),
            self._deliver,
            group="results",
            failed=lambda error: self._show_message(explain(self, error)),
        )

    def action_toggle_excluded(self) -> None:
        self.with_excluded = not self.with_excluded
        self.action_reload()

    async def _deliver(self, report: Report) -> None:
        if not has_results(report):
            self._show_message(
                f"Study {report.study!r} has no results yet: nobody has answered, rated "
                "or flagged anything, and no agent results are imported. Annotators answer "
                "in the app; import agents with `crm-tui agents import FILE...`."
            )
        else:
            await self._show_report(report)

    def _show_message(self, message: str) -> None:
        self.query_one("#results-heading", Static).update("")
        self.query_one("#results-message", Static).update(message)
        self.query_one("#results-message").display = True
        self.query_one(TabbedContent).display = False

    async def _show_report(self, report: Report) -> None:
        source = "CRMArena's own task set" if report.crmarena_task_set else "generated task set"
        self.query_one("#results-heading", Static).update(
            f"Study {report.study} · {source} · {report.annotators} annotator(s) · "
            f"{len(report.agents)} agent(s) · {report.realism.annotators} realism rater(s)"
            + exclusions_note(report)
        )
        self.query_one("#results-message").display = False
        self.query_one(TabbedContent).display = True
        content: dict[str, list[Widget]] = {key: [] for key, _ in TABS}
        if report.turn_modes is not None:
            content[TURNS_TAB[0]] = []
            await self._add_turns_tab()
        content["side-by-side"] = self._side_by_side(report)
        content["statistics"] = self._statistics_chart(report)
        for view in report_tables(report):
            content[tab_of(view.title)] += [
                Static(view.title, classes="results-title", markup=False),
                data_table(view),
            ]
        content["process"] += self._process(report)
        for key, widgets in content.items():
            body = self.query_one(f"#{key}-body", VerticalScroll)
            await body.remove_children()  # before mounting: a reload reuses the Ids
            await body.mount_all(widgets)
        if self.start_tab:
            self.query_one(TabbedContent).active, self.start_tab = self.start_tab, None
        self.refresh_bindings()

    async def _add_turns_tab(self) -> None:
        """The single- vs multi-turn tab, after Process, the first time it is needed."""
        key, title = TURNS_TAB
        if not self.query(f"#{key}-body"):
            pane = TabPane(title, VerticalScroll(id=f"{key}-body"), id=key)
            await self.query_one(TabbedContent).add_pane(pane)

    def _process(self, report: Report) -> list[Widget]:
        """The traces, one row each, to open in the replay (the summary table is above)."""
        self.traces = [] if report.process is None else report.process.traces
        if not self.traces:
            return [Static("No attempt or agent record yet.", classes="results-title")]
        view = TableView(
            PROCESS_TITLE,
            ["Solver", "Family", "Task", "Who", "Label", "Steps", "Records", "First sight"],
            [
                [
                    t.solver,
                    t.family,
                    str(t.idx),
                    t.who,
                    SIGHT_LABELS[Sight(t.label)],
                    str(t.steps),
                    str(t.records),
                    DASH if t.first_sight_step is None else f"step {t.first_sight_step}",
                ]
                for t in self.traces
            ],
        )
        return [
            Static(view.title, classes="results-title", markup=False),
            data_table(view, id="process-traces"),
        ]

    def _statistics_chart(self, report: Report) -> list[Widget]:
        """Each participant's success per family as a point with its interval (a
        vertical line), side by side; the tables follow."""
        families, series = interval_series(report)
        if not series:
            return []
        chart = PlotextPlot(id="statistics-chart")
        plot = chart.plt
        width = 0.6 / len(series)
        for n, (solver, values, intervals) in enumerate(series):
            colour = COLOURS[n % len(COLOURS)]
            offset = (n - (len(series) - 1) / 2) * width
            xs = [i + 1 + offset for i, v in enumerate(values) if v is not None]
            plot.scatter(xs, [v for v in values if v is not None], color=colour, label=solver)
            for i, interval in enumerate(intervals):
                if interval is not None:
                    x = i + 1 + offset
                    plot.plot([x, x], [interval[0], interval[1]], color=colour, marker="│")
        plot.xticks(list(range(1, len(families) + 1)), families)
        level = "" if report.statistics is None else f"{report.statistics.confidence:.0%} "
        plot.title(f"Success by family, %, with {level}intervals (bootstrap over items)")
        plot.ylim(0, 130)  # headroom: the legend sits in the top left corner
        plot.yticks([0, 25, 50, 75, 100])
        return [chart]

    def _side_by_side(self, report: Report) -> list[Widget]:
        view = side_by_side(report)
        chart = PlotextPlot(id="results-chart")
        families, series = chart_series(report)
        plot = chart.plt
        # textual-plotext's stub names it `label`; plotext's multiple_bar takes `labels`.
        plot.multiple_bar(families, list(series.values()), labels=list(series), width=0.6)  # type: ignore[call-arg]
        plot.title(f"Success by family (%; {ALL} = mean of families)")
        plot.ylim(0, 130)  # headroom: the legend sits in the top left corner
        plot.yticks([0, 25, 50, 75, 100])
        return [
            Static(view.title, classes="results-title", markup=False),
            data_table(view, id="results-families"),
            chart,
        ]
