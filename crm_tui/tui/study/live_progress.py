"""Live progress, for coordinators: each annotator's progress, who is at work now, median
active time per query so far, stale queries and when each person was last seen; a stale
query can go to another annotator (with a confirmation, keeping its attempt's history).

The screen reads the study again every `REFRESH_S` seconds in a thread worker, so the
screen never waits on the file, and profiles or answers written by other processes (the
CLI, other annotators' apps) appear without a restart.
"""

from __future__ import annotations

import time
from datetime import datetime

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.coordinate import Coordinate
from textual.timer import Timer
from textual.widgets import DataTable, Label, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker

from crm_tui.study.results.quality_report import PersonQuality, QualityReport
from crm_tui.study.service import AnnotatorLive, LiveProgress, Profile, StaleQuery, StudyService
from crm_tui.tui.notices import explain
from crm_tui.tui.study.study_screen import StudyDialog, StudyScreen
from crm_tui.tui.styles import css_next_to
from crm_tui.tui.workers import fetch_then_show

REFRESH_S = 5.0
# The quality overview (check accuracy, behaviour flags over every event) costs about ten
# times the rest of a refresh at 40 people, on the study's one writer thread: it is read
# this often, and at once on Ctrl+R or back from the quality-control screen.
QUALITY_REFRESH_S = 30.0
DASH = "—"


def quality_due(last_read: float | None, now: float, every: float) -> bool:
    """Whether a refresh at `now` (monotonic seconds) reads the quality overview again."""
    return last_read is None or now - last_read >= every


def duration(ms: int | None) -> str:
    """ "1 min 05 s", "42 s", or a dash."""
    if ms is None:
        return DASH
    seconds = round(ms / 1000)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def ago(stamp: datetime | None, now: datetime) -> str:
    if stamp is None:
        return "never"
    return f"{duration(max(0, round((now - stamp).total_seconds() * 1000)))} ago"


def annotator_row(person: AnnotatorLive, now: datetime) -> list[str | Text]:
    return [
        person.name,
        f"{person.done} of {person.assigned}" if person.assigned else "not started",
        Text("● at work", style="bold green") if person.active_now else Text("away", style="dim"),
        duration(person.median_active_ms),
        Text(str(person.stale), style="bold yellow") if person.stale else "0",
        ago(person.last_seen, now),
    ]


def quality_cell(person: PersonQuality | None) -> str | Text:
    """What quality control says of a person: exclusion, the check items' verdict, the
    behaviour flags raised; a dash when nothing is to be said yet."""
    if person is None:
        return "—"
    if person.excluded:
        return Text(f"excluded: {person.excluded}", style="dim")
    said: list[str] = []
    if person.qualification == "failed":
        said.append("failed the gate")
    if person.check_verdict is not None and person.check_accuracy is not None:
        said.append(f"{person.check_verdict}: checks {person.check_accuracy:.0%}")
    said += person.flags
    if not said:
        return "—"
    stop = person.check_verdict == "stop" or person.qualification == "failed"
    return Text(" · ".join(said), style="bold red" if stop else "bold yellow")


def stale_row(query: StaleQuery, now: datetime) -> list[str | Text]:
    family = query.task.replace("_", " ")
    return [
        query.annotator,
        f"#{query.item_idx} {family}",
        f"{query.started_at:%Y-%m-%d %H:%M}",
        ago(query.last_activity, now),
    ]


class ReassignDialog(StudyDialog[int]):
    """Confirm giving a stale query to another annotator: pick them, Enter gives it."""

    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Reassign a stale query"
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, query: StaleQuery, candidates: list[AnnotatorLive]) -> None:
        super().__init__()
        self.stale = query
        self.candidates = candidates

    def compose(self) -> ComposeResult:
        query = self.stale
        with Vertical(id="reassign-box", classes="dialog"):
            yield Label(
                f"[b]Reassign query #{query.item_idx}[/b] ({query.task.replace('_', ' ')}) "
                f"from {query.annotator}?"
            )
            yield Static(
                f"{query.annotator}'s attempt is closed as skipped; its events and times "
                "are kept. The query goes to the end of the queue of:"
            )
            yield OptionList(
                *(
                    Option(f"{p.name} — {p.role} · {p.done} of {p.assigned} done", id=str(i))
                    for i, p in enumerate(self.candidates)
                ),
                id="reassign-to",
            )
            yield Static(
                "Enter gives it to the highlighted annotator; Esc cancels.", classes="hint"
            )

    def on_mount(self) -> None:
        self.query_one("#reassign-to", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.candidates[event.option_index].profile_id)


class LiveProgressScreen(StudyScreen):
    """The study as it stands, refreshed every few seconds (coordinators only)."""

    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Live progress (coordinators)"
    BINDINGS = [
        Binding("a", "reassign", "Reassign stale query", id="reassign"),
        Binding(
            "q",
            "quality",
            "Quality control",
            id="live-quality",
            tooltip="Allow another qualification try; exclude or count a person again",
        ),
        Binding("ctrl+r", "refresh(True)", "Refresh now", id="refresh"),
        Binding("escape", "close", "Close", id="close"),
    ]

    def __init__(self, service: StudyService, profile: Profile | None) -> None:
        super().__init__(service, profile)
        self.live: LiveProgress | None = None
        self.timer: Timer | None = None
        # One read at a time: a tick while one is under way (a busy file) asks for another
        # after it instead of cancelling it, so a slow read still gets shown.
        self._reader: Worker[None] | None = None
        self._read_again = False
        self._quality: QualityReport | None = None  # the latest overview read
        self._quality_read_at: float | None = None  # when (monotonic); None: read next time
        self._covered = False  # another screen is on top

    def compose_body(self) -> ComposeResult:
        yield Static("Live progress", classes="screen-title")
        yield Static("Reading the study…", id="live-heading")
        yield DataTable(id="live-annotators", cursor_type="row", zebra_stripes=True)
        yield Static("Stale queries", classes="live-title")
        yield DataTable(id="live-stale", cursor_type="row", zebra_stripes=True)
        yield Static("", id="live-stale-none")

    def on_mount(self) -> None:
        self.title = "Live progress"
        self.sub_title = self.service.study.name
        people = self.query_one("#live-annotators", DataTable)
        for label, width in (
            ("Annotator", 20),
            ("Queries done", 13),
            ("Now", 10),
            ("Median active / query", 21),
            ("Stale", 5),
            ("Last seen", 16),
        ):
            people.add_column(label, width=width)
        if self.quality_controlled:
            people.add_column("Quality (checks, flags)", width=30)
        stale = self.query_one("#live-stale", DataTable)
        for label, width in (
            ("Annotator", 20),
            ("Query", 34),
            ("Started", 16),
            ("Last activity", 16),
        ):
            stale.add_column(label, width=width)
        self.timer = self.set_interval(REFRESH_S, self.action_refresh)
        self.action_refresh()

    def on_screen_suspend(self) -> None:
        self._covered = True

    def on_screen_resume(self) -> None:
        """Back from a screen on top (the quality-control screen: an exclusion, a retry):
        read it all now."""
        if self._covered:
            self._covered = False
            self.action_refresh(True)

    def action_refresh(self, everything: bool = False) -> None:
        if everything:
            self._quality_read_at = None
        if self._reader is not None and not self._reader.is_finished:
            self._read_again = True
            return
        self._read_again = False
        profile_id = None if self.profile is None else self.profile.id
        service = self.service
        now = time.monotonic()
        quality = self.quality_controlled and quality_due(
            self._quality_read_at, now, QUALITY_REFRESH_S
        )
        if quality:
            self._quality_read_at = now

        previous = self._quality

        def read() -> tuple[LiveProgress, QualityReport | None]:
            overview = service.quality_overview(profile_id) if quality else previous
            return service.live_progress(profile_id), overview

        self._reader = fetch_then_show(
            self,
            read,
            self._show,
            group="live",
            failed=self._failed,
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is self._reader and event.worker.is_finished and self._read_again:
            self.action_refresh()

    def _failed(self, error: Exception) -> None:
        self._quality_read_at = None  # the overview too, next time
        self.query_one("#live-heading", Static).update(explain(self, error))

    @property
    def quality_controlled(self) -> bool:
        """The study has quality control (consent, a gate, check items, flags)."""
        return self.service.study.protocol.quality is not None

    def _show(self, read: tuple[LiveProgress, QualityReport | None]) -> None:
        live, overview = read
        self.live = live
        self._quality = overview
        by_person = {p.profile_id: p for p in overview.people} if overview else {}
        now = live.as_of
        at_work = sum(1 for p in live.annotators if p.active_now)
        self.query_one("#live-heading", Static).update(
            f"Study {live.study} · as of {now:%H:%M:%S} UTC · {len(live.annotators)} "
            f"annotator(s), {at_work} at work now (an event in the last "
            f"{live.active_window_s // 60} min) · stale: open, idle {live.stale_after_s // 60} "
            f"min or more · refreshes every {REFRESH_S:g} s"
            + (f" (quality every {QUALITY_REFRESH_S:g} s)" if self.quality_controlled else "")
        )
        self._fill(
            self.query_one("#live-annotators", DataTable),
            [
                (
                    p.name,
                    annotator_row(p, now)
                    + (
                        [quality_cell(by_person.get(p.profile_id))]
                        if self.quality_controlled
                        else []
                    ),
                )
                for p in live.annotators
            ],
        )
        self._fill(
            self.query_one("#live-stale", DataTable),
            [(str(q.attempt_id), stale_row(q, now)) for q in live.stale],
        )
        self.query_one("#live-stale", DataTable).display = bool(live.stale)
        none = self.query_one("#live-stale-none", Static)
        none.update("" if live.stale else "None: every open query had activity lately.")
        none.display = not live.stale
        self.refresh_bindings()

    @staticmethod
    def _fill(table: DataTable[str | Text], rows: list[tuple[str, list[str | Text]]]) -> None:
        """Replace the rows, keeping the cursor on the same row (by key) if it is still there."""
        keys = [key for key, _ in rows]
        current = None
        if table.row_count and table.cursor_row < table.row_count:
            current = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        table.clear()
        for key, row in rows:
            table.add_row(*row, key=key)
        if current in keys:
            table.move_cursor(row=keys.index(current))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "reassign":
            return self.live is not None and bool(self.live.stale)
        if action == "quality":
            return self.quality_controlled and self.profile is not None
        return True

    def _highlighted_stale(self) -> StaleQuery | None:
        if self.live is None or not self.live.stale:
            return None
        table = self.query_one("#live-stale", DataTable)
        row = min(table.cursor_row, len(self.live.stale) - 1)
        key = table.coordinate_to_cell_key(Coordinate(max(row, 0), 0)).row_key.value
        return next((q for q in self.live.stale if str(q.attempt_id) == key), None)

    async def action_reassign(self) -> None:
        query = self._highlighted_stale()
        if query is None or self.live is None:
            self.notify("No stale query to reassign.", title="Reassign")
            return
        candidates = [p for p in self.live.annotators if p.name != query.annotator]
        if not candidates:
            self.notify("There is no other annotator to give it to.", title="Reassign")
            return

        def chosen(to_id: int | None) -> None:
            self.run_worker(self._reassign(query, to_id), group="reassign")

        self.app.push_screen(ReassignDialog(query, candidates), chosen)

    async def _reassign(self, query: StaleQuery, to_id: int | None) -> None:
        if to_id is None or self.profile is None:
            return
        done = await self.study(self.service.reassign, self.profile.id, query.attempt_id, to_id)
        if done is not None:
            self.notify(
                f"Query #{done.item_idx} went from {done.from_name} to {done.to_name}.",
                title="Reassigned",
            )
        self.action_refresh()

    def action_quality(self) -> None:
        """The highlighted annotator on the quality-control screen."""
        from crm_tui.tui.study.people_quality import PeopleQualityScreen

        if self.profile is None:
            return
        highlight = None
        table = self.query_one("#live-annotators", DataTable)
        if table.row_count:
            highlight = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        self.app.push_screen(PeopleQualityScreen(self.service, self.profile, highlight))

    def action_close(self) -> None:
        if self.timer is not None:
            self.timer.stop()
        self.app.pop_screen()
