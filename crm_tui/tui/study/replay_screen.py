"""Replay (coordinators and auditors): one attempt's steps as a timeline, and beside it
any other solve of the same item, a person's or an agent's trajectory.

Opened from the results screen's Process tab. The top table lists every solve of the item
(people first, then each agent's trials) with its label; the attempt opened stays on the
left, the solve highlighted in the list shows on the right. A step marked ★ put the gold
on screen (or in the agent's observation).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Static

from crm_tui.study.results.process import SIGHT_LABELS, Sight
from crm_tui.study.results.replay import Replay, Solve
from crm_tui.study.results.steps import Step, StepKind
from crm_tui.study.service import Profile, StudyService
from crm_tui.tui.notices import explain
from crm_tui.tui.study.study_screen import StudyScreen
from crm_tui.tui.styles import css_next_to
from crm_tui.tui.workers import fetch_then_show

DETAIL_WIDTH = 40  # a long query or tool call is cut: both timelines fit side by side
GOLD_MARK = "★"


EDITED = "edited"  # the Kind of a row of the answer as it was edited (not a step)


def step_rows(solve: Solve) -> list[list[str]]:
    """One row per step: number, when, kind, object, what, records shown, gold mark; and
    between them, unnumbered, the answer as it was edited."""
    rows = []
    edits = list(solve.edits)
    for position, step in enumerate(solve.steps):
        while edits and _edited_before(edits[0], step):
            rows.append(_edit_row(solve, edits.pop(0)))
        shown = "" if step.rows is None else str(step.rows)
        rows.append(
            [
                str(position + 1),
                _when(solve, step),
                step.kind,
                step.object_name or "",
                _cut(step.detail),
                shown,
                GOLD_MARK if position in solve.gold_at else "",
            ]
        )
    rows.extend(_edit_row(solve, edit) for edit in edits)
    return rows


def _edited_before(edit: Step, step: Step) -> bool:
    """At the same moment, an edit comes before the answer taken or submitted."""
    return edit.at < step.at or (edit.at == step.at and step.kind == StepKind.ANSWER)


def _edit_row(solve: Solve, edit: Step) -> list[str]:
    return ["", _when(solve, edit), EDITED, "", _cut(edit.detail), "", ""]


def _when(solve: Solve, step: Step) -> str:
    return f"{step.at / 1000:.0f} s" if solve.time_unit == "ms" else f"turn {step.at}"


def _cut(detail: str) -> str:
    return detail if len(detail) <= DETAIL_WIDTH else detail[: DETAIL_WIDTH - 1] + "…"


def solve_title(solve: Solve) -> str:
    answer = "no submission" if solve.answer is None else solve.answer
    return f"{solve.solver} · {solve.who} · {SIGHT_LABELS[Sight(solve.label)]} · answer: {answer}"


class ReplayScreen(StudyScreen):
    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Replay (coordinators, auditors)"
    BINDINGS = [
        Binding("tab", "app.focus_next", "Next table", show=False, priority=True),
        Binding("ctrl+r", "reload", "Reload", id="reload"),
        Binding("escape", "close", "Close", id="close"),
    ]
    STEP_COLUMNS = ("#", "When", "Kind", "Object", "What", "Rows", "Gold")

    def __init__(
        self, service: StudyService, profile: Profile | None, idx: int, opened: str = ""
    ) -> None:
        super().__init__(service, profile)
        self.idx = idx
        self.opened = opened  # "solver · who" of the attempt opened; "": the first solve
        self.replay: Replay | None = None

    def compose_body(self) -> ComposeResult:
        yield Static("Replay", classes="screen-title")
        yield Static("Reading the item's solves…", id="replay-heading", markup=False)
        yield DataTable(id="replay-solves", cursor_type="row", zebra_stripes=True)
        with Horizontal(id="replay-panes"):
            with Vertical():
                yield Static(id="replay-left-title", classes="replay-title", markup=False)
                yield DataTable(id="replay-left", cursor_type="row", zebra_stripes=True)
            with Vertical():
                yield Static(id="replay-right-title", classes="replay-title", markup=False)
                yield DataTable(id="replay-right", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self.title = "Replay"
        for key in ("#replay-left", "#replay-right"):
            self.query_one(key, DataTable).add_columns(*self.STEP_COLUMNS)
        self.query_one("#replay-solves", DataTable).add_columns(
            "Solver", "Who", "Label", "Answer", "Steps", "Gold seen at"
        )
        self.action_reload()

    def action_reload(self) -> None:
        profile_id = None if self.profile is None else self.profile.id
        fetch_then_show(
            self,
            lambda: self.service.replay_for(profile_id, self.idx),
            self._show,
            group="replay",
            failed=lambda error: self.query_one("#replay-heading", Static).update(
                explain(self, error)
            ),
        )

    def action_close(self) -> None:
        self.app.pop_screen()

    def _show(self, replay: Replay) -> None:
        self.replay = replay
        gold = "None" if replay.gold is None else replay.gold
        self.query_one("#replay-heading", Static).update(
            f"Task {replay.idx} ({replay.family}) · gold: {gold}\n{replay.query}"
        )
        solves = self.query_one("#replay-solves", DataTable)
        solves.clear()
        for solve in replay.solves:
            first = "" if not solve.gold_at else f"step {solve.gold_at[0] + 1}"
            solves.add_row(
                *map(
                    Text,
                    [
                        solve.solver,
                        solve.who,
                        SIGHT_LABELS[Sight(solve.label)],
                        "no submission" if solve.answer is None else solve.answer,
                        str(len(solve.steps)),
                        first,
                    ],
                )
            )
        opened = self._opened_position()
        self._fill("left", opened)
        beside = self._first_other(opened)
        self._fill("right", beside)
        if beside is not None:
            solves.move_cursor(row=beside)
        solves.focus()

    def _opened_position(self) -> int | None:
        assert self.replay is not None
        names = [f"{s.solver} · {s.who}" for s in self.replay.solves]
        if self.opened in names:
            return names.index(self.opened)
        return 0 if names else None

    def _first_other(self, opened: int | None) -> int | None:
        """Beside the attempt: the first agent record, else any other solve."""
        assert self.replay is not None
        solves = self.replay.solves
        agents = [n for n, s in enumerate(solves) if s.time_unit == "turn" and n != opened]
        others = [n for n in range(len(solves)) if n != opened]
        candidates = agents or others
        return candidates[0] if candidates else None

    def _fill(self, side: str, position: int | None) -> None:
        table = self.query_one(f"#replay-{side}", DataTable)
        table.clear()
        title = self.query_one(f"#replay-{side}-title", Static)
        if self.replay is None or position is None:
            title.update("No other solve of this item")
            return
        solve = self.replay.solves[position]
        title.update(solve_title(solve))
        table.add_rows([[Text(cell) for cell in row] for row in step_rows(solve)])

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "replay-solves" and self.replay is not None:
            if event.cursor_row != self._opened_position():
                self._fill("right", event.cursor_row)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a solve: it becomes the attempt on the left."""
        if event.data_table.id == "replay-solves" and self.replay is not None:
            solve = self.replay.solves[event.cursor_row]
            self.opened = f"{solve.solver} · {solve.who}"
            self._fill("left", event.cursor_row)
