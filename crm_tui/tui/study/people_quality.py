"""Quality control of the people in a study (coordinators): each person's consent,
qualification, check items, behaviour flags and exclusion, and the three things a
coordinator does about them: let someone who failed the qualification try once more,
exclude a person from the figures with a reason, or count them again (also with a
reason). The calls are the study service's, as `crm-tui study allow-retry|exclude` make
them; nothing is deleted, every exclusion and its lifting is a record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Input, Label, Static

from crm_tui.tui.notices import explain, notify_error
from crm_tui.tui.study.study_screen import StudyDialog, StudyScreen
from crm_tui.tui.styles import css_next_to
from crm_tui.tui.workers import fetch_then_show

if TYPE_CHECKING:
    from crm_tui.study.results.quality_report import PersonQuality, QualityReport
    from crm_tui.study.service import Profile, StudyService

DASH = "—"


def _share(value: float | None) -> str:
    return DASH if value is None else f"{value:.0%}"


def person_row(person: PersonQuality) -> list[str | Text]:
    """Name, consent, qualification, checks, flags, exclusion: as `study quality` says them."""
    checks = DASH
    if person.check_answers:
        checks = f"{_share(person.check_accuracy)} of {person.check_answers}"
        if person.check_verdict:
            checks += f" ({person.check_verdict})"
    qualification: str | Text = person.qualification or DASH
    if person.qualification == "failed":
        qualification = Text("failed", style="bold red")
    excluded: str | Text = DASH
    if person.excluded:
        excluded = Text(person.excluded, style="bold yellow")
    elif person.excluded_attempts:
        excluded = f"{len(person.excluded_attempts)} attempt(s)"
    return [
        person.name,
        person.consent or DASH,
        qualification,
        checks,
        ", ".join(person.flags) or DASH,
        excluded,
    ]


class ReasonDialog(StudyDialog[str]):
    """Exclude a person, or count them again, with a reason. The dialog makes the call and
    closes only once it is made: on a refusal the reason typed stays for another go."""

    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Exclude or count again"
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, service: StudyService, coordinator: Profile, name: str, lift: bool) -> None:
        super().__init__()
        self.service = service
        self.coordinator = coordinator
        self.name_of_person = name
        self.lift = lift

    def compose(self) -> ComposeResult:
        who = self.name_of_person
        with Vertical(id="reason-box", classes="dialog"):
            if self.lift:
                yield Label(f"[b]Count {who} again[/b]")
                yield Static(
                    f"{who}'s answers count in every figure again. The exclusion stays on "
                    "record, with this reason after it."
                )
            else:
                yield Label(f"[b]Exclude {who}[/b]")
                yield Static(
                    f"{who}'s answers leave the figures (`--with-excluded` shows them). "
                    "Nothing is deleted; the reason is kept and named in the report."
                )
            yield Input(placeholder="Reason (required)", id="reason-text")
            yield Static("Enter records it; Esc cancels.", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#reason-text", Input).focus()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        reason = event.value.strip()
        if not reason:
            self.notify("A reason is needed.", title="Reason", severity="error")
            return
        try:
            await self.service.run(
                self.service.exclude,
                self.name_of_person,
                reason,
                lift=self.lift,
                profile_id=self.coordinator.id,
            )
        except Exception as error:
            notify_error(self, error)
            return
        self.dismiss(reason)


class PeopleQualityScreen(StudyScreen):
    """Everyone in a quality-controlled study, with keys to act on the highlighted one."""

    CSS_PATH = css_next_to(__file__)
    HELP_TITLE = "Quality control (coordinators)"
    AUTO_FOCUS = "#quality-people"
    BINDINGS = [
        Binding(
            "t",
            "allow_retry",
            "Allow another try",
            id="quality-retry",
            tooltip="One more qualification try for someone who failed it",
        ),
        Binding("x", "exclude", "Exclude", id="quality-exclude"),
        Binding("i", "include", "Count again", id="quality-include"),
        Binding("ctrl+r", "reload", "Refresh", id="quality-refresh"),
        Binding("escape", "close", "Close", id="quality-close"),
    ]

    def __init__(
        self, service: StudyService, profile: Profile, highlight: str | None = None
    ) -> None:
        super().__init__(service, profile)
        self.overview: QualityReport | None = None
        self.highlight = highlight  # the person to put the cursor on once read

    def compose_body(self) -> ComposeResult:
        yield Static("Quality control", classes="screen-title")
        yield Static("Reading the study…", id="quality-heading")
        yield DataTable(id="quality-people", cursor_type="row", zebra_stripes=True)
        yield Static("", id="quality-hint")

    def on_mount(self) -> None:
        self.title = "Quality control"
        self.sub_title = self.service.study.name
        table = self.query_one("#quality-people", DataTable)
        for label, width in (
            ("Person", 20),
            ("Consent", 9),
            ("Qualification", 13),
            ("Checks", 16),
            ("Flags", 22),
            ("Excluded", 24),
        ):
            table.add_column(label, width=width)
        self.action_reload()

    def action_reload(self) -> None:
        service, coordinator = self.service, self.person.id
        fetch_then_show(
            self,
            lambda: service.quality_overview(coordinator),
            self._show,
            group="quality",
            failed=self._failed,
        )

    def _failed(self, error: Exception) -> None:
        self.query_one("#quality-heading", Static).update(explain(self, error))

    def _show(self, overview: QualityReport | None) -> None:
        heading = self.query_one("#quality-heading", Static)
        if overview is None:
            heading.update("This study has no quality controls (its preset sets none).")
            return
        table = self.query_one("#quality-people", DataTable)
        current = self.highlight if self.overview is None else self._current_name()
        self.overview = overview
        heading.update(
            f"{len(overview.people)} people · {overview.excluded_people} excluded · "
            f"measured accuracy {_share(overview.accuracy_without_excluded)} without the "
            f"exclusions, {_share(overview.accuracy_with_excluded)} with them"
        )
        table.clear()
        for person in overview.people:
            table.add_row(*person_row(person), key=person.name)
        names = [p.name for p in overview.people]
        if current in names:
            table.move_cursor(row=names.index(current))
        self.query_one("#quality-hint", Static).update(
            "t lets someone who failed the qualification try once more; x excludes the "
            "highlighted person with a reason, i counts them again."
        )
        self.refresh_bindings()

    def _current_name(self) -> str | None:
        person = self._current()
        return None if person is None else person.name

    def _current(self) -> PersonQuality | None:
        if self.overview is None or not self.overview.people:
            return None
        table = self.query_one("#quality-people", DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return next((p for p in self.overview.people if p.name == key), None)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("allow_retry", "exclude", "include"):
            person = self._current()
            if person is None:
                return False
            if action == "allow_retry":
                return person.qualification == "failed"
            return (person.excluded is not None) == (action == "include")
        return super().check_action(action, parameters)

    async def action_allow_retry(self) -> None:
        person = self._current()
        if person is None:
            return
        tries = await self.study(self.service.allow_retry, person.name, self.person.id)
        if tries is not None:
            self.notify(
                f"{person.name} may now try the qualification {tries} times in all.",
                title="Another try",
            )
            self.action_reload()

    def action_exclude(self) -> None:
        self._reason(lift=False)

    def action_include(self) -> None:
        self._reason(lift=True)

    def _reason(self, lift: bool) -> None:
        person = self._current()
        if person is None:
            return
        name = person.name

        def done(reason: str | None) -> None:
            if reason is None:
                return
            said = "counted again" if lift else "excluded"
            self.notify(f"{name} {said}: {reason}", title="Quality control")
            self.action_reload()

        self.app.push_screen(ReasonDialog(self.service, self.person, name, lift), done)

    def action_close(self) -> None:
        self.dismiss()
